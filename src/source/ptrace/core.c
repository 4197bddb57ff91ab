// SPDX-License-Identifier: GPL-2.0
/* The kernel's core dump choices (fs/coredump.c, fs/binfmt_elf.c), from /proc. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/ptrace/core.h"
#include "source/ptrace/stop.h"

#define CORE_PAGE 4096

u64 ptk_core_dump_size(const struct ptk_core_vma *v, unsigned filter, bool all)
{
	u64 whole = v->end - v->start;

	if (v->special)
		return whole; /* always_dump_vma(): vdso, vsyscall */
	if (v->dontdump || v->io)
		return 0; /* VM_DONTDUMP (madvise MADV_DONTDUMP), VM_IO */
	if (all)
		return whole;
	if (v->hugetlb) {
		if (v->shared)
			return filter & PTK_DUMP_HUGETLB_SHARED ? whole : 0;
		return filter & PTK_DUMP_HUGETLB_PRIVATE ? whole : 0;
	}
	if (v->shared) {
		/* an anonymous shared mapping is a shmem file with no links */
		unsigned bit =
			!v->file || v->file_gone ? PTK_DUMP_ANON_SHARED : PTK_DUMP_MAPPED_SHARED;
		return filter & bit ? whole : 0;
	}
	/* private: pages written (anon_vma) count as anonymous memory */
	if (v->anon_pages && (filter & PTK_DUMP_ANON_PRIVATE))
		return whole;
	if (!v->file)
		return 0;
	if (filter & PTK_DUMP_MAPPED_PRIVATE)
		return whole;
	/* the first page of an executable file mapping, to tell what was mapped there */
	if ((filter & PTK_DUMP_ELF_HEADERS) && v->offset == 0 && v->r &&
	    (v->exec_file || v->elf_magic))
		return MIN(whole, (u64)CORE_PAGE);
	return 0;
}

static bool has_flag(const char *vmflags, const char *f)
{
	size_t l = strlen(f);

	for (const char *p = vmflags; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, f, l) && (p[l] == ' ' || p[l] == '\0'))
			return true;
		p = strchr(p, ' ');
	}
	return false;
}

void ptk_core_vma_from_smap(const struct ptk_smaps *s, const struct ptk_smap *m,
			    struct ptk_core_vma *v)
{
	int anon = ptk_smaps_field(s, "Anonymous"), swap = s->key[PTK_SM_SWAP];
	size_t pl = strlen(m->path);

	memset(v, 0, sizeof(*v));
	v->start = m->start;
	v->end = m->end;
	v->offset = m->offset;
	v->r = m->perms[0] == 'r';
	v->w = m->perms[1] == 'w';
	v->x = m->perms[2] == 'x';
	v->shared = m->vmflags ? has_flag(m->vmflags, "sh") : m->perms[3] == 's';
	v->path = m->path;
	v->file = m->path[0] == '/';
	v->file_gone = v->file && pl > 10 && !strcmp(m->path + pl - 10, " (deleted)");
	v->special = !strcmp(m->path, "[vdso]") || !strcmp(m->path, "[vsyscall]");
	v->dontdump = has_flag(m->vmflags, "dd");
	v->io = has_flag(m->vmflags, "io") || has_flag(m->vmflags, "pf");
	v->hugetlb = has_flag(m->vmflags, "ht");
	v->anon_pages = (anon >= 0 && (m->have >> anon & 1) && m->val[anon] > 0) ||
			(swap >= 0 && (m->have >> swap & 1) && m->val[swap] > 0);
}

void *ptk_core_nt_file(const struct ptk_core_vma *v, int n, size_t *len)
{
	size_t count = 0, names = 0, off;
	u64 *hdr;
	char *buf;

	for (int i = 0; i < n; i++) {
		if (v[i].file) {
			count++;
			names += strlen(v[i].path) + 1;
		}
	}
	*len = (2 + 3 * count) * sizeof(u64) + names;
	buf = xcalloc(1, *len);
	hdr = (u64 *)buf;
	hdr[0] = count;
	hdr[1] = CORE_PAGE;
	off = (2 + 3 * count) * sizeof(u64);
	for (int i = 0, k = 0; i < n; i++) {
		if (!v[i].file)
			continue;
		hdr[2 + 3 * k] = v[i].start;
		hdr[3 + 3 * k] = v[i].end;
		hdr[4 + 3 * k] = v[i].offset / CORE_PAGE;
		k++;
		strcpy(buf + off, v[i].path);
		off += strlen(v[i].path) + 1;
	}
	return buf;
}

/* Fields of a stat line after the comm: f[i] = field i + 3 (f[1] ppid, f[2] pgrp, f[3] session,
 * f[6] flags, f[11] utime, f[12] stime, f[13] cutime, f[14] cstime, f[16] nice); the state
 * (field 3) in *state. */
static int stat_fields(const char *path, char *state, long long *f, int nf)
{
	char buf[1024], *p;
	ssize_t n = ptk_read_file(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -EINVAL;
	*state = p[2];
	p += 3;
	f[0] = 0;
	for (int i = 1; i < nf; i++) {
		char *e;
		f[i] = strtoll(p, &e, 10);
		if (e == p)
			return -EINVAL;
		p = e;
	}
	return 0;
}

static struct timeval ticks_tv(long long t)
{
	long hz = sysconf(_SC_CLK_TCK);
	long long us = t * 1000000 / (hz > 0 ? hz : 100);

	return (struct timeval){ us / 1000000, us % 1000000 };
}

/* Hex value of "Key:\t..." in a status file. */
static u64 status_hex(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	return p ? strtoull(p + strlen(key), NULL, 16) : 0;
}

int ptk_core_prstatus(pid_t pid, pid_t tid, struct elf_prstatus *ps)
{
	char path[96], buf[4096], state = 0;
	long long f[18];
	int err;

	memset(ps, 0, sizeof(*ps));
	if (tid == pid)
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if ((err = stat_fields(path, &state, f, 16)))
		return err;
	ps->pr_pid = tid;
	ps->pr_ppid = f[1];
	ps->pr_pgrp = f[2];
	ps->pr_sid = f[3];
	ps->pr_utime = ticks_tv(f[11]);
	ps->pr_stime = ticks_tv(f[12]);
	ps->pr_cutime = ticks_tv(f[13]);
	ps->pr_cstime = ticks_tv(f[14]);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (ptk_read_file(path, buf, sizeof(buf)) > 0) {
		ps->pr_sigpend = status_hex(buf, "\nSigPnd:");
		ps->pr_sighold = status_hex(buf, "\nSigBlk:");
	}
	return 0;
}

int ptk_core_prpsinfo(pid_t pid, struct elf_prpsinfo *pi)
{
	static const char states[] = "RSDTZW";
	char path[64], buf[4096], state = 0, *s;
	long long f[18];
	ssize_t n;
	int err;

	memset(pi, 0, sizeof(*pi));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((err = stat_fields(path, &state, f, 17)))
		return err;
	s = strchr(states, state == 't' ? 'T' : state == 'I' ? 'D' : state);
	pi->pr_state = s && state ? s - states : 0;
	pi->pr_sname = s && state ? states[(int)pi->pr_state] : '.';
	pi->pr_zomb = pi->pr_sname == 'Z';
	pi->pr_nice = f[16];
	pi->pr_flag = f[6];
	pi->pr_pid = pid;
	pi->pr_ppid = f[1];
	pi->pr_pgrp = f[2];
	pi->pr_sid = f[3];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (ptk_read_file(path, buf, sizeof(buf)) > 0) {
		const char *u = strstr(buf, "\nUid:"), *g = strstr(buf, "\nGid:");
		if (u)
			pi->pr_uid = strtoul(u + 5, NULL, 10);
		if (g)
			pi->pr_gid = strtoul(g + 5, NULL, 10);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (ptk_read_file(path, buf, sizeof(buf)) > 0) {
		size_t l = MIN(strcspn(buf, "\n"), sizeof(pi->pr_fname) - 1);
		memcpy(pi->pr_fname, buf, l);
	}
	/* the command line, NULs as spaces, at most ELF_PRARGSZ - 1 bytes */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	n = ptk_read_file(path, buf, sizeof(pi->pr_psargs));
	for (ssize_t i = 0; i < n; i++)
		pi->pr_psargs[i] = buf[i] ? buf[i] : ' ';
	while (n > 0 && pi->pr_psargs[n - 1] == ' ')
		pi->pr_psargs[--n] = '\0';
	return 0;
}

int ptk_core_filter(pid_t pid, unsigned *filter)
{
	char path[64], buf[32];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/coredump_filter", pid);
	n = ptk_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	*filter = strtoul(buf, NULL, 16);
	return 0;
}

void ptk_core_plan_free(struct ptk_core_plan *p)
{
	ptk_smaps_free(&p->sm);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

int ptk_core_plan_read(const struct ptk_src *src, pid_t pid, struct ptk_core_plan *p)
{
	int err;

	memset(p, 0, sizeof(*p));
	if ((err = ptk_smaps_read(src, pid, true, &p->sm)))
		return err;
	p->n = p->sm.n;
	p->v = xcalloc(p->n ? p->n : 1, sizeof(*p->v));
	for (int i = 0; i < p->n; i++) {
		struct ptk_core_vma *v = &p->v[i];
		char path[PATH_MAX + 32], magic[4];
		struct stat sb;

		ptk_core_vma_from_smap(&p->sm, &p->sm.m[i], v);
		if (!v->file || v->offset || !v->r)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, v->path);
		v->exec_file = stat(path, &sb) == 0 && (sb.st_mode & 0111);
		v->elf_magic = ptk_stop_read_mem(pid, -1, v->start, magic, 4) == 4 &&
			       !memcmp(magic, ELFMAG, SELFMAG);
	}
	return 0;
}

bool ptk_core_plan_stale(const struct ptk_src *src, pid_t pid, const struct ptk_core_plan *p)
{
	struct ptk_smaps now = { 0 };
	bool stale = true;

	if (ptk_smaps_read(src, pid, false, &now) == 0 && now.n == p->sm.n) {
		stale = false;
		for (int i = 0; i < now.n && !stale; i++) {
			const struct ptk_smap *a = &now.m[i], *b = &p->sm.m[i];
			stale = a->start != b->start || a->end != b->end ||
				strcmp(a->perms, b->perms) || strcmp(a->path, b->path);
		}
	}
	ptk_smaps_free(&now);
	return stale;
}

struct ptk_core_thread *ptk_core_threads_read(pid_t pid, int *n)
{
	struct ptk_core_thread *pre = NULL;
	struct dirent *e;
	char path[64];
	int cap = 0;
	DIR *d;

	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if (!(d = opendir(path)))
		return NULL;
	while ((e = readdir(d))) {
		int tid;

		if (ptk_parse_int(e->d_name, &tid) || tid <= 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			pre = xrealloc(pre, cap * sizeof(*pre));
		}
		if (ptk_core_prstatus(pid, tid, &pre[*n].ps) == 0)
			pre[(*n)++].tid = tid;
	}
	closedir(d);
	return pre;
}
