// SPDX-License-Identifier: GPL-2.0
/* The symbolizer: kallsyms for the kernel, libdwfl per process for user space. */
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "source/sym/sym.h"

#define NBUCKETS 256

/* "clock_nanosleep@GLIBC_2.2.5" -> "clock_nanosleep", once per distinct symbol name. */
struct vname {
	struct vname *next;
	const char *orig; /* in the ELF string table: stable while the session lives */
	char name[];
};

struct upid {
	struct upid *next;
	pid_t pid;
	Dwfl *dwfl; /* NULL: the process could not be read */
	bool rereported; /* the maps were read again after a miss */
	struct vname *vnames; /* names with the symbol version cut off */
	Dwfl_Callbacks cb;
	struct jitsym *jit; /* /tmp/perf-PID.map, sorted by start */
	size_t njit;
	bool jit_loaded;
	char *jit_path;
};

/* One line of a JIT map /tmp/perf-PID.map: "START SIZE name" (hex), written by JITs (V8
 * --perf-basic-prof, the JVM's perf-map-agent, LuaJIT ...) for code outside every ELF. */
struct jitsym {
	u64 start, size;
	char *name;
};

struct ptk_symbolizer {
	unsigned flags;
	char *kallsyms;
	struct ptk_ksyms ks; /* the whole table */
	int ks_err; /* 1: not loaded yet */
	struct ptk_ksyms kpart; /* only the symbols of want[] (ptk_sym_kernel_prepare) */
	u64 *want; /* sorted, distinct */
	size_t nwant;
	struct upid *bucket[NBUCKETS];
	char **kept; /* ptk_sym_frame_keep: open addressing, NULL = free slot */
	size_t nkept, kept_cap;
};

struct ptk_symbolizer *ptk_sym_new(const char *procfs, unsigned flags)
{
	struct ptk_symbolizer *s = xcalloc(1, sizeof(*s));
	char path[PATH_MAX];

	s->flags = flags;
	snprintf(path, sizeof(path), "%s/kallsyms", procfs ? procfs : "/proc");
	s->kallsyms = xstrdup(path);
	s->ks_err = 1;
	return s;
}

static void upid_free(struct upid *u)
{
	while (u->vnames) {
		struct vname *v = u->vnames;
		u->vnames = v->next;
		free(v);
	}
	if (u->dwfl)
		dwfl_end(u->dwfl);
	for (size_t i = 0; i < u->njit; i++)
		free(u->jit[i].name);
	free(u->jit);
	free(u->jit_path);
	free(u);
}

void ptk_sym_free(struct ptk_symbolizer *s)
{
	if (!s)
		return;
	for (int i = 0; i < NBUCKETS; i++) {
		while (s->bucket[i]) {
			struct upid *u = s->bucket[i];
			s->bucket[i] = u->next;
			upid_free(u);
		}
	}
	ptk_ksyms_free(&s->ks);
	ptk_ksyms_free(&s->kpart);
	free(s->want);
	for (size_t i = 0; i < s->kept_cap; i++)
		free(s->kept[i]);
	free(s->kept);
	free(s->kallsyms);
	free(s);
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int ptk_sym_kernel_prepare(struct ptk_symbolizer *s, const u64 *addrs, size_t n)
{
	size_t m = 0;
	int err;

	if (s->ks_err != 1)
		return s->ks_err; /* the whole table is loaded (or cannot be) */
	ptk_ksyms_free(&s->kpart);
	free(s->want);
	s->want = NULL;
	s->nwant = 0;
	if (!n)
		return 0;
	err = ptk_ksyms_load_addrs(s->kallsyms, addrs, n, &s->kpart);
	if (err) {
		s->ks_err = err; /* the whole file would fail the same way */
		return err;
	}
	s->want = xmalloc(n * sizeof(*s->want));
	memcpy(s->want, addrs, n * sizeof(*s->want));
	qsort(s->want, n, sizeof(*s->want), u64_cmp);
	for (size_t i = 0; i < n; i++)
		if (!m || s->want[m - 1] != s->want[i])
			s->want[m++] = s->want[i];
	s->nwant = m;
	return 0;
}

int ptk_sym_kernel(struct ptk_symbolizer *s, u64 addr, struct ptk_frame *f)
{
	const struct ptk_ksym *k;

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	if (s->ks_err == 1 && s->nwant && bsearch(&addr, s->want, s->nwant, sizeof(addr), u64_cmp))
		k = ptk_ksyms_find(&s->kpart, addr);
	else {
		if (s->ks_err == 1)
			s->ks_err = ptk_ksyms_load(s->kallsyms, &s->ks);
		if (s->ks_err)
			return s->ks_err;
		k = ptk_ksyms_find(&s->ks, addr);
	}
	if (!k)
		return -ENOENT;
	f->func = k->name;
	f->off = addr - k->addr;
	f->module = k->module ? k->module : "kernel";
	return 0;
}

/* ---- user space ---- */

/* Open a mapped file through the process's root (its mount namespace), regular files only
 * (a mapped device could block on open or read); else libdwfl's own (deleted files and the
 * vdso come from the process's memory). */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	struct upid *u = *userdata;

	if (u && name[0] == '/' && !strstr(name, " (deleted)")) {
		char path[PATH_MAX];
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/root%s", u->pid, name);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
				*file_name = xstrdup(path);
				return fd;
			}
			close(fd);
			return -1;
		}
	}
	return dwfl_linux_proc_find_elf(mod, userdata, name, base, file_name, elfp);
}

/* Whether the ELF file open on fd is the debug file of mod: the same build ID when mod has
 * one, else the CRC-32 of the whole file equal to the one its .gnu_debuglink records. */
static bool debug_file_matches(Dwfl_Module *mod, int fd, GElf_Word crc)
{
	const unsigned char *want;
	const void *id;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &want, &vaddr);
	bool ok = false;

	if (n > 0) {
		Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		ok = elf && dwelf_elf_gnu_build_id(elf, &id) == n && !memcmp(id, want, n);
		elf_end(elf);
	} else {
		unsigned char buf[65536];
		uLong c = crc32(0, Z_NULL, 0);
		ssize_t r;
		off_t o = 0;

		while ((r = pread(fd, buf, sizeof(buf), o)) > 0) {
			c = crc32(c, buf, r);
			o += r;
		}
		ok = r == 0 && c == crc;
	}
	return ok;
}

/*
 * Separate debuginfo for a module: by build ID (/usr/lib/debug/.build-id/xx/yyyy.debug, the
 * Debian -dbgsym layout), else by .gnu_debuglink in the file's directory, its .debug/ and
 * /usr/lib/debug/<directory>, under the process's root. This is libdwfl's standard search
 * without its last step, the debuginfod client: loading it (libdebuginfod, libcurl and the
 * TLS libraries, ~5 MB resident) would only answer "no server" unless DEBUGINFOD_URLS is
 * set, when the standard search is used as is.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *slash, *dir;
	struct upid *u = *userdata;
	char root[64] = "", path[PATH_MAX];
	int fd;

	if (urls && *urls)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !debuglink_file || !file_name || !(slash = strrchr(file_name, '/')))
		return fd;
	/* file_name is /proc/PID/root/DIR/FILE (find_elf) or /DIR/FILE */
	if (u)
		snprintf(root, sizeof(root), "/proc/%d/root", u->pid);
	dir = file_name;
	if (*root && !strncmp(file_name, root, strlen(root)) && file_name[strlen(root)] == '/')
		dir += strlen(root);
	for (int i = 0; i < 3; i++) {
		int dl = (int)(slash - dir), n;

		if (i == 0)
			n = snprintf(path, sizeof(path), "%s%.*s/%s", root, dl, dir,
				     debuglink_file);
		else if (i == 1)
			n = snprintf(path, sizeof(path), "%s%.*s/.debug/%s", root, dl, dir,
				     debuglink_file);
		else
			n = snprintf(path, sizeof(path), "%s/usr/lib/debug%.*s/%s", root, dl, dir,
				     debuglink_file);
		if (n >= (int)sizeof(path) || (i == 0 && !strcmp(path + strlen(root), dir)))
			continue; /* too long, or the link names the file itself */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    debug_file_matches(mod, fd, debuglink_crc)) {
			*debuginfo_file_name = xstrdup(path);
			return fd;
		}
		close(fd);
	}
	return -1;
}

/* Read the GNU build-ID note of the ELF image mapped at base in the process's memory.
 * Returns its length (> 0), or 0 when there is none or it cannot be read. */
static int mem_build_id(int memfd, u64 base, unsigned char *id, size_t idsize)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[32];
	u64 bias = 0;
	int n;

	if (pread(memfd, &eh, sizeof(eh), base) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return 0;
	n = MIN(eh.e_phnum, (int)ARRAY_SIZE(ph));
	if (pread(memfd, ph, n * sizeof(ph[0]), base + eh.e_phoff) != (ssize_t)(n * sizeof(ph[0])))
		return 0;
	for (int i = 0; i < n; i++) {
		if (ph[i].p_type == PT_LOAD) {
			/* the image starts with its first PT_LOAD, page aligned */
			bias = base - (ph[i].p_vaddr & ~(u64)0xfff);
			break;
		}
	}
	for (int i = 0; i < n; i++) {
		unsigned char note[1024];
		size_t len = MIN(ph[i].p_filesz, sizeof(note)), o = 0;

		if (ph[i].p_type != PT_NOTE)
			continue;
		if (pread(memfd, note, len, bias + ph[i].p_vaddr) != (ssize_t)len)
			continue;
		while (o + sizeof(Elf64_Nhdr) <= len) {
			Elf64_Nhdr nh;
			memcpy(&nh, note + o, sizeof(nh));
			size_t name_at = o + sizeof(nh),
			       desc_at = name_at + ((nh.n_namesz + 3) & ~3u);
			if (desc_at + nh.n_descsz > len)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(note + name_at, "GNU", 4) && nh.n_descsz <= idsize &&
			    nh.n_descsz > 0) {
				memcpy(id, note + desc_at, nh.n_descsz);
				return nh.n_descsz;
			}
			o = desc_at + ((nh.n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

struct report_arg {
	struct upid *u;
	int memfd;
};

static int tag_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
		      void *arg)
{
	struct report_arg *ra = arg;
	unsigned char id[64];
	const unsigned char *known;
	GElf_Addr vaddr;
	int n;

	*userdata = ra->u;
	/* Only before the module's ELF is opened; the file must then carry the same ID. */
	if (ra->memfd >= 0 && name[0] == '/' && dwfl_module_build_id(mod, &known, &vaddr) == 0 &&
	    (n = mem_build_id(ra->memfd, start, id, sizeof(id))) > 0)
		dwfl_module_report_build_id(mod, id, n, 0);
	return DWARF_CB_OK;
}

/* Report the process's modules from its maps. again: a re-read after a miss, adding the
 * modules mapped since and keeping those reported before even when the maps now read
 * otherwise (the names of frames already resolved point into their ELF files). */
static int upid_report(struct upid *u, bool again)
{
	struct report_arg ra = { .u = u, .memfd = -1 };
	char path[64];
	int err;

	if (again)
		dwfl_report_begin_add(u->dwfl);
	else
		dwfl_report_begin(u->dwfl);
	err = dwfl_linux_proc_report(u->dwfl, u->pid);
	if (dwfl_report_end(u->dwfl, NULL, NULL) != 0 && !err)
		err = -1;
	if (err)
		return err > 0 ? -err : -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/mem", u->pid);
	ra.memfd = open(path, O_RDONLY | O_CLOEXEC);
	dwfl_getmodules(u->dwfl, tag_module, &ra, 0);
	if (ra.memfd >= 0)
		close(ra.memfd);
	return 0;
}

static struct upid *upid_get(struct ptk_symbolizer *s, pid_t pid)
{
	struct upid **b = &s->bucket[(unsigned)pid % NBUCKETS], *u;

	for (u = *b; u; u = u->next)
		if (u->pid == pid)
			return u;
	u = xcalloc(1, sizeof(*u));
	u->pid = pid;
	u->cb.find_elf = find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->dwfl = dwfl_begin(&u->cb);
	if (u->dwfl && upid_report(u, false)) {
		dwfl_end(u->dwfl);
		u->dwfl = NULL;
	}
	u->next = *b;
	*b = u;
	return u;
}

struct Dwfl *ptk_sym_dwfl(struct ptk_symbolizer *s, pid_t pid)
{
	return upid_get(s, pid)->dwfl;
}

void ptk_sym_forget(struct ptk_symbolizer *s, pid_t pid)
{
	struct upid **p = &s->bucket[(unsigned)pid % NBUCKETS];

	for (; *p; p = &(*p)->next) {
		if ((*p)->pid == pid) {
			struct upid *u = *p;
			*p = u->next;
			upid_free(u);
			return;
		}
	}
}

static const char *unversioned(struct upid *u, const char *name)
{
	const char *at = strchr(name, '@');
	struct vname *v;

	if (!at || at == name)
		return name;
	for (v = u->vnames; v; v = v->next)
		if (v->orig == name)
			return v->name;
	v = xmalloc(sizeof(*v) + (at - name) + 1);
	v->orig = name;
	memcpy(v->name, name, at - name);
	v->name[at - name] = '\0';
	v->next = u->vnames;
	u->vnames = v;
	return v->name;
}

static int jit_cmp(const void *a, const void *b)
{
	const struct jitsym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void jit_load(struct upid *u)
{
	char path[64], *line = NULL;
	size_t cap = 0, alloc = 0;
	FILE *f;

	u->jit_loaded = true;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", u->pid);
	f = fopen(path, "re");
	if (!f)
		return;
	u->jit_path = xstrdup(path);
	while (getline(&line, &cap, f) > 0) {
		char *p = line, *e;
		u64 start = strtoull(p, &e, 16), size;

		if (e == p || *e != ' ')
			continue;
		p = e + 1;
		size = strtoull(p, &e, 16);
		if (e == p || *e != ' ' || !size)
			continue;
		p = e + 1;
		p[strcspn(p, "\n")] = '\0';
		if (u->njit == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			u->jit = xrealloc(u->jit, alloc * sizeof(*u->jit));
		}
		u->jit[u->njit++] = (struct jitsym){ start, size, xstrdup(p) };
	}
	free(line);
	fclose(f);
	if (u->njit)
		qsort(u->jit, u->njit, sizeof(*u->jit), jit_cmp);
}

/* The JIT symbol containing addr (the last one starting at or below it), or NULL. */
static const struct jitsym *jit_find(struct upid *u, u64 addr)
{
	size_t lo = 0, hi;

	if (!u->jit_loaded)
		jit_load(u);
	hi = u->njit;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->jit[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - u->jit[lo - 1].start >= u->jit[lo - 1].size)
		return NULL;
	return &u->jit[lo - 1];
}

/* Resolve addr from the process's JIT map. 0, or -ENOENT. */
static int sym_jit(struct upid *u, u64 addr, struct ptk_frame *f)
{
	const struct jitsym *j = jit_find(u, addr);

	if (!j)
		return -ENOENT;
	f->func = j->name;
	f->off = addr - j->start;
	f->module = u->jit_path;
	return 0;
}

int ptk_sym_user(struct ptk_symbolizer *s, pid_t pid, u64 addr, struct ptk_frame *f)
{
	struct upid *u = upid_get(s, pid);
	Dwfl_Module *mod;
	GElf_Off off;
	GElf_Sym sym;
	const char *name;

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	if (!u->dwfl)
		return sym_jit(u, addr, f) == 0 ? 0 : -ESRCH;
	mod = dwfl_addrmodule(u->dwfl, addr);
	if (!mod && !u->rereported) {
		u->rereported = true;
		if (upid_report(u, true) == 0)
			mod = dwfl_addrmodule(u->dwfl, addr);
	}
	if (!mod)
		return sym_jit(u, addr, f); /* JIT code lives in anonymous memory */
	f->module = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	if (s->flags & PTK_SYM_LINES) {
		Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
		if (l)
			f->file = dwfl_lineinfo(l, NULL, &f->line, NULL, NULL, NULL);
	}
	if (!name || !*name)
		return -ENOENT;
	f->func = unversioned(u, name);
	f->off = off;
	return 0;
}

/* File name of a DW_AT_call_file index in the CU's file table. */
static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die, int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx, l;
	Dwarf_Files *files;
	size_t nfiles;

	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &l) == 0)
		*line = (int)l;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &idx) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

int ptk_sym_user_inlines(struct ptk_symbolizer *s, pid_t pid, u64 addr, struct ptk_frame *out,
			 int max, const char **cfile, int *cline)
{
	struct upid *u = upid_get(s, pid);
	Dwfl_Module *mod;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias;
	const char *file = NULL;
	int nscopes, n = 0, line = 0;

	*cfile = NULL;
	*cline = 0;
	if (!u->dwfl || !(mod = dwfl_addrmodule(u->dwfl, addr)) ||
	    !(cu = dwfl_module_addrdie(mod, addr, &bias)))
		return 0;
	nscopes = dwarf_getscopes(cu, addr - bias, &scopes);
	if (nscopes <= 0)
		return 0;
	Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
	if (l)
		file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	for (int i = 0; i < nscopes && n < max; i++) {
		Dwarf_Attribute a;
		const char *name;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		memset(&out[n], 0, sizeof(out[n]));
		out[n].addr = addr;
		out[n].func = name;
		out[n].module = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		out[n].file = file;
		out[n].line = line;
		/* the next one up is at this one's call site */
		file = call_file(cu, &scopes[i], &line);
		n++;
	}
	free(scopes);
	if (n) {
		*cfile = file;
		*cline = line;
	}
	return n;
}

/* FNV-1a */
static size_t str_hash(const char *str)
{
	size_t h = 14695981039346656037ull;

	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 1099511628211ull;
	return h;
}

/* The kept copy of str (made on first sight). */
static const char *keep_str(struct ptk_symbolizer *s, const char *str)
{
	size_t i;

	if (!str)
		return NULL;
	if (2 * (s->nkept + 1) > s->kept_cap) {
		size_t cap = s->kept_cap ? 2 * s->kept_cap : 256;
		char **old = s->kept, **nk = xcalloc(cap, sizeof(*nk));

		for (size_t j = 0; j < s->kept_cap; j++) {
			if (!old[j])
				continue;
			for (i = str_hash(old[j]) & (cap - 1); nk[i]; i = (i + 1) & (cap - 1))
				;
			nk[i] = old[j];
		}
		free(old);
		s->kept = nk;
		s->kept_cap = cap;
	}
	for (i = str_hash(str) & (s->kept_cap - 1); s->kept[i]; i = (i + 1) & (s->kept_cap - 1))
		if (s->kept[i] == str || !strcmp(s->kept[i], str))
			return s->kept[i];
	s->nkept++;
	return s->kept[i] = xstrdup(str);
}

void ptk_sym_frame_keep(struct ptk_symbolizer *s, struct ptk_frame *f)
{
	f->func = keep_str(s, f->func);
	f->module = keep_str(s, f->module);
	f->file = keep_str(s, f->file);
}

const char *ptk_frame_name(const struct ptk_frame *f)
{
	return f->func ? f->func : "[unknown]";
}

int ptk_frame_fmt(const struct ptk_frame *f, unsigned flags, char *buf, size_t size)
{
	int n;
	const char *mod = f->module;

	if (f->func && (flags & PTK_FRAME_OFFSET))
		n = snprintf(buf, size, "%s+0x%" PRIx64, f->func, f->off);
	else
		n = snprintf(buf, size, "%s", ptk_frame_name(f));
	if ((flags & PTK_FRAME_MODULE) && mod) {
		const char *slash = strrchr(mod, '/');
		n += snprintf(buf + MIN((size_t)n, size), size - MIN((size_t)n, size), " [%s]",
			      slash ? slash + 1 : mod);
	}
	if ((flags & PTK_FRAME_LINE) && f->file && f->line > 0)
		n += snprintf(buf + MIN((size_t)n, size), size - MIN((size_t)n, size), " (%s:%d)",
			      f->file, f->line);
	return n;
}
