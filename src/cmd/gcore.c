// SPDX-License-Identifier: GPL-2.0
/* ptk gcore: an ELF core file of a running process, which keeps running; the pause measured. */
#include <assert.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "output/elfcore.h"
#include "source/ptrace/core.h"
#include "source/ptrace/stop.h"

static const char usage[] =
	"usage: ptk gcore [-o PREFIX] [-a] [--json] PID\n"
	"Write an ELF core file of PID to PREFIX.PID (default core.PID), as gdb's gcore does,\n"
	"while the process keeps running: every thread is seized and interrupted (no SIGSTOP),\n"
	"registers and memory are written, and the threads are let go. The pause is measured.\n"
	"Notes: NT_PRSTATUS per thread, NT_PRPSINFO, NT_SIGINFO, NT_AUXV, NT_FILE, NT_PRFPREG,\n"
	"NT_X86_XSTATE. One PT_LOAD per mapping; which mappings carry their contents follows\n"
	"/proc/PID/coredump_filter with the kernel's rules.\n"
	"  -o PREFIX  output file name prefix (default \"core\")\n"
	"  -a         dump every mapping whole (except VM_DONTDUMP and VM_IO ones)\n";

enum { G_FILE, G_THREADS, G_SEGS, G_BYTES, G_SPARSE, G_HOLES, G_FILTER, G_PAUSE, G_N };
static const struct ptk_metric *const gcore_cols[G_N] = {
	[G_FILE] = PTK_M(CORE_FILE),
	[G_THREADS] = PTK_M(CORE_THREADS),
	[G_SEGS] = PTK_M(CORE_MAPPINGS),
	[G_BYTES] = PTK_M(CORE_DUMPED_BYTES),
	[G_SPARSE] = PTK_M(CORE_UNTOUCHED_BYTES),
	[G_HOLES] = PTK_M(CORE_UNREADABLE_BYTES),
	[G_FILTER] = PTK_M(CORE_FILTER),
	[G_PAUSE] = PTK_M(PTRACE_PAUSE_MS),
};
static const struct ptk_table gcore_tab = { .name = "gcore", .ncols = G_N, .refs = gcore_cols };

#define CHUNK (1 << 20)
#define PAGE 4096

static void add_notes(struct ptk_elfcore *c, const struct ptk_stop *st,
		      const struct ptk_core_thread *pre, int npre, const struct elf_prpsinfo *pi,
		      const struct ptk_core_plan *p)
{
	siginfo_t si;
	size_t len;
	void *buf;
	int cursig = SIGSTOP;

	/* gdb's gcore attaches with SIGSTOP and records it; ptk sends no signal but says the
	 * same (stopped by the dumper), unless the first thread had a real signal pending */
	memset(&si, 0, sizeof(si));
	if (st->t[0].sig && st->t[0].have_siginfo) {
		si = st->t[0].siginfo;
		cursig = st->t[0].sig;
	} else {
		si.si_signo = SIGSTOP;
		si.si_code = SI_USER;
		si.si_pid = getpid();
		si.si_uid = getuid();
	}
	for (int i = 0, first = 1; i < st->n; i++) {
		const struct ptk_stop_thread *t = &st->t[i];
		struct elf_prstatus ps;
		int k;

		if (t->err)
			continue;
		for (k = 0; k < npre && pre[k].tid != t->tid; k++)
			;
		if (k < npre)
			ps = pre[k].ps;
		else if (ptk_core_prstatus(st->pid, t->tid, &ps)) /* born after the plan */
			memset(&ps, 0, sizeof(ps)), ps.pr_pid = t->tid;
		ps.pr_info.si_signo = cursig;
		ps.pr_cursig = cursig;
		static_assert(sizeof(ps.pr_reg) == sizeof(t->regs), "elf_gregset_t");
		memcpy(&ps.pr_reg, &t->regs, sizeof(ps.pr_reg));
		ps.pr_fpvalid = t->have_fpregs;
		ptk_elfcore_note(c, "CORE", NT_PRSTATUS, &ps, sizeof(ps));
		if (first) {
			/* after the first thread's status, as fs/binfmt_elf.c write_note_info() */
			first = 0;
			ptk_elfcore_note(c, "CORE", NT_PRPSINFO, pi, sizeof(*pi));
			ptk_elfcore_note(c, "CORE", NT_SIGINFO, &si, sizeof(si));
			char path[64];
			snprintf(path, sizeof(path), "/proc/%d/auxv", st->pid);
			if ((buf = ptk_slurp(path, &len))) {
				ptk_elfcore_note(c, "CORE", NT_AUXV, buf, len);
				free(buf);
			}
			buf = ptk_core_nt_file(p->v, p->n, &len);
			ptk_elfcore_note(c, "CORE", NT_FILE, buf, len);
			free(buf);
		}
		if (t->have_fpregs)
			ptk_elfcore_note(c, "CORE", NT_PRFPREG, &t->fpregs, sizeof(t->fpregs));
		if (t->xstate)
			ptk_elfcore_note(c, "LINUX", NT_X86_XSTATE, t->xstate, t->xstate_len);
	}
}

/* Copy [vaddr, vaddr + len) to the file at off; unreadable pages stay holes (*holes). */
static int copy_range(int fd, pid_t pid, int memfd, u64 vaddr, u64 len, u64 off, char *buf,
		      u64 *holes)
{
	for (u64 o = 0; o < len;) {
		size_t want = MIN((u64)CHUNK, len - o);
		ssize_t got = ptk_stop_read_mem(pid, memfd, vaddr + o, buf, want);

		if (got > 0) {
			ssize_t w = pwrite(fd, buf, got, off + o);
			if (w != got)
				return w < 0 ? -errno : -EIO;
			o += got;
		}
		if (got < (ssize_t)want) {
			u64 skip = MIN((u64)PAGE - ((vaddr + o) & (PAGE - 1)), len - o);
			*holes += skip;
			o += skip;
		}
	}
	return 0;
}

/*
 * Copy the dumped mappings' memory into the file. In private anonymous mappings, pages never
 * touched (neither present nor swapped, /proc/PID/pagemap bits 63 and 62) read as zeros: they
 * are left as holes without reading them, as the kernel skips them (FOLL_DUMP in
 * get_dump_page()). Pages that cannot be read are holes too (*holes).
 */
static int copy_memory(struct ptk_elfcore *c, const struct ptk_core_plan *p, int fd, pid_t pid,
		       int memfd, u64 *holes, u64 *sparse)
{
	enum { BATCH = 512 };
	char *buf = xmalloc(CHUNK), path[64];
	u64 ent[BATCH];
	int err = 0, pm;

	*holes = *sparse = 0;
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	pm = open(path, O_RDONLY | O_CLOEXEC);
	for (int i = 0; i < c->nsegs && !err; i++) {
		const struct ptk_elfcore_seg *s = &c->segs[i];
		const struct ptk_core_vma *v = &p->v[i];

		if (pm < 0 || v->file || v->shared || v->special) {
			err = copy_range(fd, pid, memfd, s->vaddr, s->filesz, s->offset, buf,
					 holes);
			continue;
		}
		for (u64 o = 0; o < s->filesz && !err; o += BATCH * PAGE) {
			u64 n = MIN((u64)BATCH, (s->filesz - o) / PAGE);
			ssize_t r = pread(pm, ent, n * 8, (s->vaddr + o) / PAGE * 8);

			if (r != (ssize_t)(n * 8)) {
				err = copy_range(fd, pid, memfd, s->vaddr + o, n * PAGE,
						 s->offset + o, buf, holes);
				continue;
			}
			for (u64 k = 0; k < n && !err;) {
				u64 e = k;
				bool used = ent[k] >> 62;

				while (e < n && (bool)(ent[e] >> 62) == used)
					e++;
				if (used)
					err = copy_range(fd, pid, memfd, s->vaddr + o + k * PAGE,
							 (e - k) * PAGE, s->offset + o + k * PAGE,
							 buf, holes);
				else
					*sparse += (e - k) * PAGE;
				k = e;
			}
		}
	}
	if (pm >= 0)
		close(pm);
	free(buf);
	return err;
}

int cmd_gcore(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { PTK_COMMON_OPTS, { 0 } };
	const char *prefix = "core";
	struct ptk_core_thread *pre = NULL;
	struct ptk_elfcore core = { 0 };
	struct ptk_stop st = { 0 };
	struct ptk_core_plan plan = { 0 };
	struct ptk_val v[G_N];
	struct elf_prpsinfo pi;
	char file[PATH_MAX], path[64], filt[16];
	struct ptk_outfile of = { .fd = -1 };
	unsigned filter = PTK_DUMP_DEFAULT;
	int c, r, npre = 0, fd = -1, memfd = -1, rc = PTK_EXIT_RUNTIME;
	bool all = false, stale = false;
	u64 bytes = 0, holes = 0, sparse = 0;
	pid_t pid;

	while ((c = ptk_getopt(ctx, argc, argv, "o:a", lopts, usage, &r)) >= 0) {
		switch (c) {
		case 'o':
			prefix = optarg;
			break;
		case 'a':
			all = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if ((r = ptk_parse_pid_operand(ctx, argc, argv, &pid)))
		return r;
	if (!*prefix)
		return ptk_usage_error(ctx, "empty -o PREFIX");
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	if (!ptk_src_is_live(&ctx->src)) {
		ptk_err("needs a live process: --procfs/--sysfs trees cannot be ptraced");
		return PTK_EXIT_RUNTIME;
	}
	if ((r = ptk_require_stoppable(ctx, pid, "dump")))
		return r;
	if (pid == getpid()) {
		ptk_err("cannot stop itself");
		return PTK_EXIT_RUNTIME;
	}

	/* everything that can be read while the process runs is read before the stop */
	if ((r = ptk_core_plan_read(&ctx->src, pid, &plan))) {
		ptk_err("process %d: cannot read its mappings: %s", pid,
			strerror(r == -ENOENT ? ESRCH : -r));
		goto out_release;
	}
	if (ptk_core_filter(pid, &filter))
		filter = PTK_DUMP_DEFAULT;
	pre = ptk_core_threads_read(pid, &npre);
	if ((r = ptk_core_prpsinfo(pid, &pi))) {
		ptk_err("process %d: %s", pid, strerror(r == -ENOENT ? ESRCH : -r));
		goto out_release;
	}
	snprintf(file, sizeof(file), "%s.%d", prefix, pid);
	/* a core holds the process's memory: owner-only, as the kernel creates them; it gets
	 * its name only when whole (a SIGKILL leaves no truncated core behind) */
	if ((r = ptk_outfile_open(&of, file, 0600))) {
		ptk_err("%s: %s", file, strerror(-r));
		goto out_release;
	}
	fd = of.fd;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	memfd = open(path, O_RDONLY | O_CLOEXEC);

	r = ptk_stop_all(pid, PTK_STOP_FPREGS | PTK_STOP_SIGINFO, 0, &st);
	if (r) {
		ptk_err("cannot stop process %d: %s%s", pid, strerror(-r),
			r == -EPERM ? " (another tracer, or no permission: "
				      "/proc/sys/kernel/yama/ptrace_scope, CAP_SYS_PTRACE)" :
				      "");
		goto out_unlink;
	}
	/* a mapping changed between the plan and the stop: plan again, now that it cannot */
	if ((stale = ptk_core_plan_stale(&ctx->src, pid, &plan))) {
		ptk_core_plan_free(&plan);
		if ((r = ptk_core_plan_read(&ctx->src, pid, &plan))) {
			ptk_err("process %d: cannot read its mappings: %s", pid, strerror(-r));
			goto out_unlink;
		}
	}
	add_notes(&core, &st, pre, npre, &pi, &plan);
	for (int i = 0; i < plan.n; i++) {
		const struct ptk_core_vma *m = &plan.v[i];
		u64 sz = ptk_core_dump_size(m, filter, all);

		ptk_elfcore_seg(&core, m->start, m->end - m->start, sz,
				(m->r ? PF_R : 0) | (m->w ? PF_W : 0) | (m->x ? PF_X : 0));
		bytes += sz;
	}
	if ((r = ptk_elfcore_write_headers(&core, fd)) ||
	    (r = copy_memory(&core, &plan, fd, pid, memfd, &holes, &sparse)) ||
	    (r = ptk_elfcore_finish(&core, fd))) {
		ptk_err("%s: %s", file, strerror(-r));
		goto out_unlink;
	}
	ptk_stop_resume(&st);
	if ((r = ptk_outfile_commit(&of))) {
		ptk_err("%s: %s", file, strerror(-r));
		goto out_unlink;
	}
	if (close(fd)) {
		fd = -1;
		ptk_err("%s: %s", file, strerror(errno));
		unlink(file);
		goto out_release;
	}
	fd = -1;

	snprintf(filt, sizeof(filt), all ? "all" : "0x%x", filter);
	v[G_FILE] = PTK_S(file);
	v[G_THREADS] = PTK_U(ptk_stop_count(&st));
	v[G_SEGS] = PTK_U(core.nsegs);
	v[G_BYTES] = PTK_U(bytes - holes - sparse);
	v[G_SPARSE] = PTK_U(sparse);
	v[G_HOLES] = PTK_U(holes);
	v[G_FILTER] = PTK_S(filt);
	v[G_PAUSE] = PTK_F(ptk_stop_pause_ns(&st) / 1e6);
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_json(&ctx->sink, "gcore", ptk_json_row(&gcore_tab, v));
		ptk_sink_meta_bool(&ctx->sink, "replanned_in_stop", stale);
		ptk_sink_end(&ctx->sink);
	} else {
		char b[G_N][64];
		for (int i = 0; i < G_N; i++)
			ptk_metric_fmt(gcore_cols[i], &v[i], b[i], sizeof(b[i]));
		printf("Saved corefile %s\n", file);
		printf("pid %d: %s threads, %s mappings, %s bytes dumped (%s untouched, %s unreadable), "
		       "coredump_filter %s; paused %s ms\n",
		       pid, b[G_THREADS], b[G_SEGS], b[G_BYTES], b[G_SPARSE], b[G_HOLES],
		       b[G_FILTER], b[G_PAUSE]);
	}
	rc = 0;
	goto out_release;

out_unlink:
	ptk_outfile_abort(&of);
out_release:
	ptk_stop_free(&st); /* detaches if still held */
	if (fd >= 0)
		close(fd);
	if (memfd >= 0)
		close(memfd);
	ptk_elfcore_free(&core);
	ptk_core_plan_free(&plan);
	free(pre);
	return rc;
}
