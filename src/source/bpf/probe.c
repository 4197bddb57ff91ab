// SPDX-License-Identifier: GPL-2.0
/* Probes: parsing, resolution, attachment (probe.h). */
#include "source/bpf/probe.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/bpf/runner.h"
#include "source/perf/perf.h"

#define fail ptk_fail /* err[errsz], returning rc */

/* ---- kinds ---- */

static const struct kind_name {
	const char *name;
	enum ptk_probe_kind kind;
} kind_names[] = {
	{ "tracepoint", PTK_PROBE_TP },
	{ "t", PTK_PROBE_TP },
	{ "fentry", PTK_PROBE_FENTRY },
	{ "kfunc", PTK_PROBE_FENTRY },
	{ "f", PTK_PROBE_FENTRY },
	{ "fexit", PTK_PROBE_FEXIT },
	{ "kretfunc", PTK_PROBE_FEXIT },
	{ "fr", PTK_PROBE_FEXIT },
	{ "kprobe", PTK_PROBE_KPROBE },
	{ "k", PTK_PROBE_KPROBE },
	{ "kretprobe", PTK_PROBE_KRETPROBE },
	{ "kr", PTK_PROBE_KRETPROBE },
	{ "uprobe", PTK_PROBE_UPROBE },
	{ "u", PTK_PROBE_UPROBE },
	{ "uretprobe", PTK_PROBE_URETPROBE },
	{ "ur", PTK_PROBE_URETPROBE },
	{ "usdt", PTK_PROBE_USDT },
	{ "U", PTK_PROBE_USDT },
};

const char *ptk_probe_kind_name(enum ptk_probe_kind k)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (kind_names[i].kind == k)
			return kind_names[i].name;
	return "?";
}

bool ptk_probe_is_return(enum ptk_probe_kind k)
{
	return k == PTK_PROBE_FEXIT || k == PTK_PROBE_KRETPROBE || k == PTK_PROBE_URETPROBE;
}

bool ptk_probe_has_regs(enum ptk_probe_kind k)
{
	return k == PTK_PROBE_KPROBE || k == PTK_PROBE_KRETPROBE || k == PTK_PROBE_UPROBE ||
	       k == PTK_PROBE_URETPROBE || k == PTK_PROBE_USDT;
}

int ptk_probe_return_kind(enum ptk_probe_kind k)
{
	switch (k) {
	case PTK_PROBE_FENTRY:
		return PTK_PROBE_FEXIT;
	case PTK_PROBE_KPROBE:
		return PTK_PROBE_KRETPROBE;
	case PTK_PROBE_UPROBE:
		return PTK_PROBE_URETPROBE;
	default:
		return -1;
	}
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* ---- parsing ---- */

/* "FUNC[+OFF]" into p->func and p->func_off. */
static int parse_func(const char *s, struct ptk_probe *p, bool off_ok, char *err, size_t errsz)
{
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);

	if (!n || n >= sizeof(p->func))
		return fail(err, errsz, -EINVAL, "invalid probe '%s': no function", p->spec);
	memcpy(p->func, s, n);
	p->func[n] = '\0';
	if (plus) {
		if (!off_ok)
			return fail(err, errsz, -EINVAL, "invalid probe '%s': +OFFSET is for %s",
				    p->spec, "kprobe: and uprobe:");
		if (ptk_parse_u64(plus + 1, &p->func_off))
			return fail(err, errsz, -EINVAL, "invalid probe '%s': bad offset '%s'",
				    p->spec, plus + 1);
	}
	p->wildcard = is_glob(p->func);
	if (p->wildcard && plus)
		return fail(err, errsz, -EINVAL, "invalid probe '%s': a pattern with +OFFSET",
			    p->spec);
	return 0;
}

/* A tracepoint "CAT:EVENT[:FIELD]" (rest: after any "tracepoint:"). */
static int parse_tp(const char *rest, bool with_field, struct ptk_probe *p, char *err, size_t errsz)
{
	const char *c1 = strchr(rest, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t lc = c1 ? (size_t)(c1 - rest) : 0;
	size_t le = c1 ? (c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1)) : 0;

	if (!c1 || !lc || !le || lc >= sizeof(p->cat) || le >= sizeof(p->name) ||
	    (c2 && !with_field) || (c2 && (!c2[1] || strlen(c2 + 1) >= sizeof(p->field))))
		return fail(err, errsz, -EINVAL, "invalid tracepoint '%s' (want CATEGORY:EVENT%s)",
			    p->spec, with_field ? "[:FIELD]" : "");
	memcpy(p->cat, rest, lc);
	p->cat[lc] = '\0';
	memcpy(p->name, c1 + 1, le);
	p->name[le] = '\0';
	if (c2)
		snprintf(p->field, sizeof(p->field), "%s", c2 + 1);
	p->wildcard = is_glob(p->cat) || is_glob(p->name);
	return 0;
}

int ptk_probe_parse(const char *spec, bool with_field, struct ptk_probe *p, char *err, size_t errsz)
{
	const char *colon = strchr(spec, ':'), *rest, *last;
	size_t lk = colon ? (size_t)(colon - spec) : 0;
	int kind = -1;

	memset(p, 0, sizeof(*p));
	if (strlen(spec) >= sizeof(p->spec))
		return fail(err, errsz, -EINVAL, "probe too long: '%.40s...'", spec);
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	for (size_t i = 0; colon && i < ARRAY_SIZE(kind_names); i++)
		if (strlen(kind_names[i].name) == lk && !strncmp(spec, kind_names[i].name, lk))
			kind = kind_names[i].kind;
	if (kind < 0) /* no kind: a tracepoint, "CAT:EVENT" */
		return parse_tp(spec, with_field, p, err, errsz);
	p->kind = kind;
	rest = colon + 1;
	switch (p->kind) {
	case PTK_PROBE_TP:
		return parse_tp(rest, with_field, p, err, errsz);
	case PTK_PROBE_FENTRY:
	case PTK_PROBE_FEXIT:
	case PTK_PROBE_KRETPROBE:
		return parse_func(rest, p, false, err, errsz);
	case PTK_PROBE_KPROBE:
		return parse_func(rest, p, true, err, errsz);
	case PTK_PROBE_UPROBE:
	case PTK_PROBE_URETPROBE:
		/* PATH:FUNC, the function after the last ':' (PATH may be empty: -p's binary) */
		last = strrchr(rest, ':');
		if (!last || (size_t)(last - rest) >= sizeof(p->path))
			return fail(err, errsz, -EINVAL, "invalid probe '%s' (want %s:PATH:FUNC)",
				    spec, ptk_probe_kind_name(p->kind));
		snprintf(p->path, sizeof(p->path), "%.*s", (int)(last - rest), rest);
		return parse_func(last + 1, p, p->kind == PTK_PROBE_UPROBE, err, errsz);
	case PTK_PROBE_USDT: {
		/* PATH:[PROVIDER:]NAME */
		const char *c2;
		last = strrchr(rest, ':');
		if (!last || !last[1] || strlen(last + 1) >= sizeof(p->func))
			return fail(err, errsz, -EINVAL,
				    "invalid probe '%s' (want usdt:PATH:[PROVIDER:]NAME)", spec);
		snprintf(p->func, sizeof(p->func), "%s", last + 1);
		c2 = memrchr(rest, ':', last - rest);
		if (c2) {
			if ((size_t)(last - c2 - 1) >= sizeof(p->provider) ||
			    (size_t)(c2 - rest) >= sizeof(p->path))
				return fail(err, errsz, -EINVAL, "invalid probe '%s'", spec);
			snprintf(p->provider, sizeof(p->provider), "%.*s", (int)(last - c2 - 1),
				 c2 + 1);
			snprintf(p->path, sizeof(p->path), "%.*s", (int)(c2 - rest), rest);
		} else {
			snprintf(p->path, sizeof(p->path), "%.*s", (int)(last - rest), rest);
		}
		p->wildcard = is_glob(p->func) || is_glob(p->provider);
		return 0;
	}
	}
	return fail(err, errsz, -EINVAL, "invalid probe '%s'", spec);
}

int ptk_probe_from_bcc(const char *in, char *out, size_t size, char *err, size_t errsz)
{
	const char *c1 = strchr(in, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t lk = c1 ? (size_t)(c1 - in) : 0;
	int n;

	if (!*in)
		return fail(err, errsz, -EINVAL, "no probe");
	/* ours already: "uprobe:...", "fentry:..." (a known kind of more than one letter) */
	for (size_t i = 0; c1 && lk > 1 && i < ARRAY_SIZE(kind_names); i++)
		if (strlen(kind_names[i].name) == lk && !strncmp(in, kind_names[i].name, lk)) {
			n = snprintf(out, size, "%s", in);
			goto out;
		}
	if (!c1) /* FUNC */
		n = snprintf(out, size, "kprobe:%s", in);
	else if (lk == 1 && (in[0] == 'p' || in[0] == 'r'))
		/* p:FUNC, r:FUNC, p:LIB:FUNC, r:LIB:FUNC */
		n = c2 ? snprintf(out, size, "%s:%s", in[0] == 'p' ? "uprobe" : "uretprobe",
				  c1 + 1) :
			 snprintf(out, size, "%s:%s", in[0] == 'p' ? "kprobe" : "kretprobe",
				  c1 + 1);
	else if (lk == 1 && in[0] == 't')
		n = snprintf(out, size, "tracepoint:%s", c1 + 1);
	else if (lk == 1 && in[0] == 'u')
		n = snprintf(out, size, "usdt:%s", c1 + 1);
	else if (!c2) /* LIB:FUNC, :FUNC */
		n = snprintf(out, size, "uprobe:%s", in);
	else
		return fail(err, errsz, -EINVAL,
			    "invalid probe '%s' (FUNC, LIB:FUNC, :FUNC, p:/r:[LIB:]FUNC, "
			    "t:CAT:EVENT, u:LIB:PROBE)",
			    in);
out:
	if (n < 0 || (size_t)n >= size)
		return fail(err, errsz, -EINVAL, "probe too long: '%.40s...'", in);
	return 0;
}

/* ---- resolution ---- */

static struct ptk_probe_target *add_target(struct ptk_probe *p, size_t *cap)
{
	if (p->ntargets == *cap)
		p->targets =
			xrealloc(p->targets, (*cap = *cap ? 2 * *cap : 16) * sizeof(*p->targets));
	memset(&p->targets[p->ntargets], 0, sizeof(*p->targets));
	return &p->targets[p->ntargets++];
}

static int resolve_tp(struct ptk_probe *p, char *err, size_t errsz)
{
	char root[PATH_MAX], dir[PATH_MAX + 16];
	struct dirent **cats = NULL;
	size_t cap = 0;
	int rc, nc;

	if (!p->wildcard) {
		rc = ptk_tp_format_read(p->cat, p->name, &p->fmt);
		if (rc == -ENOENT || rc == -EINVAL)
			return fail(err, errsz, -EINVAL,
				    "unknown tracepoint '%s:%s' (not in tracefs events/)", p->cat,
				    p->name);
		if (rc)
			return fail(err, errsz, rc, "cannot read the format of %s:%s: %s%s", p->cat,
				    p->name, strerror(-rc),
				    rc == -EPERM || rc == -EACCES ?
					    " (needs root to mount/read tracefs)" :
					    "");
		p->have_fmt = true;
		snprintf(add_target(p, &cap)->name, sizeof(p->targets->name), "%.60s:%.90s", p->cat,
			 p->name);
		return 0;
	}
	if ((rc = ptk_tracefs_find(root, sizeof(root))))
		return fail(err, errsz, rc, "cannot mount tracefs: %s", strerror(-rc));
	snprintf(dir, sizeof(dir), "%s/events", root);
	nc = scandir(dir, &cats, NULL, alphasort);
	for (int i = 0; i < nc; i++) {
		struct dirent **evs = NULL;
		char cdir[PATH_MAX * 2];
		int ne;

		if (cats[i]->d_name[0] == '.' || fnmatch(p->cat, cats[i]->d_name, 0))
			goto next;
		snprintf(cdir, sizeof(cdir), "%s/%s", dir, cats[i]->d_name);
		ne = scandir(cdir, &evs, NULL, alphasort);
		for (int j = 0; j < ne; j++) {
			const char *ev = evs[j]->d_name;
			struct ptk_probe_target *t;

			if (evs[j]->d_type == DT_DIR && ev[0] != '.' && !fnmatch(p->name, ev, 0)) {
				t = add_target(p, &cap);
				snprintf(t->name, sizeof(t->name), "%.60s:%.90s", cats[i]->d_name,
					 ev);
			}
			free(evs[j]);
		}
		free(evs);
next:
		free(cats[i]);
	}
	free(cats);
	if (!p->ntargets)
		return fail(err, errsz, -EINVAL, "no tracepoint matches '%s:%s'", p->cat, p->name);
	return 0;
}

/* The BTF of the kernel, loaded once. */
static struct btf *kernel_btf;

struct btf *ptk_probe_btf(void)
{
	if (!kernel_btf) {
		kernel_btf = btf__load_vmlinux_btf();
		if (libbpf_get_error(kernel_btf))
			kernel_btf = NULL;
	}
	return kernel_btf;
}

void ptk_probe_btf_release(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
}

/* A kernel function's arguments from its BTF prototype. */
static void btf_args(struct ptk_probe *p, u32 func_id)
{
	const struct btf_type *fn = btf__type_by_id(p->btf, func_id);
	const struct btf_type *proto = fn ? btf__type_by_id(p->btf, fn->type) : NULL;
	const struct btf_param *par;

	if (!proto || !btf_is_func_proto(proto))
		return;
	p->ret_type = proto->type;
	par = btf_params(proto);
	for (int i = 0; i < btf_vlen(proto) && i < PTK_PROBE_MAX_ARGS; i++) {
		const char *n = btf__name_by_offset(p->btf, par[i].name_off);

		snprintf(p->args[i].name, sizeof(p->args[i].name), "%s", n && *n ? n : "");
		p->args[i].type_id = par[i].type;
		p->nargs = i + 1;
	}
}

static int resolve_btf_funcs(struct ptk_probe *p, char *err, size_t errsz)
{
	struct btf *btf = ptk_probe_btf();
	size_t cap = 0;
	u32 n;

	if (!btf)
		return fail(err, errsz, -EOPNOTSUPP,
			    "%s: this kernel has no BTF (/sys/kernel/btf/vmlinux) for fentry/fexit",
			    p->spec);
	p->btf = btf;
	n = btf__type_cnt(btf);
	for (u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;
		struct ptk_probe_target *tg;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || (p->wildcard ? fnmatch(p->func, name, 0) : strcmp(p->func, name)))
			continue;
		tg = add_target(p, &cap);
		snprintf(tg->name, sizeof(tg->name), "%s", name);
		tg->btf_id = id;
		if (!p->wildcard) {
			btf_args(p, id);
			break;
		}
	}
	if (!p->ntargets)
		return fail(err, errsz, -EINVAL, "%s: no function %s'%s' in the kernel's BTF",
			    p->spec, p->wildcard ? "matches " : "", p->func);
	return 0;
}

/* Does the kernel have kprobes (the kprobe PMU of perf_event_open)? */
static bool has_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0;
}

static int resolve_kernel(struct ptk_probe *p, char *err, size_t errsz)
{
	bool want_kprobe = p->kind == PTK_PROBE_KPROBE || p->kind == PTK_PROBE_KRETPROBE;
	int rc;

	if (want_kprobe && !p->func_off && ptk_probe_btf()) {
		/* kprobe: written, fentry when the kernel has trampolines (cheaper) */
		struct ptk_probe f = *p;
		char e2[256];

		f.kind = p->kind == PTK_PROBE_KPROBE ? PTK_PROBE_FENTRY : PTK_PROBE_FEXIT;
		f.targets = NULL;
		f.ntargets = 0;
		if (!resolve_btf_funcs(&f, e2, sizeof(e2)) &&
		    ptk_bpf_has_fentry(f.targets[0].name)) {
			*p = f;
			p->chosen = true;
			return 0;
		}
		free(f.targets);
	}
	if (want_kprobe) {
		size_t cap = 0;
		struct ptk_probe_target *t;

		if (!has_kprobes())
			return fail(err, errsz, -EOPNOTSUPP,
				    "%s: this kernel has no kprobes (CONFIG_KPROBES is off: no "
				    "/sys/bus/event_source/devices/kprobe)%s",
				    p->spec,
				    p->func_off ? "" : " and refuses BPF trampolines (fentry)");
		if (p->wildcard)
			return fail(err, errsz, -EINVAL,
				    "%s: patterns are for fentry: here (one kprobe per function)",
				    p->spec);
		if (!ptk_bpf_has_ksym(p->func))
			return fail(err, errsz, -EINVAL, "%s: no kernel function '%s'", p->spec,
				    p->func);
		t = add_target(p, &cap);
		snprintf(t->name, sizeof(t->name), "%s", p->func);
		t->off = p->func_off;
		return 0;
	}
	if ((rc = resolve_btf_funcs(p, err, errsz)))
		return rc;
	if (!ptk_bpf_has_fentry(p->targets[0].name))
		return fail(err, errsz, -EOPNOTSUPP,
			    "%s: this kernel refuses BPF trampolines (a %s program on %s does not "
			    "load or attach)",
			    p->spec, ptk_probe_kind_name(p->kind), p->targets[0].name);
	return 0;
}

/* Does the file name base stand for the library or program name? */
static bool lib_matches(const char *base, const char *name)
{
	size_t n = strlen(name);
	char lib[160];

	if (!strcmp(base, name))
		return true;
	if (!strncmp(base, name, n) && !strncmp(base + n, ".so", 3))
		return true;
	snprintf(lib, sizeof(lib), "lib%s", name);
	n = strlen(lib);
	return !strncmp(name, "lib", 3) ? false :
					  !strncmp(base, lib, n) && !strncmp(base + n, ".so", 3);
}

/* A library or program among the files mapped by pid, into out. 0 or -ENOENT. */
static int mapped_file(int pid, const char *name, char *out, size_t size)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int rc = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	while (rc && fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/'), *base;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		base = strrchr(file, '/') + 1;
		if (lib_matches(base, name) || !strcmp(file, name)) {
			snprintf(out, size, "/proc/%d/root%s", pid, file);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

/* Is path an ELF file (not a linker script called libc.so)? */
static bool is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A program in $PATH, or a library in the usual directories. 0 or -ENOENT. */
static int search_file(const char *name, char *out, size_t size)
{
	static const char *const libdirs[] = { "/lib/x86_64-linux-gnu",
					       "/usr/lib/x86_64-linux-gnu",
					       "/lib64",
					       "/usr/lib64",
					       "/lib",
					       "/usr/lib",
					       "/usr/local/lib" };
	const char *env = getenv("PATH");
	char *pathv = xstrdup(env ? env : "/usr/local/bin:/usr/bin:/bin"), *save = NULL;

	for (char *d = strtok_r(pathv, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(out, size, "%s/%s", d, name) < (int)size && access(out, X_OK) == 0) {
			free(pathv);
			return 0;
		}
	}
	free(pathv);
	for (size_t i = 0; i < ARRAY_SIZE(libdirs); i++) {
		struct dirent **ents = NULL;
		int n = scandir(libdirs[i], &ents, NULL, alphasort), found = -1;

		for (int j = 0; j < n && found < 0; j++)
			if (lib_matches(ents[j]->d_name, name) &&
			    snprintf(out, size, "%s/%s", libdirs[i], ents[j]->d_name) < (int)size &&
			    is_elf(out))
				found = j;
		for (int j = 0; j < n; j++)
			free(ents[j]);
		free(ents);
		if (found >= 0)
			return 0;
	}
	return -ENOENT;
}

int ptk_probe_file(const char *name, int pid, char *out, size_t size, char *err, size_t errsz)
{
	int rc = -ENOENT;

	if (!name[0]) {
		if (!pid)
			return fail(err, errsz, -EINVAL, "no file: name one, or give -p PID");
		snprintf(out, size, "/proc/%d/exe", pid);
		rc = 0;
	} else if (strchr(name, '/')) {
		snprintf(out, size, "%s", name);
		rc = access(out, R_OK) ? -errno : 0;
	} else {
		if (pid)
			rc = mapped_file(pid, name, out, size);
		if (rc)
			rc = search_file(name, out, size);
	}
	if (rc)
		return fail(err, errsz, -EINVAL, "cannot find '%s'%s", name,
			    pid ? " (in the process's maps, $PATH or the library directories)" :
				  " (in $PATH or the library directories; -p PID looks in a "
				  "process's maps)");
	return 0;
}

/* p->path made the file to probe. */
static int resolve_path(struct ptk_probe *p, int pid, char *err, size_t errsz)
{
	char out[PATH_MAX], e2[256];

	if (ptk_probe_file(p->path, pid, out, sizeof(out), e2, sizeof(e2)))
		return fail(err, errsz, -EINVAL, "%s: %s", p->spec, e2);
	snprintf(p->path, sizeof(p->path), "%s", out);
	return 0;
}

static int resolve_uprobe(struct ptk_probe *p, struct ptk_elf *e, char *err, size_t errsz)
{
	struct ptk_elf_sym *syms = NULL;
	size_t n = 0, cap = 0;
	int rc = ptk_elf_funcs(e, p->func, &syms, &n);

	if (rc)
		return fail(err, errsz, -EINVAL, "%s: cannot read the symbols of %s: %s", p->spec,
			    p->path, strerror(-rc));
	for (size_t i = 0; i < n; i++) {
		struct ptk_probe_target *t = add_target(p, &cap);

		snprintf(t->name, sizeof(t->name), "%s", syms[i].name);
		t->off = syms[i].off + p->func_off;
		if (p->func_off && p->func_off >= syms[i].size)
			rc = fail(err, errsz, -EINVAL,
				  "%s: +%" PRIu64 " is past the end of %s (%" PRIu64 " bytes)",
				  p->spec, p->func_off, syms[i].name, syms[i].size);
	}
	ptk_elf_syms_free(syms, n);
	if (!rc && !p->ntargets)
		rc = fail(err, errsz, -EINVAL, "%s: no function %s'%s' in %s", p->spec,
			  p->wildcard ? "matches " : "", p->func, p->path);
	return rc;
}

static int resolve_usdt(struct ptk_probe *p, struct ptk_elf *e, char *err, size_t errsz)
{
	struct ptk_usdt_note *notes = NULL;
	size_t n = 0, cap = 0;
	int rc = ptk_elf_usdt(e, &notes, &n);

	for (size_t i = 0; !rc && i < n; i++) {
		struct ptk_usdt_note *u = &notes[i];
		struct ptk_probe_target *t;
		int l;

		if (fnmatch(p->func, u->name, 0) ||
		    (p->provider[0] && fnmatch(p->provider, u->provider, 0)))
			continue;
		for (l = 0; l < p->nlayouts && strcmp(p->usdt[l].args, u->args); l++)
			;
		if (l == p->nlayouts) {
			struct ptk_usdt_layout *ly;
			char bad[128];

			p->usdt = xrealloc(p->usdt, (p->nlayouts + 1) * sizeof(*p->usdt));
			ly = &p->usdt[p->nlayouts++];
			memset(ly, 0, sizeof(*ly));
			snprintf(ly->args, sizeof(ly->args), "%s", u->args);
			ly->nargs = ptk_usdt_args_parse(u->args, ly->arg, PTK_USDT_MAX_ARGS, bad,
							sizeof(bad));
			if (ly->nargs < 0)
				rc = fail(err, errsz, -EINVAL,
					  "%s: %s:%s argument '%s' is not a register, a register "
					  "with an offset or a constant",
					  p->spec, u->provider, u->name, bad);
		}
		t = add_target(p, &cap);
		snprintf(t->name, sizeof(t->name), "%s:%s", u->provider, u->name);
		t->off = u->off;
		t->ref_ctr = u->sema_off;
		t->layout = l;
	}
	free(notes);
	if (!rc && !p->ntargets)
		rc = fail(err, errsz, -EINVAL, "%s: no USDT probe %s%s%s in %s", p->spec,
			  p->provider, p->provider[0] ? ":" : "", p->func, p->path);
	return rc;
}

int ptk_probe_resolve(struct ptk_probe *p, int pid, char *err, size_t errsz)
{
	struct ptk_elf *e;
	int rc;

	p->pid = pid;
	switch (p->kind) {
	case PTK_PROBE_TP:
		return resolve_tp(p, err, errsz);
	case PTK_PROBE_FENTRY:
	case PTK_PROBE_FEXIT:
	case PTK_PROBE_KPROBE:
	case PTK_PROBE_KRETPROBE:
		return resolve_kernel(p, err, errsz);
	case PTK_PROBE_UPROBE:
	case PTK_PROBE_URETPROBE:
	case PTK_PROBE_USDT:
		break;
	}
	if ((rc = resolve_path(p, pid, err, errsz)))
		return rc;
	if ((rc = ptk_elf_open(p->path, &e)))
		return fail(err, errsz, -EINVAL, "%s: %s: %s", p->spec, p->path,
			    rc == -ENOEXEC ? "not an x86_64 ELF file" : strerror(-rc));
	rc = p->kind == PTK_PROBE_USDT ? resolve_usdt(p, e, err, errsz) :
					 resolve_uprobe(p, e, err, errsz);
	ptk_elf_close(e);
	return rc;
}

void ptk_probe_free(struct ptk_probe *p)
{
	free(p->targets);
	p->targets = NULL;
	p->ntargets = 0;
	free(p->usdt);
	p->usdt = NULL;
	p->nlayouts = 0;
}

/* ---- attachment ---- */

/* The type of a dynamic PMU ("uprobe", "kprobe") and the bit of its retprobe flag; -errno. */
static int pmu_type(const char *pmu, int *retbit)
{
	char path[128], buf[64];
	int type, bit = 0;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (ptk_read_file(path, buf, sizeof(buf)) < 0)
		return -EOPNOTSUPP;
	buf[strcspn(buf, "\n")] = '\0'; /* (no strtok: this runs in the preopen thread too) */
	if (ptk_parse_int(buf, &type))
		return -EOPNOTSUPP;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/retprobe", pmu);
	if (ptk_read_file(path, buf, sizeof(buf)) > 0 && sscanf(buf, "config:%d", &bit) != 1)
		bit = 0;
	*retbit = bit;
	return type;
}

static int link_perf(int prog_fd, int pfd, u64 cookie)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .perf_event.bpf_cookie = cookie);
	int lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &opts);
	int err = lfd < 0 ? -errno : 0;

	close(pfd); /* the link holds the event */
	return err ? err : lfd;
}

/* Does t attach through a perf event that creates a probe (uprobe, USDT, kprobe)? */
static bool dynamic_pmu(enum ptk_probe_kind k)
{
	return k == PTK_PROBE_KPROBE || k == PTK_PROBE_KRETPROBE || k == PTK_PROBE_UPROBE ||
	       k == PTK_PROBE_URETPROBE || k == PTK_PROBE_USDT;
}

/* Open the perf event of target t of p (a tracepoint or a dynamic PMU's probe): its fd or
 * -errno. */
static int open_event(const struct ptk_probe *p, const struct ptk_probe_target *t)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
					.sample_period = 1,
					.wakeup_events = 1 };
	bool ret = ptk_probe_is_return(p->kind);
	int type, bit;

	switch (p->kind) {
	case PTK_PROBE_TP: {
		char cat[128];
		const char *colon = strchr(t->name, ':');
		u64 id;
		int rc;

		snprintf(cat, sizeof(cat), "%.*s", colon ? (int)(colon - t->name) : 0, t->name);
		if (!colon || (rc = ptk_tp_id_read(cat, colon + 1, &id)))
			return colon ? rc : -EINVAL;
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = id;
		/* a tracepoint program runs on every CPU whatever the event's cpu: one event */
		return ptk_perf_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	}
	case PTK_PROBE_KPROBE:
	case PTK_PROBE_KRETPROBE:
		if ((type = pmu_type("kprobe", &bit)) < 0)
			return type;
		attr.type = type;
		attr.config = ret ? 1ull << bit : 0;
		attr.kprobe_func = (u64)(unsigned long)t->name;
		attr.probe_offset = t->off;
		return ptk_perf_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	case PTK_PROBE_UPROBE:
	case PTK_PROBE_URETPROBE:
	case PTK_PROBE_USDT:
		if ((type = pmu_type("uprobe", &bit)) < 0)
			return type;
		attr.type = type;
		/* the semaphore's offset (config:32-63): the kernel counts it up in every
		 * process that maps the file, for as long as the probe is there */
		attr.config = (ret ? 1ull << bit : 0) | t->ref_ctr << 32;
		attr.uprobe_path = (u64)(unsigned long)p->path;
		attr.probe_offset = t->off;
		/* with a process, the uprobe is filtered to its address space */
		return ptk_perf_open(&attr, p->pid ? p->pid : -1, p->pid ? -1 : 0, -1,
				     PERF_FLAG_FD_CLOEXEC);
	default:
		return -EINVAL;
	}
}

int ptk_probe_attach(const struct ptk_probe *p, struct ptk_probe_target *t, int prog_fd, u64 cookie)
{
	int pfd;

	if (p->kind == PTK_PROBE_FENTRY || p->kind == PTK_PROBE_FEXIT) {
		LIBBPF_OPTS(bpf_link_create_opts, opts, .tracing.cookie = cookie);
		int lfd = bpf_link_create(
			prog_fd, 0,
			p->kind == PTK_PROBE_FENTRY ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT, &opts);
		return lfd < 0 ? -errno : lfd;
	}
	if (t->opened) {
		pfd = t->pfd;
		t->opened = false;
	} else {
		pfd = open_event(p, t);
	}
	return pfd < 0 ? pfd : link_perf(prog_fd, pfd, cookie);
}

static void *preopen_run(void *arg)
{
	struct ptk_probe_preopen *po = arg;

	for (int j = 0; j < po->n; j++) {
		struct ptk_probe *p = &po->probes[j];

		for (size_t k = 0; dynamic_pmu(p->kind) && k < p->ntargets; k++) {
			if (__atomic_load_n(&po->cancel, __ATOMIC_RELAXED))
				return NULL;
			p->targets[k].pfd = open_event(p, &p->targets[k]);
			p->targets[k].opened = true;
		}
	}
	return NULL;
}

int ptk_probe_preopen_start(struct ptk_probe_preopen *po, struct ptk_probe *probes, int n)
{
	pthread_t th;
	sigset_t all, old;
	bool any = false;
	int rc;

	memset(po, 0, sizeof(*po));
	for (int j = 0; j < n; j++)
		any |= dynamic_pmu(probes[j].kind) && probes[j].ntargets;
	if (!any)
		return 0;
	po->probes = probes;
	po->n = n;
	/* the thread blocks every signal: a Ctrl-C must reach the main thread, whose waits it
	 * interrupts (in the thread it would set the stop flag and wake no one) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&th, NULL, preopen_run, po);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -rc;
	po->thread = (unsigned long)th;
	po->running = true;
	return 0;
}

void ptk_probe_preopen_wait(struct ptk_probe_preopen *po)
{
	if (!po->running)
		return;
	pthread_join((pthread_t)po->thread, NULL);
	po->running = false;
}

void ptk_probe_preopen_end(struct ptk_probe_preopen *po)
{
	int *fds = NULL;
	size_t n = 0;

	/* the events not yet opened are not: a run that failed before its attach ends now */
	__atomic_store_n(&po->cancel, true, __ATOMIC_RELAXED);
	ptk_probe_preopen_wait(po);
	for (int j = 0; j < po->n; j++)
		for (size_t k = 0; k < po->probes[j].ntargets; k++) {
			struct ptk_probe_target *t = &po->probes[j].targets[k];

			if (t->opened && t->pfd >= 0) {
				fds = xrealloc(fds, (n + 1) * sizeof(*fds));
				fds[n++] = t->pfd;
			}
			t->opened = false;
		}
	/* each uprobe's removal waits for a grace period: all at once */
	ptk_bpf_close_links(fds, n);
	free(fds);
	po->n = 0;
}

int ptk_probe_rodata(const void *ro, size_t rosz)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = BPF_F_RDONLY_PROG);
	u32 zero = 0;
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "agg.rodata", 4, rosz, 1, &mo), err;

	if (fd < 0)
		return -errno;
	if (bpf_map_update_elem(fd, &zero, ro, 0) || bpf_map_freeze(fd)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int ptk_probe_prog_copy(const struct bpf_program *tmpl, int rodata_fd, int ro_fd, u32 btf_id)
{
	const struct bpf_insn *in = bpf_program__insns(tmpl);
	size_t n = bpf_program__insn_cnt(tmpl);
	enum bpf_prog_type type = bpf_program__type(tmpl);
	LIBBPF_OPTS(bpf_prog_load_opts, po,
		    .expected_attach_type = bpf_program__expected_attach_type(tmpl),
		    .attach_btf_id = btf_id);
	struct bpf_insn *copy;
	int fd;

	if (!in || !n || (type == BPF_PROG_TYPE_TRACING && !btf_id))
		return -EINVAL;
	copy = xmalloc(n * sizeof(*copy));
	memcpy(copy, in, n * sizeof(*copy));
	/* the loads of .rodata (ld_imm64 of a map value) read the copy's data instead */
	for (size_t i = 0; ro_fd >= 0 && i + 1 < n; i++)
		if (copy[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    copy[i].src_reg == BPF_PSEUDO_MAP_VALUE && copy[i].imm == rodata_fd)
			copy[i].imm = ro_fd;
	fd = bpf_prog_load(type, bpf_program__name(tmpl), "GPL", copy, n, &po);
	if (fd < 0)
		fd = -errno;
	free(copy);
	return fd;
}
