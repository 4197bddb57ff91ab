// SPDX-License-Identifier: GPL-2.0
/* perf_event_open(2): event names, counters, targets, launched commands, the ring buffer. */
#include "source/perf/perf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/child.h"
#include "source/tracefs/tracefs.h"

/* ---- event names (tools/perf/util/parse-events.c spells them) ---- */

struct sym_event {
	const char *name, *alias;
	u32 type;
	u64 config;
};

static const struct sym_event sym_events[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* Hardware cache events: <cache>-<op>[-<result>] (parse-events.c evsel__hw_cache*). */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][4] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][4] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
					      "speculative-load" },
};
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][4] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

/* Match the longest alias of table row at the start of s followed by '-' or '\0'. */
static int match_prefix(const char *s, const char *const names[4], size_t *len)
{
	size_t best = 0;

	for (int i = 0; i < 4 && names[i]; i++) {
		size_t l = strlen(names[i]);
		if (l > best && !strncasecmp(s, names[i], l) && (s[l] == '-' || s[l] == '\0'))
			best = l;
	}
	*len = best;
	return best ? 0 : -1;
}

static int parse_cache(const char *s, u64 *config)
{
	int c = -1, op = -1, res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	size_t l;

	for (int i = 0; i < PERF_COUNT_HW_CACHE_MAX && c < 0; i++)
		if (match_prefix(s, cache_names[i], &l) == 0)
			c = i;
	if (c < 0 || s[l] != '-')
		return -EINVAL;
	s += l + 1;
	for (int i = 0; i < PERF_COUNT_HW_CACHE_OP_MAX && op < 0; i++)
		if (match_prefix(s, cache_ops[i], &l) == 0)
			op = i;
	if (op < 0)
		return -EINVAL;
	s += l;
	if (*s == '-') {
		s++;
		res = -1;
		for (int i = 0; i < PERF_COUNT_HW_CACHE_RESULT_MAX && res < 0; i++)
			if (match_prefix(s, cache_results[i], &l) == 0)
				res = i;
		if (res < 0 || s[l])
			return -EINVAL;
	} else if (*s) {
		return -EINVAL;
	}
	*config = c | (op << 8) | ((u64)res << 16);
	return 0;
}

static int parse_mods(const char *m, struct perf_event_attr *a)
{
	bool u = false, k = false;

	for (; *m; m++) {
		if (*m == 'u')
			u = true;
		else if (*m == 'k')
			k = true;
		else
			return -EINVAL;
	}
	/* ":u" counts user only, ":k" kernel only, ":uk" both */
	a->exclude_kernel = u && !k;
	a->exclude_user = k && !u;
	return 0;
}

static bool tp_name_ok(const char *s, size_t n)
{
	if (!n || n > 128)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || s[i] == '-' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static int parse_tracepoint(const char *cat, size_t clen, const char *ev, size_t elen, u64 *id)
{
	char c[129], e[129];

	if (!tp_name_ok(cat, clen) || !tp_name_ok(ev, elen))
		return -EINVAL;
	snprintf(c, sizeof(c), "%.*s", (int)clen, cat);
	snprintf(e, sizeof(e), "%.*s", (int)elen, ev);
	return ptk_tp_id_read(c, e, id);
}

int ptk_perf_event_parse(const char *name, struct perf_event_attr *attr)
{
	const char *colon = strchr(name, ':');
	size_t base = colon ? (size_t)(colon - name) : strlen(name);
	char b[96];
	u64 cfg;
	int err;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (!base || base >= sizeof(b))
		return -EINVAL;
	memcpy(b, name, base);
	b[base] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sym_events); i++) {
		const struct sym_event *e = &sym_events[i];
		if (strcmp(b, e->name) && (!e->alias || strcmp(b, e->alias)))
			continue;
		attr->type = e->type;
		attr->config = e->config;
		return colon ? parse_mods(colon + 1, attr) : 0;
	}
	if (parse_cache(b, &cfg) == 0) {
		attr->type = PERF_TYPE_HW_CACHE;
		attr->config = cfg;
		return colon ? parse_mods(colon + 1, attr) : 0;
	}
	if (b[0] == 'r' && b[1] && strspn(b + 1, "0123456789abcdefABCDEF") == base - 1) {
		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(b + 1, NULL, 16);
		return colon ? parse_mods(colon + 1, attr) : 0;
	}
	if (colon) {
		/* cat:event[:mods] */
		const char *ev = colon + 1, *c2 = strchr(ev, ':');
		size_t elen = c2 ? (size_t)(c2 - ev) : strlen(ev);
		if (!tp_name_ok(b, base) || !tp_name_ok(ev, elen))
			return -EINVAL;
		if (c2 && parse_mods(c2 + 1, attr))
			return -EINVAL;
		err = parse_tracepoint(b, base, ev, elen, &cfg);
		if (err)
			return err;
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = cfg;
		return 0;
	}
	return -EINVAL;
}

bool ptk_perf_is(const struct perf_event_attr *attr, u32 type, u64 config)
{
	return attr->type == type && attr->config == config;
}

const char *ptk_perf_event_unit(const struct perf_event_attr *attr, double *scale)
{
	if (ptk_perf_is(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	    ptk_perf_is(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK)) {
		*scale = 1e-6;
		return "msec";
	}
	*scale = 1;
	return "";
}

/* ---- counts ---- */

bool ptk_perf_scale(const struct ptk_perf_count *c, double *val, double *pct)
{
	*pct = c->ena ? 100.0 * c->run / c->ena : 100.0;
	if (!c->ena || !c->run) {
		*val = 0;
		return false;
	}
	*val = c->run && c->run < c->ena ? (double)c->val * c->ena / c->run : (double)c->val;
	return true;
}

void ptk_perf_count_sub(const struct ptk_perf_count *a, const struct ptk_perf_count *b,
			struct ptk_perf_count *c)
{
	c->val = a->val >= b->val ? a->val - b->val : 0;
	c->ena = a->ena >= b->ena ? a->ena - b->ena : 0;
	c->run = a->run >= b->run ? a->run - b->run : 0;
}

/* ---- targets ---- */

static int read_cpulist(const char *path, bool *mask, int n)
{
	char buf[4096];

	if (ptk_read_file(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	buf[strcspn(buf, "\n")] = '\0';
	return ptk_parse_cpulist(buf, mask, n);
}

int ptk_perf_ncpus(void)
{
	static int n;
	bool *m;

	if (n > 0)
		return n;
	m = xcalloc(4096, sizeof(bool));
	n = read_cpulist("/sys/devices/system/cpu/possible", m, 4096);
	free(m);
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (n <= 0)
		n = 1;
	return n;
}

static void add_pair(struct ptk_perf_pair **p, int *n, int *cap, pid_t pid, int cpu)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*p = xrealloc(*p, *cap * sizeof(**p));
	}
	(*p)[*n].pid = pid;
	(*p)[(*n)++].cpu = cpu;
}

int ptk_perf_target_pairs(const struct ptk_perf_target *t, bool per_cpu, struct ptk_perf_pair **out)
{
	int ncpu = ptk_perf_ncpus(), n = 0, cap = 0, ntask = 0;
	bool *online = xcalloc(ncpu, sizeof(bool));
	struct ptk_perf_pair *p = NULL;
	pid_t *tasks = NULL;

	if (read_cpulist("/sys/devices/system/cpu/online", online, ncpu) <= 0)
		for (int c = 0; c < ncpu; c++)
			online[c] = true;
	if (t->kind == PTK_PERF_CPUS) {
		for (int c = 0; c < ncpu; c++)
			if (online[c] && (!t->cpus || (c < t->ncpus && t->cpus[c])))
				add_pair(&p, &n, &cap, -1, c);
		free(online);
		if (!n)
			return -ENOENT;
		*out = p;
		return n;
	}
	if (t->kind == PTK_PERF_PID) {
		char path[64];
		struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%d/task", t->pid);
		dir = opendir(path);
		if (!dir) {
			free(online);
			return -ESRCH;
		}
		while ((d = readdir(dir))) {
			int tid;
			if (d->d_name[0] == '.' || ptk_parse_int(d->d_name, &tid))
				continue;
			tasks = xrealloc(tasks, (ntask + 1) * sizeof(*tasks));
			tasks[ntask++] = tid;
		}
		closedir(dir);
	} else {
		tasks = xmalloc(sizeof(*tasks));
		tasks[ntask++] = t->pid;
	}
	for (int i = 0; i < ntask; i++) {
		if (!per_cpu) {
			add_pair(&p, &n, &cap, tasks[i], -1);
			continue;
		}
		for (int c = 0; c < ncpu; c++)
			if (online[c])
				add_pair(&p, &n, &cap, tasks[i], c);
	}
	free(tasks);
	free(online);
	if (!n) {
		free(p);
		return -ESRCH;
	}
	*out = p;
	return n;
}

/* ---- one event ---- */

int ptk_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		  unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

bool ptk_perf_err_unsupported(int err)
{
	/* perf's evsel__open_strerror: ENOENT/EOPNOTSUPP/ENODEV/EINVAL for a missing PMU event
	 * (a VM without a vPMU answers ENOENT for cycles) */
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO ||
	       err == -EINVAL;
}

int ptk_perf_evsel_open(struct ptk_perf_evsel *e, const struct ptk_perf_pair *pairs, int n)
{
	int first = 0, ok = 0;

	e->attr.size = sizeof(e->attr);
	e->attr.read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->fd = xmalloc(n * sizeof(int));
	e->nfd = n;
	for (int i = 0; i < n; i++) {
		e->fd[i] = ptk_perf_open(&e->attr, pairs[i].pid, pairs[i].cpu, -1,
					 PERF_FLAG_FD_CLOEXEC);
		if (e->fd[i] >= 0)
			ok++;
		else if (!first && e->fd[i] != -ESRCH)
			first = e->fd[i]; /* a task that exited meanwhile is not an error */
	}
	e->err = ok ? 0 : (first ? first : -ESRCH);
	return e->err;
}

int ptk_perf_evsel_read(struct ptk_perf_evsel *e, struct ptk_perf_count *c)
{
	memset(c, 0, sizeof(*c));
	if (e->err)
		return e->err;
	for (int i = 0; i < e->nfd; i++) {
		u64 v[3];
		if (e->fd[i] < 0)
			continue;
		if (read(e->fd[i], v, sizeof(v)) != sizeof(v))
			continue;
		c->val += v[0];
		c->ena += v[1];
		c->run += v[2];
	}
	return 0;
}

void ptk_perf_evsel_enable(struct ptk_perf_evsel *e, bool on)
{
	for (int i = 0; i < e->nfd; i++)
		if (e->fd[i] >= 0)
			ioctl(e->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void ptk_perf_evsel_close(struct ptk_perf_evsel *e)
{
	for (int i = 0; i < e->nfd; i++)
		if (e->fd[i] >= 0)
			close(e->fd[i]);
	free(e->fd);
	e->fd = NULL;
	e->nfd = 0;
}

/* ---- a launched command ---- */

int ptk_perf_child_fork(char **argv, struct ptk_perf_child *c)
{
	int go[2], ep[2];

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ep, O_CLOEXEC)) {
		int err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		int err = -errno;
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return err;
	}
	if (c->pid == 0) {
		char x;
		int e;

		close(go[1]);
		close(ep[0]);
		/* the dispositions, mask and mount namespace ptk was started with */
		ptk_child_prepare();
		/* wait for the go (or EOF when the parent died) */
		if (read(go[0], &x, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	c->go_fd = go[1];
	c->err_fd = ep[0];
	return 0;
}

int ptk_perf_child_start(struct ptk_perf_child *c)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1) {
		e = errno;
	}
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n == sizeof(e)) {
		waitpid(c->pid, NULL, 0);
		return -(e ? e : ENOEXEC);
	}
	return 0;
}

/* ---- the ring buffer (kernel/events/ring_buffer.c; perf_mmap__read_event()) ---- */

static void ring_setup(struct ptk_perf_ring *r, u64 data_size)
{
	r->mask = data_size - 1;
	r->tmp_size = 0;
	r->tmp = NULL;
	r->lost = r->lost_records = r->records = 0;
}

int ptk_perf_ring_mmap(struct ptk_perf_ring *r, int fd, int data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m;

	if (data_pages <= 0 || (data_pages & (data_pages - 1)))
		return -EINVAL;
	r->len = page * (1 + data_pages);
	m = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	r->fd = fd;
	r->base = m;
	ring_setup(r, (u64)page * data_pages);
	return 0;
}

void ptk_perf_ring_init(struct ptk_perf_ring *r, void *base, size_t page_size, u64 data_size)
{
	struct perf_event_mmap_page *pg = base;

	r->fd = -1;
	r->base = base;
	r->len = 0;
	pg->data_offset = page_size;
	pg->data_size = data_size;
	ring_setup(r, data_size);
}

static size_t data_offset(const struct ptk_perf_ring *r)
{
	const struct perf_event_mmap_page *pg = r->base;

	/* data_offset is set by kernels >= 4.1; before, data starts one page in */
	return pg->data_offset ? pg->data_offset : (size_t)sysconf(_SC_PAGESIZE);
}

int ptk_perf_ring_read(struct ptk_perf_ring *r, ptk_perf_record_fn fn, void *arg)
{
	struct perf_event_mmap_page *pg = r->base;
	const char *data = (const char *)r->base + data_offset(r);
	u64 size = r->mask + 1;
	/* pairs with the kernel's smp_wmb() after writing records (perf_output_put_handle) */
	u64 head = atomic_load_explicit((_Atomic u64 *)&pg->data_head, memory_order_acquire);
	u64 tail = pg->data_tail;
	int n = 0, rc = 0;

	while (tail < head) {
		struct perf_event_header h;
		const struct perf_event_header *rec;
		u64 off = tail & r->mask;

		if (head - tail < sizeof(h)) {
			rc = -EIO;
			break;
		}
		if (off + sizeof(h) <= size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t first = size - off;
			memcpy(&h, data + off, first);
			memcpy((char *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > size || h.size > head - tail) {
			rc = -EIO;
			break;
		}
		if (off + h.size <= size) {
			rec = (const void *)(data + off);
		} else {
			size_t first = size - off;
			if (r->tmp_size < h.size) {
				r->tmp = xrealloc(r->tmp, h.size);
				r->tmp_size = h.size;
			}
			memcpy(r->tmp, data + off, first);
			memcpy(r->tmp + first, data, h.size - first);
			rec = (const void *)r->tmp;
		}
		if (h.type == PERF_RECORD_LOST) {
			const u64 *v = (const u64 *)(rec + 1); /* id, lost */
			if (h.size >= sizeof(h) + 16)
				r->lost += v[1];
			r->lost_records++;
		} else if (h.type == PERF_RECORD_LOST_SAMPLES) {
			const u64 *v = (const u64 *)(rec + 1); /* lost */
			if (h.size >= sizeof(h) + 8)
				r->lost += v[0];
			r->lost_records++;
		}
		if (fn && fn(rec, arg)) {
			tail += h.size;
			n++;
			r->records++;
			break;
		}
		tail += h.size;
		n++;
		r->records++;
	}
	if (rc)
		tail = head; /* never spin on a corrupt buffer */
	/* pairs with the kernel's read of data_tail: our reads are done before it moves */
	atomic_store_explicit((_Atomic u64 *)&pg->data_tail, tail, memory_order_release);
	return rc ? rc : n;
}

void ptk_perf_ring_unmap(struct ptk_perf_ring *r)
{
	if (r->len && r->base)
		munmap(r->base, r->len);
	r->base = NULL;
	free(r->tmp);
	r->tmp = NULL;
	r->tmp_size = 0;
}

/* ---- samples (the PERF_RECORD_SAMPLE layout of include/uapi/linux/perf_event.h) ---- */

int ptk_perf_sample_parse(const struct perf_event_header *h, u64 sample_type, u64 regs_mask,
			  struct ptk_perf_sample *s)
{
	const u64 *p = (const u64 *)(h + 1), *end = (const u64 *)((const char *)h + h->size);
	const u64 known = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			  PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

#define NEED(k)                          \
	do {                             \
		if (end - p < (long)(k)) \
			return -EINVAL;  \
	} while (0)

	memset(s, 0, sizeof(*s));
	if (sample_type & ~known)
		return -ENOTSUP;
	s->user = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	if (sample_type & PERF_SAMPLE_IDENTIFIER) {
		NEED(1);
		p++;
	}
	if (sample_type & PERF_SAMPLE_IP) {
		NEED(1);
		s->ip = *p++;
	}
	if (sample_type & PERF_SAMPLE_TID) {
		NEED(1);
		s->pid = (u32)*p;
		s->tid = (u32)(*p >> 32);
		p++;
	}
	if (sample_type & PERF_SAMPLE_TIME) {
		NEED(1);
		s->time = *p++;
	}
	if (sample_type & PERF_SAMPLE_ID) {
		NEED(1);
		p++;
	}
	if (sample_type & PERF_SAMPLE_CPU) {
		NEED(1);
		s->cpu = (u32)*p++;
	}
	if (sample_type & PERF_SAMPLE_PERIOD) {
		NEED(1);
		s->period = *p++;
	}
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		NEED(1);
		s->nr = *p++;
		NEED(s->nr);
		s->ips = p;
		p += s->nr;
	}
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		NEED(1);
		s->regs_abi = *p++;
		if (s->regs_abi) {
			int k = 0;
			s->regs_mask = regs_mask;
			NEED(__builtin_popcountll(regs_mask));
			for (int b = 0; b < 64; b++) {
				if (!(regs_mask & (1ull << b)))
					continue;
				if (b < PTK_PERF_MAX_REGS)
					s->regs[b] = p[k];
				k++;
			}
			p += k;
		}
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		u64 size;
		NEED(1);
		size = *p++;
		if (size) {
			if (size % 8 || size / 8 > (u64)(end - p))
				return -EINVAL;
			s->stack = p;
			p += size / 8;
			NEED(1);
			s->stack_size = MIN(*p, size);
			p++;
		}
	}
#undef NEED
	return 0;
}

int ptk_perf_sampler_open(struct ptk_perf_sampler *s, struct perf_event_attr *attr,
			  const struct ptk_perf_target *t, int data_pages)
{
	struct ptk_perf_pair *pairs;
	int n = ptk_perf_target_pairs(t, true, &pairs), ncpu = ptk_perf_ncpus();
	int *ring_of_cpu, err = 0, opened = 0;

	memset(s, 0, sizeof(*s));
	if (n < 0)
		return n;
	ring_of_cpu = xmalloc(ncpu * sizeof(int));
	for (int c = 0; c < ncpu; c++)
		ring_of_cpu[c] = -1;
	s->fd = xmalloc(n * sizeof(int));
	s->ring = xcalloc(ncpu, sizeof(*s->ring));
	for (int i = 0; i < n; i++) {
		int fd = ptk_perf_open(attr, pairs[i].pid, pairs[i].cpu, -1, PERF_FLAG_FD_CLOEXEC);
		int c = pairs[i].cpu;

		if (fd == -ESRCH)
			continue; /* a thread exited meanwhile */
		if (fd < 0) {
			err = fd;
			break;
		}
		s->fd[s->nfd++] = fd;
		opened++;
		if (ring_of_cpu[c] < 0) {
			err = ptk_perf_ring_mmap(&s->ring[s->nring], fd, data_pages);
			if (err)
				break;
			ring_of_cpu[c] = s->nring++;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->ring[ring_of_cpu[c]].fd) < 0) {
			err = -errno;
			break;
		}
	}
	free(pairs);
	free(ring_of_cpu);
	if (!err && !opened)
		err = -ESRCH;
	if (err)
		ptk_perf_sampler_close(s);
	return err;
}

int ptk_perf_sampler_read(struct ptk_perf_sampler *s, ptk_perf_record_fn fn, void *arg)
{
	int bad = 0;

	for (int i = 0; i < s->nring; i++)
		if (ptk_perf_ring_read(&s->ring[i], fn, arg) == -EIO)
			bad++;
	return bad;
}

u64 ptk_perf_sampler_lost(const struct ptk_perf_sampler *s)
{
	u64 n = 0;

	for (int i = 0; i < s->nring; i++)
		n += s->ring[i].lost;
	return n;
}

void ptk_perf_sampler_disable(struct ptk_perf_sampler *s)
{
	for (int i = 0; i < s->nfd; i++)
		ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

void ptk_perf_sampler_close(struct ptk_perf_sampler *s)
{
	for (int i = 0; i < s->nring; i++)
		ptk_perf_ring_unmap(&s->ring[i]);
	for (int i = 0; i < s->nfd; i++)
		close(s->fd[i]);
	free(s->fd);
	free(s->ring);
	memset(s, 0, sizeof(*s));
}
