// SPDX-License-Identifier: GPL-2.0
#include "lib/errnoname.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#include "lib/util.h"

/* Kernel-internal codes (include/linux/errno.h): never returned to user space by a
 * completed syscall, but visible at sys_exit tracepoints (an interrupted open returns
 * -ERESTARTSYS there before the signal is handled). */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ENOIOCTLCMD 515
#define ERESTART_RESTARTBLOCK 516
#define EPROBE_DEFER 517
#define EOPENSTALE 518
#define ENOPARAM 519
#define EBADHANDLE 521
#define ENOTSYNC 522
#define EBADCOOKIE 523
#define ENOTSUPP 524
#define ETOOSMALL 525
#define ESERVERFAULT 526
#define EBADTYPE 527
#define EJUKEBOX 528
#define EIOCBQUEUED 529
#define ERECALLCONFLICT 530
#define ENOGRACE 531

/* The declarative list: one X(NAME) per distinct errno value, in value order
 * (include/uapi/asm-generic/errno-base.h, errno.h, include/linux/errno.h). */
#define PTK_ERRNO_LIST(X)        \
	X(EPERM)                 \
	X(ENOENT)                \
	X(ESRCH)                 \
	X(EINTR)                 \
	X(EIO)                   \
	X(ENXIO)                 \
	X(E2BIG)                 \
	X(ENOEXEC)               \
	X(EBADF)                 \
	X(ECHILD)                \
	X(EAGAIN)                \
	X(ENOMEM)                \
	X(EACCES)                \
	X(EFAULT)                \
	X(ENOTBLK)               \
	X(EBUSY)                 \
	X(EEXIST)                \
	X(EXDEV)                 \
	X(ENODEV)                \
	X(ENOTDIR)               \
	X(EISDIR)                \
	X(EINVAL)                \
	X(ENFILE)                \
	X(EMFILE)                \
	X(ENOTTY)                \
	X(ETXTBSY)               \
	X(EFBIG)                 \
	X(ENOSPC)                \
	X(ESPIPE)                \
	X(EROFS)                 \
	X(EMLINK)                \
	X(EPIPE)                 \
	X(EDOM)                  \
	X(ERANGE)                \
	X(EDEADLK)               \
	X(ENAMETOOLONG)          \
	X(ENOLCK)                \
	X(ENOSYS)                \
	X(ENOTEMPTY)             \
	X(ELOOP)                 \
	X(ENOMSG)                \
	X(EIDRM)                 \
	X(ECHRNG)                \
	X(EL2NSYNC)              \
	X(EL3HLT)                \
	X(EL3RST)                \
	X(ELNRNG)                \
	X(EUNATCH)               \
	X(ENOCSI)                \
	X(EL2HLT)                \
	X(EBADE)                 \
	X(EBADR)                 \
	X(EXFULL)                \
	X(ENOANO)                \
	X(EBADRQC)               \
	X(EBADSLT)               \
	X(EBFONT)                \
	X(ENOSTR)                \
	X(ENODATA)               \
	X(ETIME)                 \
	X(ENOSR)                 \
	X(ENONET)                \
	X(ENOPKG)                \
	X(EREMOTE)               \
	X(ENOLINK)               \
	X(EADV)                  \
	X(ESRMNT)                \
	X(ECOMM)                 \
	X(EPROTO)                \
	X(EMULTIHOP)             \
	X(EDOTDOT)               \
	X(EBADMSG)               \
	X(EOVERFLOW)             \
	X(ENOTUNIQ)              \
	X(EBADFD)                \
	X(EREMCHG)               \
	X(ELIBACC)               \
	X(ELIBBAD)               \
	X(ELIBSCN)               \
	X(ELIBMAX)               \
	X(ELIBEXEC)              \
	X(EILSEQ)                \
	X(ERESTART)              \
	X(ESTRPIPE)              \
	X(EUSERS)                \
	X(ENOTSOCK)              \
	X(EDESTADDRREQ)          \
	X(EMSGSIZE)              \
	X(EPROTOTYPE)            \
	X(ENOPROTOOPT)           \
	X(EPROTONOSUPPORT)       \
	X(ESOCKTNOSUPPORT)       \
	X(EOPNOTSUPP)            \
	X(EPFNOSUPPORT)          \
	X(EAFNOSUPPORT)          \
	X(EADDRINUSE)            \
	X(EADDRNOTAVAIL)         \
	X(ENETDOWN)              \
	X(ENETUNREACH)           \
	X(ENETRESET)             \
	X(ECONNABORTED)          \
	X(ECONNRESET)            \
	X(ENOBUFS)               \
	X(EISCONN)               \
	X(ENOTCONN)              \
	X(ESHUTDOWN)             \
	X(ETOOMANYREFS)          \
	X(ETIMEDOUT)             \
	X(ECONNREFUSED)          \
	X(EHOSTDOWN)             \
	X(EHOSTUNREACH)          \
	X(EALREADY)              \
	X(EINPROGRESS)           \
	X(ESTALE)                \
	X(EUCLEAN)               \
	X(ENOTNAM)               \
	X(ENAVAIL)               \
	X(EISNAM)                \
	X(EREMOTEIO)             \
	X(EDQUOT)                \
	X(ENOMEDIUM)             \
	X(EMEDIUMTYPE)           \
	X(ECANCELED)             \
	X(ENOKEY)                \
	X(EKEYEXPIRED)           \
	X(EKEYREVOKED)           \
	X(EKEYREJECTED)          \
	X(EOWNERDEAD)            \
	X(ENOTRECOVERABLE)       \
	X(ERFKILL)               \
	X(EHWPOISON)             \
	X(ERESTARTSYS)           \
	X(ERESTARTNOINTR)        \
	X(ERESTARTNOHAND)        \
	X(ENOIOCTLCMD)           \
	X(ERESTART_RESTARTBLOCK) \
	X(EPROBE_DEFER)          \
	X(EOPENSTALE)            \
	X(ENOPARAM)              \
	X(EBADHANDLE)            \
	X(ENOTSYNC)              \
	X(EBADCOOKIE)            \
	X(ENOTSUPP)              \
	X(ETOOSMALL)             \
	X(ESERVERFAULT)          \
	X(EBADTYPE)              \
	X(EJUKEBOX)              \
	X(EIOCBQUEUED)           \
	X(ERECALLCONFLICT)       \
	X(ENOGRACE)

/* Aliases: same value as an entry above; accepted by ptk_errno_value() only. */
#define PTK_ERRNO_ALIASES(X) X(EWOULDBLOCK) X(EDEADLOCK) X(ENOTSUP)

#define PTK_ERRNO_NAME(e) [e] = #e,
static const char *const names[] = { PTK_ERRNO_LIST(PTK_ERRNO_NAME) };

#define PTK_ERRNO_ONE(e) +1
static_assert(ARRAY_SIZE(names) == PTK_ERRNO_MAX + 1, "PTK_ERRNO_MAX is the last entry");
/* 133 uapi values (errno 41 and 58 are unassigned) + 19 kernel-internal ones */
static_assert(0 PTK_ERRNO_LIST(PTK_ERRNO_ONE) == 131 + 19, "no value listed twice");

const char *ptk_errno_name(int err)
{
	if (err < 0)
		err = -err;
	if (err <= 0 || err > PTK_ERRNO_MAX)
		return NULL;
	return names[err];
}

int ptk_errno_value(const char *name)
{
#define PTK_ERRNO_ALIAS(e)     \
	if (!strcmp(name, #e)) \
		return e;
	PTK_ERRNO_ALIASES(PTK_ERRNO_ALIAS)
#undef PTK_ERRNO_ALIAS
	for (int i = 1; i <= PTK_ERRNO_MAX; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -1;
}
