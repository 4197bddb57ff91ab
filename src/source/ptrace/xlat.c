// SPDX-License-Identifier: GPL-2.0
#include "source/ptrace/xlat.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

#define X(n) { (uint64_t)(n), #n },
#define XV(n, v) { (uint64_t)(v), #n },
#define XLAT(var, LIST)                                        \
	static const struct ptk_xlat_ent var##_e[] = { LIST }; \
	const struct ptk_xlat var = { var##_e, ARRAY_SIZE(var##_e) }

/* include/uapi/asm-generic/fcntl.h; the access mode (O_ACCMODE) is printed separately.
 * Composite values (O_SYNC, O_TMPFILE) come before their parts. */
XLAT(ptk_x_open_flags,
     X(O_CREAT) X(O_EXCL) X(O_NOCTTY) X(O_TRUNC) X(O_APPEND) X(O_NONBLOCK) X(O_SYNC) X(O_DSYNC)
	     X(O_DIRECT) XV(O_LARGEFILE, 0100000) X(O_NOFOLLOW) X(O_NOATIME) X(O_CLOEXEC) X(O_PATH)
		     X(O_TMPFILE) X(O_DIRECTORY) X(O_ASYNC));
/* include/uapi/linux/fcntl.h */
XLAT(ptk_x_at_flags,
     XV(AT_SYMLINK_NOFOLLOW, 0x100) XV(AT_REMOVEDIR, 0x200) XV(AT_SYMLINK_FOLLOW, 0x400)
	     XV(AT_NO_AUTOMOUNT, 0x800) XV(AT_EMPTY_PATH, 0x1000) XV(AT_EACCESS, 0x200)
		     XV(AT_STATX_FORCE_SYNC, 0x2000) XV(AT_STATX_DONT_SYNC, 0x4000)
			     XV(AT_RECURSIVE, 0x8000));
/* include/uapi/asm-generic/mman-common.h */
XLAT(ptk_x_prot, X(PROT_READ) X(PROT_WRITE) X(PROT_EXEC) XV(PROT_SEM, 0x8) XV(PROT_BTI, 0x10)
			 X(PROT_GROWSDOWN) X(PROT_GROWSUP));
XLAT(ptk_x_map_type, X(MAP_SHARED) X(MAP_PRIVATE) XV(MAP_SHARED_VALIDATE, 3));
XLAT(ptk_x_map_flags,
     X(MAP_FIXED) X(MAP_ANONYMOUS) X(MAP_32BIT) XV(MAP_ABOVE4G, 0x80) X(MAP_NORESERVE)
	     X(MAP_POPULATE) X(MAP_NONBLOCK) X(MAP_GROWSDOWN) X(MAP_DENYWRITE) X(MAP_EXECUTABLE)
		     X(MAP_LOCKED) X(MAP_STACK) X(MAP_HUGETLB) XV(MAP_SYNC, 0x80000)
			     XV(MAP_UNINITIALIZED, 0x4000000) XV(MAP_FIXED_NOREPLACE, 0x100000));
/* include/uapi/linux/sched.h; the low byte is the exit signal */
XLAT(ptk_x_clone_flags,
     X(CLONE_VM) X(CLONE_FS) X(CLONE_FILES) X(CLONE_SIGHAND) X(CLONE_PIDFD) X(CLONE_PTRACE)
	     X(CLONE_VFORK) X(CLONE_PARENT) X(CLONE_THREAD) X(CLONE_NEWNS) X(CLONE_SYSVSEM)
		     X(CLONE_SETTLS) X(CLONE_PARENT_SETTID) X(CLONE_CHILD_CLEARTID)
			     X(CLONE_DETACHED) X(CLONE_UNTRACED) X(CLONE_CHILD_SETTID)
				     X(CLONE_NEWCGROUP) X(CLONE_NEWUTS) X(CLONE_NEWIPC)
					     X(CLONE_NEWUSER) X(CLONE_NEWPID) X(CLONE_NEWNET)
						     X(CLONE_IO));
/* include/linux/socket.h */
XLAT(ptk_x_af,
     X(AF_UNSPEC) X(AF_UNIX) X(AF_INET) X(AF_AX25) X(AF_IPX) X(AF_APPLETALK) X(AF_NETROM)
	     X(AF_BRIDGE) X(AF_ATMPVC) X(AF_X25) X(AF_INET6) X(AF_ROSE) X(AF_DECnet) X(AF_NETBEUI)
		     X(AF_SECURITY) X(AF_KEY) X(AF_NETLINK) X(AF_PACKET) X(AF_ASH) X(AF_ECONET)
			     X(AF_ATMSVC) X(AF_RDS) X(AF_SNA) X(AF_IRDA) X(AF_PPPOX) X(AF_WANPIPE)
				     X(AF_LLC) X(AF_IB) X(AF_MPLS) X(AF_CAN) X(AF_TIPC)
					     X(AF_BLUETOOTH) X(AF_IUCV) X(AF_RXRPC) X(AF_ISDN)
						     X(AF_PHONET) X(AF_IEEE802154) X(AF_CAIF)
							     X(AF_ALG) X(AF_NFC) X(AF_VSOCK)
								     X(AF_KCM) X(AF_QIPCRTR)
									     X(AF_SMC) X(AF_XDP));
XLAT(ptk_x_sock_type, X(SOCK_STREAM) X(SOCK_DGRAM) X(SOCK_RAW) X(SOCK_RDM) X(SOCK_SEQPACKET)
			      X(SOCK_DCCP) X(SOCK_PACKET));
XLAT(ptk_x_sock_flags, X(SOCK_NONBLOCK) X(SOCK_CLOEXEC));
XLAT(ptk_x_ipproto,
     X(IPPROTO_IP) X(IPPROTO_ICMP) X(IPPROTO_IGMP) X(IPPROTO_IPIP) X(IPPROTO_TCP) X(IPPROTO_EGP)
	     X(IPPROTO_PUP) X(IPPROTO_UDP) X(IPPROTO_IDP) X(IPPROTO_TP) X(IPPROTO_DCCP)
		     X(IPPROTO_IPV6) X(IPPROTO_RSVP) X(IPPROTO_GRE) X(IPPROTO_ESP) X(IPPROTO_AH)
			     X(IPPROTO_ICMPV6) X(IPPROTO_MTP) X(IPPROTO_BEETPH) X(IPPROTO_ENCAP)
				     X(IPPROTO_PIM) X(IPPROTO_COMP) X(IPPROTO_SCTP)
					     X(IPPROTO_UDPLITE) X(IPPROTO_MPLS) X(IPPROTO_RAW)
						     X(IPPROTO_MPTCP));
XLAT(ptk_x_msg_flags,
     X(MSG_OOB) X(MSG_PEEK) X(MSG_DONTROUTE) X(MSG_CTRUNC) X(MSG_PROXY) X(MSG_TRUNC) X(MSG_DONTWAIT)
	     X(MSG_EOR) X(MSG_WAITALL) X(MSG_FIN) X(MSG_SYN) X(MSG_CONFIRM) X(MSG_RST)
		     X(MSG_ERRQUEUE) X(MSG_NOSIGNAL) X(MSG_MORE) X(MSG_WAITFORONE) X(MSG_BATCH)
			     X(MSG_ZEROCOPY) X(MSG_FASTOPEN) X(MSG_CMSG_CLOEXEC));
/* include/uapi/linux/time.h */
XLAT(ptk_x_clocks,
     X(CLOCK_REALTIME) X(CLOCK_MONOTONIC) X(CLOCK_PROCESS_CPUTIME_ID) X(CLOCK_THREAD_CPUTIME_ID)
	     X(CLOCK_MONOTONIC_RAW) X(CLOCK_REALTIME_COARSE) X(CLOCK_MONOTONIC_COARSE)
		     X(CLOCK_BOOTTIME) X(CLOCK_REALTIME_ALARM) X(CLOCK_BOOTTIME_ALARM)
			     X(CLOCK_TAI));
XLAT(ptk_x_whence, X(SEEK_SET) X(SEEK_CUR) X(SEEK_END) X(SEEK_DATA) X(SEEK_HOLE));
XLAT(ptk_x_access, X(R_OK) X(W_OK) X(X_OK));
/* include/uapi/asm-generic/fcntl.h, include/uapi/linux/fcntl.h */
XLAT(ptk_x_fcntl_cmd,
     X(F_DUPFD) X(F_GETFD) X(F_SETFD) X(F_GETFL) X(F_SETFL) X(F_GETLK) X(F_SETLK) X(F_SETLKW)
	     X(F_SETOWN) X(F_GETOWN) X(F_SETSIG) X(F_GETSIG) X(F_SETOWN_EX) X(F_GETOWN_EX)
		     X(F_OFD_GETLK) X(F_OFD_SETLK) X(F_OFD_SETLKW) X(F_SETLEASE) X(F_GETLEASE)
			     X(F_NOTIFY) X(F_DUPFD_CLOEXEC) X(F_SETPIPE_SZ) X(F_GETPIPE_SZ)
				     X(F_ADD_SEALS) X(F_GET_SEALS));
XLAT(ptk_x_sighow, X(SIG_BLOCK) X(SIG_UNBLOCK) X(SIG_SETMASK));
XLAT(ptk_x_wait_opts,
     X(WNOHANG) X(WUNTRACED) X(WCONTINUED) X(WEXITED) X(WNOWAIT) XV(__WNOTHREAD, 0x20000000)
	     XV(__WALL, 0x40000000) XV(__WCLONE, 0x80000000));
/* arch/x86/include/uapi/asm/prctl.h */
XLAT(ptk_x_arch_prctl,
     XV(ARCH_SET_GS, 0x1001) XV(ARCH_SET_FS, 0x1002) XV(ARCH_GET_FS, 0x1003) XV(ARCH_GET_GS, 0x1004)
	     XV(ARCH_GET_CPUID, 0x1011) XV(ARCH_SET_CPUID, 0x1012) XV(ARCH_GET_XCOMP_SUPP, 0x1021)
		     XV(ARCH_GET_XCOMP_PERM, 0x1022) XV(ARCH_REQ_XCOMP_PERM, 0x1023)
			     XV(ARCH_SHSTK_ENABLE, 0x5001) XV(ARCH_SHSTK_DISABLE, 0x5002)
				     XV(ARCH_SHSTK_STATUS, 0x5005));
/* include/uapi/asm-generic/signal-defs.h */
XLAT(ptk_x_sa_flags, X(SA_NOCLDSTOP) X(SA_NOCLDWAIT) X(SA_SIGINFO) XV(SA_RESTORER, 0x04000000)
			     X(SA_ONSTACK) X(SA_RESTART) X(SA_NODEFER) X(SA_RESETHAND));
/* include/uapi/asm-generic/siginfo.h */
XLAT(ptk_x_si_codes,
     X(SI_USER) XV(SI_KERNEL, 0x80) X(SI_QUEUE) X(SI_TIMER) X(SI_MESGQ) X(SI_ASYNCIO) X(SI_SIGIO)
	     X(SI_TKILL) XV(SI_DETHREAD, -7) XV(SI_ASYNCNL, -60));
XLAT(ptk_x_cld_codes,
     X(CLD_EXITED) X(CLD_KILLED) X(CLD_DUMPED) X(CLD_TRAPPED) X(CLD_STOPPED) X(CLD_CONTINUED));
/* include/uapi/asm-generic/ioctls.h: terminal requests ('T' type) */
XLAT(ptk_x_ioctl_tty,
     X(TCGETS) X(TCSETS) X(TCSETSW) X(TCSETSF) X(TCGETA) X(TCSETA) X(TCSETAW) X(TCSETAF) X(
	     TCSBRK) X(TCXONC) X(TCFLSH) X(TIOCEXCL) X(TIOCNXCL) X(TIOCSCTTY) X(TIOCGPGRP)
	     X(TIOCSPGRP) X(TIOCOUTQ) X(TIOCSTI) X(TIOCGWINSZ) X(TIOCSWINSZ) X(TIOCMGET) X(
		     TIOCMBIS) X(TIOCMBIC) X(TIOCMSET) X(TIOCGSOFTCAR) X(TIOCSSOFTCAR) X(FIONREAD)
		     X(TIOCLINUX) X(TIOCCONS) X(TIOCGSERIAL) X(TIOCSSERIAL) X(TIOCPKT) X(FIONBIO)
			     X(TIOCNOTTY) X(TIOCSETD) X(TIOCGETD) X(TCSBRKP) X(TIOCSBRK) X(TIOCCBRK)
				     X(TIOCGSID) X(TIOCGPTN) X(TIOCSPTLCK) X(TIOCGDEV) X(TIOCSIG)
					     X(TIOCVHANGUP) X(TIOCGPKT) X(TIOCGPTLCK) X(TIOCGEXCL)
						     X(TIOCGPTPEER) X(FIONCLEX) X(FIOCLEX)
							     X(FIOASYNC) X(TIOCSERGETLSR)
								     X(TIOCGICOUNT) X(FIOQSIZE));
/* fs-level requests that are not tied to one driver (include/uapi/linux/fs.h) */
XLAT(ptk_x_ioctl_misc,
     XV(FS_IOC_GETFLAGS, 0x80086601) XV(FS_IOC_SETFLAGS, 0x40086602)
	     XV(FS_IOC_GETVERSION, 0x80087601) XV(FIGETBSZ, 2) XV(FIBMAP, 1)
		     XV(BLKGETSIZE64, 0x80081272) XV(BLKSSZGET, 0x1268) XV(FICLONE, 0x40049409)
			     XV(FIFREEZE, 0xc0045877) XV(FITHAW, 0xc0045878)
				     XV(FITRIM, 0xc0185879));

/* include/uapi/asm-generic/termbits.h (the multi-bit delay and size fields apart) */
XLAT(ptk_x_tc_iflag, X(IGNBRK) X(BRKINT) X(IGNPAR) X(PARMRK) X(INPCK) X(ISTRIP) X(INLCR) X(IGNCR)
			     X(ICRNL) X(IUCLC) X(IXON) X(IXANY) X(IXOFF) X(IMAXBEL) X(IUTF8));
XLAT(ptk_x_tc_oflag, X(OPOST) X(OLCUC) X(ONLCR) X(OCRNL) X(ONOCR) X(ONLRET) X(OFILL) X(OFDEL));
XLAT(ptk_x_tc_cflag, X(CSTOPB) X(CREAD) X(PARENB) X(PARODD) X(HUPCL) X(CLOCAL) X(CRTSCTS));
XLAT(ptk_x_tc_lflag,
     X(ISIG) X(ICANON) X(XCASE) X(ECHO) X(ECHOE) X(ECHOK) X(ECHONL) X(NOFLSH) X(TOSTOP) X(IEXTEN)
	     X(ECHOCTL) X(ECHOPRT) X(ECHOKE) X(FLUSHO) X(PENDIN) X(EXTPROC));

#undef X
#undef XV

const char *ptk_xlat_name(const struct ptk_xlat *x, uint64_t val)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->e[i].val == val)
			return x->e[i].name;
	return NULL;
}

char *ptk_xlat_flags(const struct ptk_xlat *x, uint64_t flags, const char *zero_name, char *buf,
		     size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	if (!flags) {
		snprintf(buf, size, "%s", zero_name ? zero_name : "0");
		return buf;
	}
	for (size_t i = 0; i < x->n && flags; i++) {
		uint64_t v = x->e[i].val;
		if (v && (flags & v) == v) {
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
					len ? "|" : "", x->e[i].name);
			flags &= ~v;
		}
	}
	if (flags)
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%#" PRIx64,
				len ? "|" : "", flags);
	return buf;
}

static const char *const signames[] = {
	[SIGHUP] = "HUP",   [SIGINT] = "INT",	    [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
	[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT",	    [SIGBUS] = "BUS",	[SIGFPE] = "FPE",
	[SIGKILL] = "KILL", [SIGUSR1] = "USR1",	    [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM",	    [SIGTERM] = "TERM", [SIGSTKFLT] = "STKFLT",
	[SIGCHLD] = "CHLD", [SIGCONT] = "CONT",	    [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
	[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU",	    [SIGURG] = "URG",	[SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH",
	[SIGIO] = "IO",	    [SIGPWR] = "PWR",	    [SIGSYS] = "SYS",
};

const char *ptk_signal_abbrev(int sig)
{
	/* kernel numbering: 32 is the first real-time signal (strace: RTMIN, RT_1 ...) */
	static char rt[33][8];

	if (sig > 0 && sig < (int)ARRAY_SIZE(signames) && signames[sig])
		return signames[sig];
	if (sig == 32)
		return "RTMIN";
	if (sig > 32 && sig <= 64) {
		if (!rt[sig - 32][0])
			snprintf(rt[sig - 32], sizeof(rt[0]), "RT_%d", sig - 32);
		return rt[sig - 32];
	}
	return NULL;
}

const char *ptk_signal_name(int sig)
{
	static char buf[65][12];
	const char *a = ptk_signal_abbrev(sig);

	if (!a)
		return NULL;
	if (!buf[sig][0])
		snprintf(buf[sig], sizeof(buf[0]), "SIG%s", a);
	return buf[sig];
}

int ptk_signal_parse(const char *s)
{
	int v;

	if (!ptk_parse_int(s, &v))
		return v > 0 && v <= 64 ? v : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i <= 64; i++)
		if (!strcasecmp(ptk_signal_abbrev(i), s))
			return i;
	return -1;
}
