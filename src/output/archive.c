// SPDX-License-Identifier: GPL-2.0
/* The SQLite archive: schema, writer, reader, and materialisation back into /proc files.
 * Its columns and vectors are the snapshot's field tables (source/snap.h, procfs.h);
 * docs/schema.md documents them. */
#include "output/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ---- the sample row: the snapshot's scalar fields, a column each ----------------------- */

/*
 * The columns of the sample table are the snapshot's field groups (source/snap.h
 * ptk_snap_groups: the readers' field tables), in their order, named by the tables; NULL when
 * the snapshot does not hold the field. Integers as they are; an F64 field (uptime, load and
 * PSI averages: the kernel prints 2 decimals) as round(x * 100). Two columns of version 1
 * hold the presence of a field, right after its column: 1 when the kernel had it.
 * MemAvailable's column holds the reader's estimate when the kernel has none.
 */
static const struct flag_col {
	const char *name;
	enum ptk_snap_group_id g;
	int f;
	bool estimated; /* the field's column is stored whenever its file was read */
} flag_cols[] = {
	{ "mem_has_available", PTK_SNAP_G_MEMINFO, PTK_MI_MEM_AVAILABLE, true },
	{ "vm_has_oom_kill", PTK_SNAP_G_VMSTAT, PTK_VM_OOM_KILL, false },
};

struct col {
	const char *name;
	enum ptk_snap_group_id g;
	int f;
	const struct flag_col *flag; /* the flag of this column's field, or this column is it */
};
#define NCOL_MAX 128
static struct col cols[NCOL_MAX];
static int ncols;
static pthread_once_t cols_once = PTHREAD_ONCE_INIT;

static void cols_init(void)
{
	for (int g = 0; g < PTK_SNAP_NGROUPS; g++) {
		for (int f = 0; f < ptk_snap_groups[g].n; f++) {
			const struct flag_col *fl = NULL;
			for (size_t k = 0; k < ARRAY_SIZE(flag_cols); k++)
				if ((int)flag_cols[k].g == g && flag_cols[k].f == f)
					fl = &flag_cols[k];
			cols[ncols++] = (struct col){ ptk_snap_groups[g].fields[f].name, g, f, fl };
			if (fl)
				cols[ncols++] = (struct col){ fl->name, g, f, fl };
		}
	}
}

/* The number of columns (cols[], in table order). */
static int sample_cols(void)
{
	pthread_once(&cols_once, cols_init);
	return ncols;
}

static const struct ptk_field_desc *col_field(const struct col *c)
{
	return &ptk_snap_groups[c->g].fields[c->f];
}

static bool col_is_flag(const struct col *c)
{
	return c->flag && c->name == c->flag->name;
}

/* Does s hold column c's value? A flag or an estimated field: when its file was read. */
static bool col_present(const struct ptk_snap *s, const struct col *c)
{
	if (col_is_flag(c) || (c->flag && c->flag->estimated))
		return ptk_snap_has(s, ptk_snap_groups[c->g].part);
	return ptk_snap_field_has(s, c->g, c->f);
}

static s64 col_get(const struct ptk_snap *s, const struct col *c)
{
	const struct ptk_field_desc *f = col_field(c);
	const char *obj = (const char *)s + ptk_snap_groups[c->g].off;

	if (col_is_flag(c))
		return ptk_snap_field_has(s, c->g, c->f);
	if (f->type == PTK_FT_F64)
		return llround(ptk_field_f64(f, obj) * 100.0);
	return (s64)ptk_field_u64(f, obj);
}

/* Store column c's value v in s, and mark the field held (a flagged field: as the flag says). */
static void col_put(struct ptk_snap *s, const struct col *c, s64 v)
{
	if (col_is_flag(c)) {
		if (v)
			ptk_snap_field_mark(s, c->g, c->f);
		return;
	}
	ptk_field_store(col_field(c), (char *)s + ptk_snap_groups[c->g].off, (u64)v, v / 100.0);
	if (c->flag)
		s->read |= PTK_SNAP_BIT(ptk_snap_groups[c->g].part);
	else
		ptk_snap_field_mark(s, c->g, c->f);
}

/* ---- the database ------------------------------------------------------------------------ */

struct dict_ent {
	s64 id;
	char name[64];
	s64 a, b, c, d, e; /* identity fields (dev: major minor partition rotational nfields) */
};
struct dict {
	int n, cap;
	struct dict_ent *e;
};

struct ptk_arc {
	sqlite3 *db;
	bool rw;
	sqlite3_stmt *ins_sample, *ins_counters, *ins_proc;
	sqlite3_stmt *begin, *commit; /* prepared once: parsing them cost ~4% of a sample */
	/* dictionary look-ups and inserts, prepared on first use: a new task each sample or
	 * two would otherwise cost two statement parses (~40 us) */
	sqlite3_stmt *sel_dev_id, *ins_dev, *sel_netif_id, *ins_netif, *sel_task_id, *ins_task;
	sqlite3_stmt *sel_sample, *sel_counters, *sel_proc;
	/* version 4: the extended parts (interrupts, softnet, sar's other files) */
	sqlite3_stmt *ins_ext, *sel_ext;
	s64 ext_keyset_id;
	char *ext_keyset; /* the last keyset string of ext */
	struct ptk_xkvs ext; /* scratch */
	/* the sample columns of this file: a column this build knows that the file lacks (an
	 * archive of a build with fewer fields) reads as NULL: sel_col[i] its place, -1 */
	int *sel_col;
	/* version 1 archives (one table each for cpu, disk, net, snmp), read only */
	int ver;
	sqlite3_stmt *sel_cpu, *sel_disk, *sel_net, *sel_snmp;
	sqlite3_stmt *sel_dev, *sel_netif, *sel_keyset; /* reader's dictionary look-ups */
	struct dict devs, ifs, tasks;
	struct dict rdevs, rifs; /* the reader's: dev and netif rows by id */
	s64 keyset_id;
	char damage[128]; /* found at open: the file is shorter than its header says */
	char impossible[512]; /* the last sample loaded: its impossible values, "" none */
	u64 bad_parts; /* the last sample loaded: PTK_SNAP_BIT()s of vectors found impossible */
	char *keyset; /* the last keyset string */
	struct vbuf {
		unsigned char *p;
		size_t len, cap;
	} vec[4]; /* counters.cpu, disk, net, snmp of the sample being written */
	/* version 5: the cgroups of a sample; the writer's path -> cgpath.id cache (sorted by
	 * path), the reader's cgpath rows by id */
	sqlite3_stmt *ins_cg, *sel_cg, *sel_cgpath_id, *ins_cgpath, *sel_cgpath;
	struct cgp {
		char *path;
		s64 id;
	} * cgw;
	int ncgw, cgwcap;
	char **cgr; /* cgr[id]: the path, NULL unknown */
	int ncgr;
	struct vbuf cgvec;
	char err[256];
};

const char *ptk_arc_errmsg(const struct ptk_arc *a)
{
	return a->err;
}

static int db_fail(struct ptk_arc *a, const char *what)
{
	snprintf(a->err, sizeof(a->err), "%s: %s", what, sqlite3_errmsg(a->db));
	return -EIO;
}

static int exec(struct ptk_arc *a, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(a->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(a->err, sizeof(a->err), "%s", msg ? msg : sqlite3_errmsg(a->db));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

/* The names of the cgroup values (enum ptk_cg_val), for the schema's comment. */
static const char *const cg_val_name[PTK_CGV_N] = {
	"cpu_usage_ns",	     "cpu_user_ns",	"cpu_system_ns",   "cpu_periods", "cpu_throttled",
	"cpu_throttled_ns",  "cpu_quota_us",	"cpu_period_us",   "mem_current", "mem_max",
	"mem_high",	     "mem_low",		"mem_peak",	   "mem_ev_low",  "mem_ev_high",
	"mem_ev_max",	     "mem_ev_oom",	"mem_ev_oom_kill", "mem_anon",	  "mem_file",
	"mem_inactive_file", "mem_active_file", "mem_swap",	   "mem_pgfault", "mem_pgmajfault",
	"pids_current",	     "pids_max",
};

/* Append the DDL of the schema to b (also printed by `ptk record --schema`). */
static void schema_sql(struct ptk_strbuf *b)
{
	ptk_strbuf_addf(b, "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);\n");
	ptk_strbuf_addf(
		b,
		"CREATE TABLE IF NOT EXISTS sample(id INTEGER PRIMARY KEY, t_ms INTEGER NOT NULL");
	for (int i = 0; i < sample_cols(); i++)
		ptk_strbuf_addf(b, ", %s INTEGER", cols[i].name);
	/* no index on t_ms: nothing reads through one (ptk_arc_list walks the rowid b-tree,
	 * retention the oldest rows in id order), and keeping it cost a page write per sample */
	ptk_strbuf_addf(b, ");\n");
	ptk_strbuf_addf(
		b, "CREATE TABLE IF NOT EXISTS dev(id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
		   "major INTEGER, minor INTEGER, partition INTEGER, rotational INTEGER, "
		   "nfields INTEGER);\n");
	ptk_strbuf_addf(
		b, "CREATE TABLE IF NOT EXISTS netif(id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
		   "speed INTEGER);\n");
	ptk_strbuf_addf(
		b,
		"CREATE TABLE IF NOT EXISTS keyset(id INTEGER PRIMARY KEY, keys TEXT NOT NULL);\n");
	/* the per-CPU, per-device and per-interface counters and the net/snmp + netstat values
	 * of a sample as varint vectors in one row (docs/schema.md "counters"): one row and one
	 * b-tree page written per sample where four tables cost four */
	ptk_strbuf_addf(
		b, "CREATE TABLE IF NOT EXISTS counters(sample_id INTEGER PRIMARY KEY, cpu BLOB, "
		   "disk BLOB, net BLOB, keyset INTEGER, snmp BLOB);\n");
	/* version 4: the parts of a sample without a table of their own, named values as
	 * counters.snmp (source/snap.h ptk_snap_ext_put: interrupts, softirqs, softnet, sar's
	 * other files) */
	ptk_strbuf_addf(b, "CREATE TABLE IF NOT EXISTS ext(sample_id INTEGER PRIMARY KEY, "
			   "keyset INTEGER, vals BLOB);\n");
	static const struct {
		const char *what;
		const struct ptk_field_desc *f;
		int n;
	} vecs[] = {
		{ "cpu: per CPU line, cpu (-1: the aggregate)", ptk_cpu_fields, PTK_CPU_NSTATES },
		{ "disk: per device, dev.id", ptk_disk_fields, PTK_DK_NFIELDS },
		{ "net: per interface, netif.id", ptk_netdev_fields, PTK_ND_NFIELDS },
	};
	for (size_t v = 0; v < ARRAY_SIZE(vecs); v++) {
		ptk_strbuf_addf(b, "-- counters.%s, n, then n of:", vecs[v].what);
		for (int i = 0; i < vecs[v].n; i++)
			ptk_strbuf_addf(b, " %s", vecs[v].f[i].name);
		ptk_strbuf_addf(b, "\n");
	}
	ptk_strbuf_addf(
		b, "CREATE TABLE IF NOT EXISTS task(id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, "
		   "starttime INTEGER NOT NULL, comm TEXT NOT NULL, cmdline TEXT, uid INTEGER);\n"
		   "CREATE INDEX IF NOT EXISTS task_pid ON task(pid, starttime);\n");
	ptk_strbuf_addf(
		b,
		"CREATE TABLE IF NOT EXISTS proc(sample_id INTEGER NOT NULL, task INTEGER NOT "
		"NULL, state INTEGER, ppid INTEGER, nthreads INTEGER, priority INTEGER, nice "
		"INTEGER, processor INTEGER, utime INTEGER, stime INTEGER, gtime INTEGER, minflt "
		"INTEGER, majflt INTEGER, blkio_ticks INTEGER, vsize INTEGER, rss INTEGER, "
		"rchar INTEGER, wchar INTEGER, read_bytes INTEGER, write_bytes INTEGER, "
		"cancelled_write_bytes INTEGER, wchan TEXT, cgroup INTEGER, PRIMARY KEY(sample_id, "
		"task)) WITHOUT ROWID;\n");
	/* version 3: continuous profiles, the folded stacks of each interval */
	ptk_strbuf_addf(b, "CREATE TABLE IF NOT EXISTS stack(id INTEGER PRIMARY KEY, "
			   "stack TEXT NOT NULL UNIQUE);\n"
			   "CREATE TABLE IF NOT EXISTS prof(sample_id INTEGER NOT NULL, stack "
			   "INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY(sample_id, "
			   "stack)) WITHOUT ROWID;\n");
	/* version 5: the cgroups of a sample (docs/schema.md "cgroups"): one row a sample, the
	 * cgroups as a varint vector, their paths (and owners, from the path) in cgpath */
	ptk_strbuf_addf(b, "CREATE TABLE IF NOT EXISTS cgpath(id INTEGER PRIMARY KEY, path TEXT "
			   "NOT NULL UNIQUE, owner TEXT);\n"
			   "CREATE TABLE IF NOT EXISTS cgroups(sample_id INTEGER PRIMARY KEY, "
			   "layout INTEGER, up_cs INTEGER, n INTEGER, vals BLOB);\n");
	ptk_strbuf_addf(b, "-- cgroups.vals, n of: cgpath.id, controllers, has (1 << value),"
			   " the values held in order:");
	for (int i = 0; i < PTK_CGV_N; i++)
		ptk_strbuf_addf(b, " %s", cg_val_name[i]);
	ptk_strbuf_addf(b, "; psi (bit 2r: some, 2r+1: full of cpu, memory, io), per line held"
			   " avg10 avg60 avg300 (x100) total_us; has_io, nio, nio x (major minor"
			   " rbytes wbytes rios wios)\n");
}

void ptk_arc_schema_print(FILE *f)
{
	struct ptk_strbuf b = { 0 };

	schema_sql(&b);
	fwrite(b.p, 1, b.len, f);
	free(b.p);
}

static int prep(struct ptk_arc *a, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v3(a->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return db_fail(a, "prepare");
	return 0;
}

/* A lost table of a damaged file reads as empty: its statement selects nothing. */
static int prep_or_empty(struct ptk_arc *a, sqlite3_stmt **st, const char *sql)
{
	if (!prep(a, st, sql))
		return 0;
	if (!a->damage[0])
		snprintf(a->damage, sizeof(a->damage), "tables lost: %.100s", a->err);
	return prep(a, st, "SELECT 1 WHERE ?1 IS NULL AND 0") ? -EIO : 0;
}

/* The reader's statements for a version 1 archive (docs/schema.md "Version 1"). */
static int prepare_v1(struct ptk_arc *a)
{
	return prep_or_empty(a, &a->sel_cpu, "SELECT * FROM cpu WHERE sample_id=?") ?:
	       prep_or_empty(a, &a->sel_disk,
			     "SELECT d.*, v.name, v.major, v.minor, v.partition, v.rotational, "
			     "v.nfields FROM disk d JOIN dev v ON v.id=d.dev WHERE d.sample_id=? "
			     "ORDER BY d.dev") ?:
	       prep_or_empty(a, &a->sel_net,
			     "SELECT n.*, i.name, i.speed FROM net n JOIN netif i ON i.id=n.netif "
			     "WHERE n.sample_id=? ORDER BY n.netif") ?:
	       prep_or_empty(a, &a->sel_snmp,
			     "SELECT s.keyset, s.vals FROM snmp s WHERE s.sample_id=?") ?:
	       prep_or_empty(a, &a->sel_proc,
			     "SELECT p.*, t.pid, t.starttime, t.comm, t.cmdline, t.uid FROM proc p "
			     "JOIN task t ON t.id=p.task WHERE p.sample_id=? ORDER BY t.pid") ?:
	       prep_or_empty(a, &a->sel_keyset, "SELECT keys FROM keyset WHERE id=?");
}

static int prepare_all(struct ptk_arc *a)
{
	struct ptk_strbuf b = { 0 };
	int r = 0;

	/* the columns the file has (an older build's has fewer: those read as NULL; the
	 * recorder adds them, nullable) */
	free(a->sel_col);
	a->sel_col = xcalloc(sample_cols(), sizeof(*a->sel_col));
	{
		sqlite3_stmt *ti;
		int k = 1, any = 0;
		bool known = sqlite3_prepare_v2(a->db, "PRAGMA table_info(sample)", -1, &ti,
						NULL) == SQLITE_OK;
		char *have = xcalloc(sample_cols(), 1);
		while (known && sqlite3_step(ti) == SQLITE_ROW) {
			const char *nm = (const char *)sqlite3_column_text(ti, 1);
			for (int i = 0; nm && i < sample_cols(); i++)
				if (!strcmp(cols[i].name, nm))
					have[i] = 1, any++;
		}
		if (known)
			sqlite3_finalize(ti);
		for (int i = 0; i < sample_cols(); i++) {
			if (any && !have[i] && a->rw) {
				char sql[160];
				snprintf(sql, sizeof(sql),
					 "ALTER TABLE sample ADD COLUMN %s INTEGER", cols[i].name);
				if (exec(a, sql)) {
					free(have);
					return -EIO;
				}
				have[i] = 1;
			}
			/* no table_info (a damaged schema): every column, as the build knows it */
			a->sel_col[i] = !any || have[i] ? k++ : -1;
		}
		free(have);
	}
	if (a->rw && a->ver >= 2) {
		/* version 5: proc.cgroup (a cgpath.id), added to the proc table of an older file */
		sqlite3_stmt *ti;
		bool has = false;
		if (sqlite3_prepare_v2(a->db, "PRAGMA table_info(proc)", -1, &ti, NULL) ==
		    SQLITE_OK) {
			while (sqlite3_step(ti) == SQLITE_ROW)
				has |= sqlite3_column_text(ti, 1) &&
				       !strcmp((const char *)sqlite3_column_text(ti, 1), "cgroup");
			sqlite3_finalize(ti);
		}
		if (!has && exec(a, "ALTER TABLE proc ADD COLUMN cgroup INTEGER"))
			return -EIO;
	}
	if (a->rw) {
		ptk_strbuf_addf(&b, "INSERT INTO sample(t_ms");
		for (int i = 0; i < sample_cols(); i++)
			ptk_strbuf_addf(&b, ",%s", cols[i].name);
		ptk_strbuf_addf(&b, ") VALUES(?");
		for (int i = 0; i < sample_cols(); i++)
			ptk_strbuf_addf(&b, ",?");
		ptk_strbuf_addf(&b, ")");
		r = prep(a, &a->ins_sample, b.p);
		b.len = 0;
		r = r ?: prep(a, &a->ins_counters, "INSERT INTO counters VALUES(?,?,?,?,?,?)");
		r = r ?: prep(a, &a->ins_ext, "INSERT INTO ext VALUES(?,?,?)");
		r = r ?: prep(a, &a->ins_cg, "INSERT INTO cgroups VALUES(?,?,?,?,?)");
		r = r	  ?:
			    prep(a, &a->ins_proc,
				 "INSERT OR REPLACE INTO proc VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
				 "?,?,?,?,?,?,?)");
		r = r ?: prep(a, &a->begin, "BEGIN IMMEDIATE");
		r = r ?: prep(a, &a->commit, "COMMIT");
	}
	ptk_strbuf_addf(&b, "SELECT t_ms");
	for (int i = 0; i < sample_cols(); i++)
		if (a->sel_col[i] > 0)
			ptk_strbuf_addf(&b, ",%s", cols[i].name);
	ptk_strbuf_addf(&b, " FROM sample WHERE id=?");
	r = r ?: prep(a, &a->sel_sample, b.p);
	free(b.p);
	if (r)
		return r;
	/* the reader of a damaged file goes on without the tables whose schema is lost */
	if (a->ver == 1)
		return prepare_v1(a);
	int r2 = prep(a, &a->sel_counters,
		      "SELECT cpu, disk, net, keyset, snmp FROM counters WHERE sample_id=?");
	r = prep(a, &a->sel_proc,
		 "SELECT p.*, t.pid, t.starttime, t.comm, t.cmdline, t.uid FROM proc p "
		 "JOIN task t ON t.id=p.task WHERE p.sample_id=? ORDER BY t.pid");
	r = prep(a, &a->sel_dev,
		 "SELECT name, major, minor, partition, rotational, nfields FROM dev "
		 "WHERE id=?") ?:
	    r;
	r = prep(a, &a->sel_netif, "SELECT name, speed FROM netif WHERE id=?") ?: r;
	r = prep(a, &a->sel_keyset, "SELECT keys FROM keyset WHERE id=?") ?: r;
	/* version 4's ext table; an older file has none: no extended parts */
	if (a->ver >= 4 && prep(a, &a->sel_ext, "SELECT keyset, vals FROM ext WHERE sample_id=?") &&
	    a->rw)
		return -EIO;
	/* version 5's cgroups; an older file has none: no sample has cgroups */
	if (a->ver >= 5 &&
	    (prep(a, &a->sel_cg, "SELECT layout, up_cs, n, vals FROM cgroups WHERE sample_id=?") ||
	     prep(a, &a->sel_cgpath, "SELECT id, path FROM cgpath")) &&
	    a->rw)
		return -EIO;
	if (!a->sel_counters || !a->sel_proc || !a->sel_dev || !a->sel_netif || !a->sel_keyset) {
		sqlite3_stmt **sts[] = { &a->sel_counters, &a->sel_proc, &a->sel_dev, &a->sel_netif,
					 &a->sel_keyset };
		if (a->rw)
			return r ?: r2 ?: -EIO;
		if (!a->damage[0])
			snprintf(a->damage, sizeof(a->damage), "tables lost: %.100s", a->err);
		/* a lost table reads as empty */
		for (size_t i = 0; i < ARRAY_SIZE(sts); i++)
			if (!*sts[i] && prep(a, sts[i], "SELECT 1 WHERE ?1 IS NULL AND 0"))
				return -EIO;
	}
	return 0;
}

static void meta_set(struct ptk_arc *a, const char *key, const char *val)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(a->db, "INSERT OR IGNORE INTO meta VALUES(?,?)", -1, &st, NULL))
		return;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, val, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

void ptk_arc_set_meta(struct ptk_arc *a, const char *key, const char *val)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(a->db, "INSERT OR REPLACE INTO meta VALUES(?,?)", -1, &st, NULL))
		return;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, val, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

void ptk_arc_meta(struct ptk_arc *a, const char *key, char *buf, size_t size)
{
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(a->db, "SELECT value FROM meta WHERE key=?", -1, &st, NULL))
		return;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Open path read-only, creating nothing beside it. An archive is in WAL mode: a reader
 * normally maps PATH-shm and opens PATH-wal, creating them when absent, which fails in a
 * directory it cannot write ("attempt to write a readonly database") and, as root, leaves
 * them beside a file it only read. When both exist (a recorder is writing, or was killed),
 * a read-only connection reads the WAL through them and creates nothing. Otherwise the
 * file is opened immutable (no locks, no -shm, no -wal): without a WAL every committed
 * sample is in the main file. A WAL without its -shm cannot be read without creating one:
 * its samples are reported missing in note.
 */
static int open_readonly(struct ptk_arc *a, const char *path, char *note, size_t notesize)
{
	size_t n = strlen(path);
	char *side = xmalloc(n + 5), *uri = xmalloc(3 * n + 32), *q;
	struct stat wal, shm;
	bool has_wal, has_shm;
	int r;

	memcpy(side, path, n);
	memcpy(side + n, "-wal", 5);
	has_wal = stat(side, &wal) == 0;
	memcpy(side + n, "-shm", 5);
	has_shm = stat(side, &shm) == 0;
	free(side);
	if (has_wal && has_shm) {
		free(uri);
		return sqlite3_open_v2(path, &a->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
				       NULL);
	}
	if (has_wal && wal.st_size > 0)
		snprintf(note, notesize,
			 "%s-wal unread (no %s-shm beside it): samples since its last "
			 "checkpoint are missing",
			 path, path);
	/* file:PATH?immutable=1, the path percent-encoded where a URI needs it */
	q = uri + sprintf(uri, "file:");
	for (const char *c = path; *c; c++) {
		if (*c == '%' || *c == '?' || *c == '#' || (unsigned char)*c < 0x21 ||
		    (unsigned char)*c >= 0x7f)
			q += sprintf(q, "%%%02X", (unsigned char)*c);
		else
			*q++ = *c;
	}
	strcpy(q, "?immutable=1");
	r = sqlite3_open_v2(uri, &a->db,
			    SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	return r;
}

void ptk_arc_set_host_meta(struct ptk_arc *a)
{
	struct utsname un;
	char v[64];

	if (uname(&un) == 0) {
		ptk_arc_set_meta(a, "sysname", un.sysname);
		ptk_arc_set_meta(a, "release", un.release);
		ptk_arc_set_meta(a, "hostname", un.nodename);
		ptk_arc_set_meta(a, "machine", un.machine);
	}
	snprintf(v, sizeof(v), "%ld", sysconf(_SC_NPROCESSORS_CONF));
	ptk_arc_set_meta(a, "ncpu", v);
	snprintf(v, sizeof(v), "%ld", sysconf(_SC_CLK_TCK));
	ptk_arc_set_meta(a, "hz", v);
	snprintf(v, sizeof(v), "%ld", sysconf(_SC_PAGESIZE));
	ptk_arc_set_meta(a, "page_size", v);
}

struct ptk_arc *ptk_arc_open(const char *path, int mode, char *err, size_t errsize)
{
	struct ptk_arc *a = xcalloc(1, sizeof(*a));
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
	struct stat sb;
	int ver = -1;

	a->rw = mode == PTK_ARC_RDWR;
	if (!a->rw && stat(path, &sb) < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(a);
		return NULL;
	}
	/* no global allocation statistics (a mutex and counters around every malloc): set
	 * once, before SQLite's first use in the process */
	static bool configured;
	if (!configured) {
		configured = true;
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	}
	if ((a->rw ? sqlite3_open_v2(path, &a->db, flags, NULL) :
		     open_readonly(a, path, a->damage, sizeof(a->damage))) != SQLITE_OK) {
		snprintf(err, errsize, "%s: %s", path,
			 a->db ? sqlite3_errmsg(a->db) : "cannot open");
		goto err_close;
	}
	sqlite3_busy_timeout(a->db, 5000);
	if (!a->rw) {
		/* A truncated file: SQLite refuses it as a whole unless the schema check is
		 * relaxed; the reader then gets every row on the pages that are still there. */
		unsigned char h[100];
		FILE *f = fopen(path, "rb");
		if (f && fread(h, 1, sizeof(h), f) == sizeof(h) &&
		    !memcmp(h, "SQLite format 3", 15)) {
			u64 psz = (h[16] << 8 | h[17]) == 1 ? 65536 : (u64)(h[16] << 8 | h[17]);
			u64 npg = (u64)h[28] << 24 | h[29] << 16 | h[30] << 8 | h[31];
			if (npg && psz && (u64)sb.st_size < npg * psz)
				snprintf(a->damage, sizeof(a->damage),
					 "file truncated: %" PRIu64 " of %" PRIu64 " bytes",
					 (u64)sb.st_size, npg * psz);
		}
		if (f)
			fclose(f);
		exec(a, "PRAGMA writable_schema=ON");
		a->err[0] = '\0';
	}
	sqlite3_extended_result_codes(a->db, 0);
	if (a->rw) {
		struct ptk_strbuf b = { 0 };
		char val[64];
		int r;
		/* an archive of another schema version is left as it is: never mix layouts */
		sqlite3_stmt *vst;
		if (sqlite3_prepare_v2(a->db, "PRAGMA user_version", -1, &vst, NULL) == SQLITE_OK) {
			if (sqlite3_step(vst) == SQLITE_ROW)
				ver = sqlite3_column_int(vst, 0);
			sqlite3_finalize(vst);
			/* version 3 only added the profile tables, version 4 the ext table (and
			 * sample columns, added as NULL for the rows before), version 5 the
			 * cgroup tables: a version 2 to 4 archive takes them and goes on (its rows
			 * are read as before, its samples have no cgroups) */
			if (ver >= 2 && ver <= 4)
				ver = PTK_ARC_SCHEMA_VERSION;
			if (ver > 0 && ver != PTK_ARC_SCHEMA_VERSION) {
				snprintf(
					err, errsize,
					"%s: schema version %d, this ptk writes version %d: record "
					"into another --db%s",
					path, ver, PTK_ARC_SCHEMA_VERSION,
					ver < PTK_ARC_SCHEMA_VERSION ?
						" (this file stays readable: ptk sar --db)" :
						"");
				goto err_close;
			}
		}
		/* WAL: readers never block the writer. synchronous=NORMAL: a commit is not
		 * fsynced, so a crash of the recorder loses nothing committed and a power cut
		 * at most the last samples (the file stays consistent) */
		r = exec(a, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
		if (!r) {
			ptk_strbuf_addf(&b, "BEGIN;");
			schema_sql(&b);
			ptk_strbuf_addf(&b, "COMMIT;");
			r = exec(a, b.p);
			free(b.p);
		}
		if (r) {
			snprintf(err, errsize, "%s: %s", path, a->err);
			goto err_close;
		}
		snprintf(val, sizeof(val), "%d", PTK_ARC_SCHEMA_VERSION);
		meta_set(a, "schema_version", val);
		snprintf(val, sizeof(val), "PRAGMA user_version=%d", PTK_ARC_SCHEMA_VERSION);
		exec(a, val);
	}
	{
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(a->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW)
				ver = sqlite3_column_int(st, 0);
			sqlite3_finalize(st);
		}
	}
	if (ver < 0) {
		snprintf(err, errsize, "%s: not a ptk archive: %s", path, sqlite3_errmsg(a->db));
		goto err_close;
	}
	/* every version ever written is read: an archive must outlive the ptk that wrote it */
	if (ver < PTK_ARC_SCHEMA_MIN || ver > PTK_ARC_SCHEMA_VERSION) {
		snprintf(err, errsize, "%s: schema version %d, this ptk reads versions %d to %d",
			 path, ver, PTK_ARC_SCHEMA_MIN, PTK_ARC_SCHEMA_VERSION);
		goto err_close;
	}
	a->ver = ver;
	if (prepare_all(a)) {
		snprintf(err, errsize, "%s: not a ptk archive or damaged: %s", path, a->err);
		goto err_close;
	}
	return a;
err_close:
	ptk_arc_close(a);
	return NULL;
}

static void cgw_reset(struct ptk_arc *a)
{
	for (int i = 0; i < a->ncgw; i++)
		free(a->cgw[i].path);
	free(a->cgw);
	a->cgw = NULL;
	a->ncgw = a->cgwcap = 0;
}

void ptk_arc_close(struct ptk_arc *a)
{
	if (!a)
		return;
	sqlite3_stmt *sts[] = { a->ins_sample,	 a->ins_counters, a->ins_proc,	a->sel_sample,
				a->sel_counters, a->sel_proc,	  a->sel_dev,	a->sel_netif,
				a->sel_keyset,	 a->begin,	  a->commit,	a->sel_dev_id,
				a->ins_dev,	 a->sel_netif_id, a->ins_netif, a->sel_task_id,
				a->ins_task,	 a->sel_cpu,	  a->sel_disk,	a->sel_net,
				a->sel_snmp };
	for (size_t i = 0; i < ARRAY_SIZE(sts); i++)
		sqlite3_finalize(sts[i]);
	sqlite3_finalize(a->ins_ext);
	sqlite3_finalize(a->sel_ext);
	sqlite3_finalize(a->ins_cg);
	sqlite3_finalize(a->sel_cg);
	sqlite3_finalize(a->sel_cgpath_id);
	sqlite3_finalize(a->ins_cgpath);
	sqlite3_finalize(a->sel_cgpath);
	cgw_reset(a);
	for (int i = 0; i < a->ncgr; i++)
		free(a->cgr[i]);
	free(a->cgr);
	free(a->cgvec.p);
	free(a->ext_keyset);
	free(a->sel_col);
	ptk_xkvs_free(&a->ext);
	sqlite3_close(a->db);
	free(a->devs.e);
	free(a->ifs.e);
	free(a->tasks.e);
	free(a->rdevs.e);
	free(a->rifs.e);
	free(a->keyset);
	for (size_t i = 0; i < ARRAY_SIZE(a->vec); i++)
		free(a->vec[i].p);
	free(a);
}

/* ---- writing ------------------------------------------------------------------------------ */

/* The cached entry with k's identity (name and fields), or NULL. */
static struct dict_ent *dict_find(struct dict *d, const struct dict_ent *k)
{
	for (int i = d->n - 1; i >= 0; i--) {
		struct dict_ent *x = &d->e[i];
		if (x->a == k->a && x->b == k->b && x->c == k->c && x->d == k->d && x->e == k->e &&
		    !strcmp(x->name, k->name))
			return x;
	}
	return NULL;
}

static struct dict_ent *dict_add(struct dict *d, const struct dict_ent *k)
{
	if (d->n == d->cap) {
		if (d->cap >= 8192) { /* a cache: start over */
			d->n = 0;
		} else {
			d->cap = d->cap ? d->cap * 2 : 64;
			d->e = xrealloc(d->e, d->cap * sizeof(*d->e));
		}
	}
	d->e[d->n] = *k;
	return &d->e[d->n++];
}

static void bind_opt(sqlite3_stmt *st, int i, bool present, s64 v)
{
	if (present)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int step_reset(struct ptk_arc *a, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_fail(a, what);
}

/* *st prepared once (persistent); 0 or -EIO */
static int lazy_prep(struct ptk_arc *a, sqlite3_stmt **st, const char *sql)
{
	return *st ? 0 : prep(a, st, sql);
}

/* Step a look-up statement: its first column as *id (0 when no row), then reset it. */
static int step_id(struct ptk_arc *a, sqlite3_stmt *st, s64 *id, const char *what)
{
	int rc = sqlite3_step(st);

	*id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_fail(a, what);
}

/*
 * The id (into k->id) of the dictionary row (dev, netif, task) of identity k: from the cache,
 * else looked up by sel, else inserted by ins, both bound by bind(st, row) with the same
 * parameters; then cached. Statements prepared on first use. 0 or -EIO.
 */
static int dict_id(struct ptk_arc *a, struct dict *cache, struct dict_ent *k, sqlite3_stmt **sel,
		   const char *sel_sql, sqlite3_stmt **ins, const char *ins_sql,
		   void (*bind)(sqlite3_stmt *, const void *), const void *row, const char *what)
{
	struct dict_ent *x = dict_find(cache, k);
	int r;

	if (x) {
		k->id = x->id;
		return 0;
	}
	if ((r = lazy_prep(a, sel, sel_sql)) || (r = lazy_prep(a, ins, ins_sql)))
		return r;
	bind(*sel, row);
	if ((r = step_id(a, *sel, &k->id, what)))
		return r;
	if (!k->id) {
		bind(*ins, row);
		if ((r = step_reset(a, *ins, what)))
			return r;
		k->id = sqlite3_last_insert_rowid(a->db);
	}
	dict_add(cache, k);
	return 0;
}

struct dev_row {
	const struct ptk_disk *d;
	int rot;
};

static void bind_dev(sqlite3_stmt *st, const void *row)
{
	const struct dev_row *k = row;

	sqlite3_bind_text(st, 1, k->d->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, k->d->major);
	sqlite3_bind_int(st, 3, k->d->minor);
	sqlite3_bind_int(st, 4, k->d->is_partition);
	bind_opt(st, 5, k->rot >= 0, k->rot);
	sqlite3_bind_int(st, 6, k->d->nfields);
}

/* id of the dev row for a disk, inserted when new */
static int dev_id(struct ptk_arc *a, const struct ptk_disk *d, int rot, s64 *id)
{
	struct dict_ent k = { 0, "", d->major, d->minor, d->is_partition, rot, d->nfields };
	struct dev_row row = { d, rot };
	int r;

	snprintf(k.name, sizeof(k.name), "%s", d->name);
	r = dict_id(a, &a->devs, &k, &a->sel_dev_id,
		    "SELECT id FROM dev WHERE name=? AND major=? AND minor=? AND partition=? AND "
		    "rotational IS ? AND nfields=?",
		    &a->ins_dev, "INSERT INTO dev VALUES(NULL,?,?,?,?,?,?)", bind_dev, &row, "dev");
	*id = k.id;
	return r;
}

struct netif_row {
	const char *name;
	long speed;
};

static void bind_netif(sqlite3_stmt *st, const void *row)
{
	const struct netif_row *k = row;

	sqlite3_bind_text(st, 1, k->name, -1, SQLITE_STATIC);
	bind_opt(st, 2, k->speed > 0, k->speed);
}

static int netif_id(struct ptk_arc *a, const char *name, long speed, s64 *id)
{
	struct dict_ent k = { 0, "", speed };
	struct netif_row row = { name, speed };
	int r;

	snprintf(k.name, sizeof(k.name), "%s", name);
	r = dict_id(a, &a->ifs, &k, &a->sel_netif_id,
		    "SELECT id FROM netif WHERE name=? AND speed IS ?", &a->ins_netif,
		    "INSERT INTO netif VALUES(NULL,?,?)", bind_netif, &row, "netif");
	*id = k.id;
	return r;
}

static void bind_task(sqlite3_stmt *st, const void *row)
{
	const struct ptk_task *t = row;

	sqlite3_bind_int(st, 1, t->pid);
	sqlite3_bind_int64(st, 2, (s64)t->starttime);
	sqlite3_bind_text(st, 3, t->comm, -1, SQLITE_STATIC);
	bind_opt(st, 4, t->owner_ok, t->euid);
	if (t->cmdline[0])
		sqlite3_bind_text(st, 5, t->cmdline, -1, SQLITE_STATIC);
}

/* (cmdline is part of a task's identity only through the database lookup) */
static int task_id(struct ptk_arc *a, const struct ptk_task *t, s64 *id)
{
	struct dict_ent k = { 0, "", t->pid, (s64)t->starttime, t->owner_ok ? (s64)t->euid : -1 };
	int r;

	snprintf(k.name, sizeof(k.name), "%s", t->comm);
	r = dict_id(a, &a->tasks, &k, &a->sel_task_id,
		    "SELECT id FROM task WHERE pid=? AND starttime=? AND comm=? AND uid IS ? AND "
		    "cmdline IS ?",
		    &a->ins_task,
		    "INSERT INTO task(pid,starttime,comm,uid,cmdline) VALUES(?,?,?,?,?)", bind_task,
		    t, "task");
	*id = k.id;
	return r;
}

static int cgpath_id(struct ptk_arc *a, const char *path, s64 *id);

static int put_procs(struct ptk_arc *a, s64 sid, const struct ptk_task *t, int n)
{
	sqlite3_stmt *st = a->ins_proc;
	int r;

	for (int i = 0; i < n; i++, t++) {
		s64 tid;
		int k = 1;
		if ((r = task_id(a, t, &tid)))
			return r;
		sqlite3_bind_int64(st, k++, sid);
		sqlite3_bind_int64(st, k++, tid);
		sqlite3_bind_int(st, k++, t->state);
		sqlite3_bind_int(st, k++, t->ppid);
		sqlite3_bind_int64(st, k++, t->nthreads);
		sqlite3_bind_int64(st, k++, t->priority);
		sqlite3_bind_int64(st, k++, t->nice);
		sqlite3_bind_int(st, k++, t->processor);
		sqlite3_bind_int64(st, k++, (s64)t->utime);
		sqlite3_bind_int64(st, k++, (s64)t->stime);
		sqlite3_bind_int64(st, k++, (s64)t->gtime);
		sqlite3_bind_int64(st, k++, (s64)t->minflt);
		sqlite3_bind_int64(st, k++, (s64)t->majflt);
		sqlite3_bind_int64(st, k++, (s64)t->blkio_ticks);
		sqlite3_bind_int64(st, k++, (s64)t->vsize);
		sqlite3_bind_int64(st, k++, (s64)t->rss_pages);
		bind_opt(st, k++, t->io_ok, (s64)t->rchar);
		bind_opt(st, k++, t->io_ok, (s64)t->wchar);
		bind_opt(st, k++, t->io_ok, (s64)t->read_bytes);
		bind_opt(st, k++, t->io_ok, (s64)t->write_bytes);
		bind_opt(st, k++, t->io_ok, (s64)t->cancelled_write_bytes);
		if (t->wchan[0])
			sqlite3_bind_text(st, k, t->wchan, -1, SQLITE_STATIC);
		k++;
		if (t->cgroup[0]) {
			s64 cg;
			if ((r = cgpath_id(a, t->cgroup, &cg)))
				return r;
			sqlite3_bind_int64(st, k, cg);
		}
		if ((r = step_reset(a, st, "insert proc")))
			return r;
	}
	return 0;
}

/* zigzag LEB128 varints: small magnitudes, positive or negative, take 1-2 bytes */
static size_t put_varint(unsigned char *p, s64 v)
{
	u64 z = ((u64)v << 1) ^ (u64)(v >> 63);
	size_t n = 0;

	do {
		p[n] = z & 0x7f;
		z >>= 7;
		if (z)
			p[n] |= 0x80;
		n++;
	} while (z);
	return n;
}

static int get_varint(const unsigned char *p, size_t len, size_t *pos, s64 *v)
{
	u64 z = 0;
	int shift = 0;

	while (*pos < len && shift < 64) {
		unsigned char c = p[(*pos)++];
		z |= (u64)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80)) {
			*v = (s64)(z >> 1) ^ -(s64)(z & 1);
			return 0;
		}
	}
	return -EINVAL;
}

/* Append v to a counters vector. */
static void vec_put(struct vbuf *b, s64 v)
{
	if (b->len + 10 > b->cap) {
		b->cap = MAX(b->cap * 2, 512);
		b->p = xrealloc(b->p, b->cap);
	}
	b->len += put_varint(b->p + b->len, v);
}

/* The keyset and snmp columns of the counters row (bound to ins_counters). 0 or -EIO. */
static int put_snmp(struct ptk_arc *a, const struct ptk_kvs *kvs)
{
	struct ptk_strbuf keys = { 0 };

	if (!kvs->n)
		return 0;
	/* the key list, space-separated (memcpy: 300 keys a sample, printf cost 4% of one) */
	for (int i = 0; i < kvs->n; i++) {
		size_t kl = strlen(kvs->kv[i].key);
		if (keys.len + kl + 2 > keys.cap) {
			keys.cap = MAX(keys.cap * 2, keys.len + kl + 4096);
			keys.p = xrealloc(keys.p, keys.cap);
		}
		if (i)
			keys.p[keys.len++] = ' ';
		memcpy(keys.p + keys.len, kvs->kv[i].key, kl);
		keys.len += kl;
		keys.p[keys.len] = '\0';
	}
	if (!a->keyset || strcmp(a->keyset, keys.p)) {
		sqlite3_stmt *st;
		a->keyset_id = 0;
		if (sqlite3_prepare_v2(a->db, "SELECT id FROM keyset WHERE keys=?", -1, &st, NULL))
			goto err_free_keys;
		sqlite3_bind_text(st, 1, keys.p, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			a->keyset_id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (!a->keyset_id) {
			if (sqlite3_prepare_v2(a->db, "INSERT INTO keyset VALUES(NULL,?)", -1, &st,
					       NULL))
				goto err_free_keys;
			sqlite3_bind_text(st, 1, keys.p, -1, SQLITE_STATIC);
			int rc = sqlite3_step(st);
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE)
				goto err_free_keys;
			a->keyset_id = sqlite3_last_insert_rowid(a->db);
		}
		free(a->keyset);
		a->keyset = xstrdup(keys.p);
	}
	free(keys.p);
	struct vbuf *v = &a->vec[3];
	for (int i = 0; i < kvs->n; i++)
		vec_put(v, kvs->kv[i].val);
	/* counters.keyset, counters.snmp */
	sqlite3_bind_int64(a->ins_counters, 5, a->keyset_id);
	sqlite3_bind_blob(a->ins_counters, 6, v->p, (int)v->len, SQLITE_STATIC);
	return 0;
err_free_keys:
	free(keys.p);
	return db_fail(a, "keyset");
}

/* The ext row of sample sid: s's extended parts as a keyset and a varint vector (nothing
 * when s has none). 0 or -EIO. */
static int put_ext(struct ptk_arc *a, s64 sid, const struct ptk_snap *s)
{
	struct ptk_strbuf keys = { 0 };
	struct vbuf v = { 0 };
	int rc;

	ptk_snap_ext_put(s, &a->ext);
	if (!a->ext.n || !a->ins_ext)
		return 0;
	for (int i = 0; i < a->ext.n; i++)
		ptk_strbuf_addf(&keys, "%s%s", i ? " " : "", ptk_xkvs_key(&a->ext, i));
	if (!a->ext_keyset || strcmp(a->ext_keyset, keys.p)) {
		sqlite3_stmt *st;
		a->ext_keyset_id = 0;
		if (sqlite3_prepare_v2(a->db, "SELECT id FROM keyset WHERE keys=?", -1, &st, NULL))
			goto err_free;
		sqlite3_bind_text(st, 1, keys.p, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			a->ext_keyset_id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (!a->ext_keyset_id) {
			if (sqlite3_prepare_v2(a->db, "INSERT INTO keyset VALUES(NULL,?)", -1, &st,
					       NULL))
				goto err_free;
			sqlite3_bind_text(st, 1, keys.p, -1, SQLITE_STATIC);
			rc = sqlite3_step(st);
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE)
				goto err_free;
			a->ext_keyset_id = sqlite3_last_insert_rowid(a->db);
		}
		free(a->ext_keyset);
		a->ext_keyset = xstrdup(keys.p);
	}
	for (int i = 0; i < a->ext.n; i++)
		vec_put(&v, a->ext.kv[i].val);
	sqlite3_bind_int64(a->ins_ext, 1, sid);
	sqlite3_bind_int64(a->ins_ext, 2, a->ext_keyset_id);
	sqlite3_bind_blob(a->ins_ext, 3, v.p, (int)v.len, SQLITE_STATIC);
	rc = step_reset(a, a->ins_ext, "insert ext");
	sqlite3_clear_bindings(a->ins_ext);
	free(v.p);
	free(keys.p);
	return rc;
err_free:
	free(v.p);
	free(keys.p);
	return db_fail(a, "keyset");
}

/* The cgpath.id of path (looked up, else inserted with its owner), cached. 0 or -EIO. */
static int cgpath_id(struct ptk_arc *a, const char *path, s64 *id)
{
	int lo = 0, hi = a->ncgw, r;

	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(path, a->cgw[mid].path);
		if (!c) {
			*id = a->cgw[mid].id;
			return 0;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if ((r = lazy_prep(a, &a->sel_cgpath_id, "SELECT id FROM cgpath WHERE path=?")) ||
	    (r = lazy_prep(a, &a->ins_cgpath, "INSERT INTO cgpath VALUES(NULL,?,?)")))
		return r;
	sqlite3_bind_text(a->sel_cgpath_id, 1, path, -1, SQLITE_STATIC);
	if ((r = step_id(a, a->sel_cgpath_id, id, "cgpath")))
		return r;
	if (!*id) {
		struct ptk_cg_ident ident;
		char owner[160];
		ptk_cg_identify(path, &ident);
		ptk_cg_ident_short(&ident, owner, sizeof(owner));
		sqlite3_bind_text(a->ins_cgpath, 1, path, -1, SQLITE_STATIC);
		if (owner[0])
			sqlite3_bind_text(a->ins_cgpath, 2, owner, -1, SQLITE_STATIC);
		if ((r = step_reset(a, a->ins_cgpath, "cgpath")))
			return r;
		*id = sqlite3_last_insert_rowid(a->db);
	}
	if (a->ncgw == a->cgwcap) {
		a->cgwcap = a->cgwcap ? a->cgwcap * 2 : 64;
		a->cgw = xrealloc(a->cgw, a->cgwcap * sizeof(*a->cgw));
	}
	memmove(a->cgw + lo + 1, a->cgw + lo, (a->ncgw - lo) * sizeof(*a->cgw));
	a->cgw[lo] = (struct cgp){ xstrdup(path), *id };
	a->ncgw++;
	return 0;
}

/* The psi bits of a cgroup: bit 2r its resource r's "some" line, 2r+1 its "full" line. */
static unsigned cg_psi_bits(const struct ptk_cgroup *c)
{
	unsigned m = 0;

	for (int r = 0; r < PTK_PSI_NRES; r++)
		if (c->has_psi[r])
			m |= (c->psi[r].some.present << 2 * r) |
			     (c->psi[r].full.present << (2 * r + 1));
	return m;
}

/* The cgroups row of sample sid: the first n cgroups of cg. 0 or -EIO. */
static int put_cg(struct ptk_arc *a, s64 sid, const struct ptk_cgsnap *cg, int n)
{
	struct vbuf *v = &a->cgvec;
	int r;

	v->len = 0;
	for (int i = 0; i < n; i++) {
		const struct ptk_cgroup *c = &cg->cg[i];
		unsigned m = cg_psi_bits(c);
		s64 id;
		if ((r = cgpath_id(a, c->path, &id)))
			return r;
		vec_put(v, id);
		vec_put(v, c->ctrl);
		vec_put(v, (s64)c->has);
		for (int k = 0; k < PTK_CGV_N; k++)
			if (ptk_cg_has(c, k))
				vec_put(v, (s64)c->v[k]);
		vec_put(v, m);
		for (int b = 0; b < 2 * PTK_PSI_NRES; b++) {
			const struct ptk_psi_line *l =
				b & 1 ? &c->psi[b / 2].full : &c->psi[b / 2].some;
			if (!(m & (1u << b)))
				continue;
			vec_put(v, llround(l->avg10 * 100));
			vec_put(v, llround(l->avg60 * 100));
			vec_put(v, llround(l->avg300 * 100));
			vec_put(v, (s64)l->total_us);
		}
		vec_put(v, c->has_io);
		vec_put(v, c->has_io ? c->nio : 0);
		for (int k = 0; c->has_io && k < c->nio; k++) {
			const struct ptk_cg_io *d = &c->io[k];
			vec_put(v, d->major);
			vec_put(v, d->minor);
			vec_put(v, (s64)d->rbytes);
			vec_put(v, (s64)d->wbytes);
			vec_put(v, (s64)d->rios);
			vec_put(v, (s64)d->wios);
		}
	}
	sqlite3_bind_int64(a->ins_cg, 1, sid);
	sqlite3_bind_int(a->ins_cg, 2, cg->layout);
	sqlite3_bind_int64(a->ins_cg, 3, llround(cg->up_s * 100));
	sqlite3_bind_int(a->ins_cg, 4, n);
	sqlite3_bind_blob(a->ins_cg, 5, v->p ? (const void *)v->p : "", (int)v->len, SQLITE_STATIC);
	return step_reset(a, a->ins_cg, "insert cgroups");
}

int ptk_arc_write(struct ptk_arc *a, struct ptk_snap *s, s64 prev_id,
		  const struct ptk_task *prev_procs, int nprev)
{
	return ptk_arc_write_cg(a, s, NULL, 0, prev_id, prev_procs, nprev);
}

int ptk_arc_write_cg(struct ptk_arc *a, struct ptk_snap *s, const struct ptk_cgsnap *cg, int ncg,
		     s64 prev_id, const struct ptk_task *prev_procs, int nprev)
{
	sqlite3_stmt *st = a->ins_sample;
	/* the look-up caches as they were: a rollback takes back the rows added since */
	int ndevs = a->devs.n, nifs = a->ifs.n, ntasks = a->tasks.n;
	s64 sid;
	int r;

	if ((r = step_reset(a, a->begin, "begin")))
		return r;
	sqlite3_bind_int64(st, 1, s->t_ms);
	for (int i = 0; i < sample_cols(); i++)
		bind_opt(st, i + 2, col_present(s, &cols[i]), col_get(s, &cols[i]));
	if ((r = step_reset(a, st, "insert sample")))
		goto err_rollback;
	sid = s->id = sqlite3_last_insert_rowid(a->db);
	/* the counters row: per entry (CPU, device, interface) its id, the count of values,
	 * the values; offline CPUs are left out */
	for (size_t i = 0; i < ARRAY_SIZE(a->vec); i++)
		a->vec[i].len = 0;
	for (int c = -1; c < s->st.ncpu; c++) {
		const struct ptk_cpu_times *t = c < 0 ? &s->st.all : &s->st.cpu[c];
		if (c >= 0 && !s->st.present[c])
			continue;
		vec_put(&a->vec[0], c);
		vec_put(&a->vec[0], PTK_CPU_NSTATES);
		for (int k = 0; k < PTK_CPU_NSTATES; k++)
			vec_put(&a->vec[0], (s64)t->t[k]);
	}
	for (int i = 0; i < s->ds.n; i++) {
		const struct ptk_disk *d = &s->ds.d[i];
		int nf = MIN(MAX(d->nfields, 0), PTK_DK_NFIELDS);
		s64 id;
		if ((r = dev_id(a, d, s->rot ? s->rot[i] : -1, &id)))
			goto err_rollback;
		vec_put(&a->vec[1], id);
		vec_put(&a->vec[1], nf);
		for (int k = 0; k < nf; k++)
			vec_put(&a->vec[1], (s64)d->f[k]);
	}
	for (int i = 0; i < s->nd.n; i++) {
		s64 id;
		if ((r = netif_id(a, s->nd.d[i].name, s->speed ? s->speed[i] : -1, &id)))
			goto err_rollback;
		vec_put(&a->vec[2], id);
		vec_put(&a->vec[2], PTK_ND_NFIELDS);
		for (int k = 0; k < PTK_ND_NFIELDS; k++)
			vec_put(&a->vec[2], (s64)s->nd.d[i].f[k]);
	}
	sqlite3_bind_int64(a->ins_counters, 1, sid);
	for (int i = 0; i < 3; i++)
		if (a->vec[i].len)
			sqlite3_bind_blob(a->ins_counters, 2 + i, a->vec[i].p, (int)a->vec[i].len,
					  SQLITE_STATIC);
	if (s->kvs.n && (r = put_snmp(a, &s->kvs)))
		goto err_rollback;
	if ((r = step_reset(a, a->ins_counters, "insert counters")))
		goto err_rollback;
	if ((r = put_ext(a, sid, s)))
		goto err_rollback;
	if (cg && ncg > 0 && a->ins_cg && (r = put_cg(a, sid, cg, MIN(ncg, cg->n))))
		goto err_rollback;
	if ((r = put_procs(a, sid, s->procs, s->nproc)))
		goto err_rollback;
	if (prev_id > 0 && nprev && (r = put_procs(a, prev_id, prev_procs, nprev)))
		goto err_rollback;
	if ((r = step_reset(a, a->commit, "commit")))
		goto err_rollback;
	return 0;
err_rollback:
	/* no binding may outlive the buffers it points into */
	sqlite3_reset(a->ins_counters);
	sqlite3_clear_bindings(a->ins_counters);
	exec(a, "ROLLBACK");
	/* (a cache that started over meanwhile is emptied instead) */
	a->devs.n = a->devs.n >= ndevs ? ndevs : 0;
	a->ifs.n = a->ifs.n >= nifs ? nifs : 0;
	a->tasks.n = a->tasks.n >= ntasks ? ntasks : 0;
	free(a->keyset); /* its row may have been one of them */
	a->keyset = NULL;
	free(a->ext_keyset);
	a->ext_keyset = NULL;
	cgw_reset(a); /* its new paths' rows are gone */
	return -EIO;
}

long ptk_arc_retain(struct ptk_arc *a, s64 before_ms, int batch)
{
	static const char *const del[] = {
		"DELETE FROM prof WHERE sample_id IN (SELECT id FROM old)",
		"DELETE FROM proc WHERE sample_id IN (SELECT id FROM old)",
		"DELETE FROM counters WHERE sample_id IN (SELECT id FROM old)",
		"DELETE FROM ext WHERE sample_id IN (SELECT id FROM old)",
		"DELETE FROM cgroups WHERE sample_id IN (SELECT id FROM old)",
		"DELETE FROM sample WHERE id IN (SELECT id FROM old)",
	};
	long total = 0;
	char sql[384];
	s64 cut = INT64_MAX;
	sqlite3_stmt *st;

	if (batch < 1)
		batch = 1;
	/* the oldest samples in recording (id) order up to the first one not older than
	 * before_ms: found once, by a walk from the start of the rowid b-tree that stops there
	 * (no index on t_ms; +t_ms: nor the one archives of before kept), then deleted in
	 * batches of ids below it */
	snprintf(sql, sizeof(sql),
		 "SELECT id FROM sample WHERE +t_ms >= %" PRId64 " ORDER BY id LIMIT 1", before_ms);
	if (sqlite3_prepare_v2(a->db, sql, -1, &st, NULL))
		return db_fail(a, "retention");
	if (sqlite3_step(st) == SQLITE_ROW)
		cut = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (;;) {
		int n = 0;
		if (exec(a, "BEGIN IMMEDIATE"))
			return -EIO;
		snprintf(sql, sizeof(sql),
			 "CREATE TEMP TABLE old AS SELECT id FROM sample WHERE id < %" PRId64
			 " ORDER BY id LIMIT %d",
			 cut, batch);
		if (exec(a, sql))
			goto err_rollback;
		if (sqlite3_prepare_v2(a->db, "SELECT count(*) FROM old", -1, &st, NULL))
			goto err_rollback;
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		for (size_t i = 0; n && i < ARRAY_SIZE(del); i++)
			if (exec(a, del[i]))
				goto err_rollback;
		if (exec(a, "DROP TABLE old") || exec(a, "COMMIT"))
			goto err_rollback;
		total += n;
		if (n < batch)
			return total;
	}
err_rollback:
	exec(a, "ROLLBACK");
	exec(a, "DROP TABLE IF EXISTS temp.old");
	return -EIO;
}

/* ---- continuous profiles ------------------------------------------------------------------ */

int ptk_arc_write_profile(struct ptk_arc *a, s64 sample_id, const struct ptk_folded *f)
{
	sqlite3_stmt *sel = NULL, *ins = NULL, *row = NULL;
	int r = -EIO;

	if (!f->n)
		return 0;
	if (sqlite3_prepare_v2(a->db, "SELECT id FROM stack WHERE stack=?", -1, &sel, NULL) ||
	    sqlite3_prepare_v2(a->db, "INSERT INTO stack(stack) VALUES(?)", -1, &ins, NULL) ||
	    sqlite3_prepare_v2(a->db, "INSERT OR REPLACE INTO prof VALUES(?,?,?)", -1, &row,
			       NULL)) {
		db_fail(a, "profile");
		goto out;
	}
	if (exec(a, "BEGIN IMMEDIATE"))
		goto out;
	for (int i = 0; i < f->n; i++) {
		s64 id = -1;
		sqlite3_bind_text(sel, 1, f->s[i].stack, -1, SQLITE_STATIC);
		if (sqlite3_step(sel) == SQLITE_ROW)
			id = sqlite3_column_int64(sel, 0);
		sqlite3_reset(sel);
		if (id < 0) {
			sqlite3_bind_text(ins, 1, f->s[i].stack, -1, SQLITE_STATIC);
			if (sqlite3_step(ins) != SQLITE_DONE) {
				db_fail(a, "profile stack");
				sqlite3_reset(ins);
				goto rollback;
			}
			sqlite3_reset(ins);
			id = sqlite3_last_insert_rowid(a->db);
		}
		sqlite3_bind_int64(row, 1, sample_id);
		sqlite3_bind_int64(row, 2, id);
		sqlite3_bind_int64(row, 3, (s64)f->s[i].count);
		if (sqlite3_step(row) != SQLITE_DONE) {
			db_fail(a, "profile row");
			sqlite3_reset(row);
			goto rollback;
		}
		sqlite3_reset(row);
	}
	r = exec(a, "COMMIT");
	if (!r)
		goto out;
rollback:
	exec(a, "ROLLBACK");
	r = -EIO;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	sqlite3_finalize(row);
	return r;
}

int ptk_arc_load_profile(struct ptk_arc *a, s64 from_ms, s64 to_ms, struct ptk_folded *f,
			 long *nsamples)
{
	sqlite3_stmt *st;
	s64 last = -1;
	long n = 0;
	int rc;

	if (nsamples)
		*nsamples = 0;
	if (a->ver < 3)
		return -ENOENT;
	/* the samples walked in rowid order (no index on t_ms), their rows by primary key */
	if (sqlite3_prepare_v2(a->db,
			       "SELECT p.sample_id, s.stack, p.count FROM sample m JOIN prof p ON "
			       "p.sample_id = m.id JOIN stack s ON s.id = p.stack WHERE +m.t_ms "
			       ">= ? AND +m.t_ms <= ? ORDER BY p.sample_id",
			       -1, &st, NULL))
		return db_fail(a, "profile");
	sqlite3_bind_int64(st, 1, from_ms);
	sqlite3_bind_int64(st, 2, to_ms);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s64 sid = sqlite3_column_int64(st, 0), c = sqlite3_column_int64(st, 2);
		const char *stk = (const char *)sqlite3_column_text(st, 1);
		if (sid != last) {
			n++;
			last = sid;
		}
		if (stk && c > 0)
			ptk_folded_add_joined(f, stk, (u64)c);
	}
	sqlite3_finalize(st);
	if (nsamples)
		*nsamples = n;
	return rc == SQLITE_DONE ? 0 : db_fail(a, "profile");
}

/* ---- reading ------------------------------------------------------------------------------- */

static void idx_add(struct ptk_arc_index *idx, s64 id, s64 t)
{
	if (idx->n == idx->cap) {
		idx->cap = idx->cap ? idx->cap * 2 : 256;
		idx->id = xrealloc(idx->id, idx->cap * sizeof(*idx->id));
		idx->t_ms = xrealloc(idx->t_ms, idx->cap * sizeof(*idx->t_ms));
	}
	idx->id[idx->n] = id;
	idx->t_ms[idx->n++] = t;
}

static int cmp_idx(const void *x, const void *y)
{
	const s64 *a = x, *b = y;
	return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : (a[0] > b[0]) - (a[0] < b[0]);
}

int ptk_arc_list(struct ptk_arc *a, s64 from_ms, s64 to_ms, struct ptk_arc_index *idx)
{
	sqlite3_stmt *st;
	s64 after = 0, maxid = 0;
	int ok = 0;

	idx->n = 0;
	idx->damaged = a->damage[0] != '\0';
	if (idx->damaged)
		snprintf(a->err, sizeof(a->err), "%s", a->damage);
	/* Walk the rowid b-tree (not the t_ms index, which may be damaged separately). On a
	 * corrupt page, skip ahead by growing steps and resume, so the samples past the
	 * damage are still found. */
	if (sqlite3_prepare_v2(a->db, "SELECT max(id) FROM sample", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			maxid = sqlite3_column_int64(st, 0);
		else if (!idx->damaged)
			idx->damaged = true, db_fail(a, "archive damaged");
		sqlite3_finalize(st);
	}
	if (sqlite3_prepare_v2(a->db, "SELECT id, t_ms FROM sample WHERE id > ? ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK) {
		db_fail(a, "list");
		return -EIO;
	}
	for (s64 skip = 1;;) {
		int rc;
		sqlite3_bind_int64(st, 1, after);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			s64 id = sqlite3_column_int64(st, 0), t = sqlite3_column_int64(st, 1);
			ok = 1;
			after = id;
			skip = 1;
			if (t >= from_ms && t <= to_ms)
				idx_add(idx, id, t);
		}
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			break;
		if (!idx->damaged)
			db_fail(a, "archive damaged");
		idx->damaged = true;
		if (maxid <= 0) {
			/* max(id) unreadable: probe a bounded range past the damage */
			maxid = after + 1000000;
		}
		after += skip;
		skip *= 2;
		if (after >= maxid)
			break;
	}
	sqlite3_finalize(st);
	/* time order (a clock stepped back during recording keeps its rows, sorted) */
	s64 *pairs = xmalloc((size_t)idx->n * 2 * sizeof(s64) + 1);
	for (int i = 0; i < idx->n; i++)
		pairs[2 * i] = idx->id[i], pairs[2 * i + 1] = idx->t_ms[i];
	qsort(pairs, idx->n, 2 * sizeof(s64), cmp_idx);
	for (int i = 0; i < idx->n; i++)
		idx->id[i] = pairs[2 * i], idx->t_ms[i] = pairs[2 * i + 1];
	free(pairs);
	return ok || !idx->damaged ? 0 : -EIO;
}

void ptk_arc_index_free(struct ptk_arc_index *idx)
{
	free(idx->id);
	free(idx->t_ms);
	memset(idx, 0, sizeof(*idx));
}

int ptk_arc_nearest(const struct ptk_arc_index *idx, s64 t_ms)
{
	int best = -1;
	s64 bd = 0;

	for (int i = 0; i < idx->n; i++) {
		s64 d = idx->t_ms[i] > t_ms ? idx->t_ms[i] - t_ms : t_ms - idx->t_ms[i];
		if (best < 0 || d < bd)
			best = i, bd = d;
	}
	return best;
}

/* ---- values the kernel cannot have written ------------------------------------------------ */

/* Note an impossible value of the sample being loaded ("what value (why)"; "; " between). */
static void __attribute__((format(printf, 2, 3)))
impossible(struct ptk_arc *a, const char *fmt, ...)
{
	size_t n = strlen(a->impossible);
	va_list ap;

	if (n + 3 >= sizeof(a->impossible))
		return;
	if (n)
		n += snprintf(a->impossible + n, sizeof(a->impossible) - n, "; ");
	va_start(ap, fmt);
	vsnprintf(a->impossible + n, sizeof(a->impossible) - n, fmt, ap);
	va_end(ap);
}

const char *ptk_arc_impossible(const struct ptk_arc *a)
{
	return a->impossible;
}

/* Why column c cannot hold v (an INTEGER), or NULL when it can: every stored field is a
 * count, a level or a time, never negative; 32-bit fields fit in 32 bits; a PSI average is
 * a share (at most 100.00, stored times 100); meminfo values are below 2^54 (kB that fit in
 * 64 bits as bytes, the meminfo reader's limit); a flag is 0 or 1. */
static const char *col_why(const struct col *c, s64 v)
{
	const struct ptk_field_desc *f = col_field(c);

	if (col_is_flag(c))
		return v == 0 || v == 1 ? NULL : "not 0 or 1";
	if (v < 0)
		return "negative";
	if ((f->type == PTK_FT_U32 && v > UINT32_MAX) || (f->type == PTK_FT_I32 && v > INT32_MAX))
		return "beyond 32 bits";
	if (f->type == PTK_FT_F64 && !strcmp(f->unit, "%") && v > 10000)
		return "above 100%";
	if (c->g == PTK_SNAP_G_MEMINFO && (u64)v > (~0ull >> 10)) /* as its reader refuses */
		return "beyond 2^54";
	return NULL;
}

/* meminfo fields that are parts of a total (fs/proc/meminfo.c: pages of RAM, of swap, of
 * the huge page pool), and the total. */
static const struct {
	enum ptk_mi_field f, total;
} mi_parts[] = {
	{ PTK_MI_MEM_FREE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_MEM_AVAILABLE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_BUFFERS, PTK_MI_MEM_TOTAL },
	{ PTK_MI_CACHED, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SWAP_CACHED, PTK_MI_MEM_TOTAL },
	{ PTK_MI_ACTIVE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_INACTIVE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_ACTIVE_ANON, PTK_MI_MEM_TOTAL },
	{ PTK_MI_INACTIVE_ANON, PTK_MI_MEM_TOTAL },
	{ PTK_MI_ACTIVE_FILE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_INACTIVE_FILE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_DIRTY, PTK_MI_MEM_TOTAL },
	{ PTK_MI_WRITEBACK, PTK_MI_MEM_TOTAL },
	{ PTK_MI_ANON_PAGES, PTK_MI_MEM_TOTAL },
	{ PTK_MI_MAPPED, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SHMEM, PTK_MI_MEM_TOTAL },
	{ PTK_MI_KRECLAIMABLE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SLAB, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SRECLAIMABLE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SUNRECLAIM, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SWAP_FREE, PTK_MI_SWAP_TOTAL },
	{ PTK_MI_HUGEPAGES_FREE, PTK_MI_HUGEPAGES_TOTAL },
};

/* Parts above their totals become unknown (the total stays: which of them is wrong is not
 * known, and the total alone is still a level); loadavg's runnable above its threads. */
static void check_totals(struct ptk_arc *a, struct ptk_snap *s)
{
	const struct ptk_meminfo *m = &s->mi;

	for (size_t i = 0; i < ARRAY_SIZE(mi_parts); i++) {
		enum ptk_mi_field f = mi_parts[i].f, t = mi_parts[i].total;
		if (!ptk_meminfo_has(m, f) || !ptk_meminfo_has(m, t) ||
		    ptk_meminfo_get(m, f) <= ptk_meminfo_get(m, t))
			continue;
		impossible(a, "%s %" PRIu64 " (above %s %" PRIu64 ")", ptk_meminfo_fields[f].name,
			   ptk_meminfo_get(m, f), ptk_meminfo_fields[t].name,
			   ptk_meminfo_get(m, t));
		ptk_snap_field_unmark(s, PTK_SNAP_G_MEMINFO, f);
	}
	if (ptk_snap_has(s, PTK_SNAP_LOADAVG) && s->la.nr_running > s->la.nr_threads) {
		impossible(a, "nr_running %u (above nr_threads %u)", s->la.nr_running,
			   s->la.nr_threads);
		ptk_snap_field_unmark(s, PTK_SNAP_G_LOADAVG, PTK_LA_NR_RUNNING);
	}
}

/* A value of a counters vector: negative is impossible (stored from a u64 of 2^63 or more,
 * or edited); the part the vector holds becomes unknown for this sample (a device left out
 * of one sample would count from zero in the next). */
static bool vec_ok(struct ptk_arc *a, s64 v, enum ptk_snap_part part, const char *what,
		   const char *field)
{
	if (v >= 0)
		return true;
	if (!(a->bad_parts & PTK_SNAP_BIT(part)))
		impossible(a, "%s %s %" PRId64 " (negative)", what, field, v);
	a->bad_parts |= PTK_SNAP_BIT(part);
	return false;
}

static int load_rows(struct ptk_arc *a, sqlite3_stmt *st, s64 id)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	return 0;
}

static int stat_slot(struct ptk_stat *st, int cpu)
{
	if (cpu >= st->cap) {
		int cap = cpu + 8;
		st->cpu = xrealloc(st->cpu, cap * sizeof(*st->cpu));
		st->present = xrealloc(st->present, cap * sizeof(*st->present));
		for (int i = st->cap; i < cap; i++)
			st->present[i] = false;
		st->cap = cap;
	}
	if (cpu >= st->ncpu) {
		for (int i = st->ncpu; i <= cpu; i++)
			st->present[i] = false;
		st->ncpu = cpu + 1;
	}
	return 0;
}

/* A dev or netif row by id, cached (the reader's dictionaries). NULL when absent. */
static const struct dict_ent *rdict_get(struct ptk_arc *a, bool dev, s64 id)
{
	struct dict *d = dev ? &a->rdevs : &a->rifs;
	sqlite3_stmt *st = dev ? a->sel_dev : a->sel_netif;
	const struct dict_ent *x = NULL;

	for (int i = 0; i < d->n; i++)
		if (d->e[i].id == id)
			return &d->e[i];
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		/* dev: major minor partition rotational nfields; netif: speed (NULL: -1) */
		struct dict_ent k = { id };
		s64 *f[] = { &k.a, &k.b, &k.c, &k.d, &k.e };
		snprintf(k.name, sizeof(k.name), "%s", name ? name : "?");
		for (int i = 0; i < (dev ? 5 : 1); i++)
			*f[i] = sqlite3_column_type(st, i + 1) == SQLITE_NULL && (!dev || i == 3) ?
					-1 :
					sqlite3_column_int64(st, i + 1);
		x = dict_add(d, &k);
	}
	sqlite3_reset(st);
	return x;
}

/* The keys of keyset id ("" when absent), cached. */
static const char *keyset_get(struct ptk_arc *a, s64 id)
{
	sqlite3_stmt *st = a->sel_keyset;

	if (a->keyset && a->keyset_id == id)
		return a->keyset;
	free(a->keyset);
	a->keyset = NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		a->keyset = xstrdup((const char *)sqlite3_column_text(st, 0));
		a->keyset_id = id;
	}
	sqlite3_reset(st);
	return a->keyset ? a->keyset : "";
}

/* A new zeroed element at the end of the array *pp of *n (room for *cap). */
static void *push(void *pp, int *n, int *cap, size_t size)
{
	void **p = pp;
	char *e;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*p = xrealloc(*p, *cap * size);
	}
	e = (char *)*p + (size_t)(*n)++ * size;
	memset(e, 0, size);
	return e;
}

/* A new, zeroed disk / interface entry of s, with its side values (rot, speed) unknown. */
static struct ptk_disk *disk_add(struct ptk_snap *s)
{
	struct ptk_disk *d = push(&s->ds.d, &s->ds.n, &s->ds.cap, sizeof(*d));

	ptk_snap_reserve(s);
	s->rot[s->ds.n - 1] = -1;
	return d;
}

static struct ptk_netdev *net_add(struct ptk_snap *s)
{
	struct ptk_netdev *d = push(&s->nd.d, &s->nd.n, &s->nd.cap, sizeof(*d));

	ptk_snap_reserve(s);
	s->speed[s->nd.n - 1] = -1;
	return d;
}

/* The net/snmp + netstat values of a sample: keyset's names, the blob's varints in order. */
static void load_snmp(struct ptk_arc *a, s64 keyset, const unsigned char *blob, size_t len,
		      struct ptk_snap *s)
{
	const char *p = keyset_get(a, keyset);
	size_t pos = 0;

	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t kl = sp ? (size_t)(sp - p) : strlen(p);
		s64 v;
		if (get_varint(blob, len, &pos, &v))
			break;
		struct ptk_kv *kv = push(&s->kvs.kv, &s->kvs.n, &s->kvs.cap, sizeof(*kv));
		snprintf(kv->key, sizeof(kv->key), "%.*s", (int)MIN(kl, 63), p);
		kv->val = v;
		p += kl;
		while (*p == ' ')
			p++;
	}
}

/* The ext row's values into a->ext: the keys of keyset id (cached apart from snmp's), the
 * blob's varints in order. */
static void load_ext(struct ptk_arc *a, s64 id, const unsigned char *blob, size_t len)
{
	sqlite3_stmt *st = a->sel_keyset;
	size_t pos = 0;

	ptk_xkvs_clear(&a->ext);
	if (!a->ext_keyset || a->ext_keyset_id != id) {
		free(a->ext_keyset);
		a->ext_keyset = NULL;
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
			a->ext_keyset = xstrdup((const char *)sqlite3_column_text(st, 0));
			a->ext_keyset_id = id;
		}
		sqlite3_reset(st);
	}
	for (const char *p = a->ext_keyset ? a->ext_keyset : ""; *p;) {
		size_t kl = strcspn(p, " ");
		char key[2048];
		s64 v;
		if (get_varint(blob, len, &pos, &v))
			break;
		snprintf(key, sizeof(key), "%.*s", (int)MIN(kl, sizeof(key) - 1), p);
		/* the kernel's counts of interrupts, softirqs and softnet are unsigned: a
		 * negative one makes its part unknown for this sample */
		enum ptk_snap_part part = !strncmp(key, "intr.", 5)    ? PTK_SNAP_INTERRUPTS :
					  !strncmp(key, "sirq.", 5)    ? PTK_SNAP_SOFTIRQS :
					  !strncmp(key, "softnet.", 8) ? PTK_SNAP_SOFTNET :
									 PTK_SNAP_NPARTS;
		if (part == PTK_SNAP_NPARTS || vec_ok(a, v, part, "ext", key))
			ptk_xkvs_add(&a->ext, key, v);
		p += kl;
		while (*p == ' ')
			p++;
	}
}

/*
 * Decode the counters row in st (cpu, disk, net, keyset, snmp) into s. Each vector holds
 * entries of (id, count n, n values), zigzag varints. A value past what this build knows
 * (a future kernel's extra column) is skipped; a truncated vector ends the decoding of that
 * vector. 0, or -EIO when a vector is malformed.
 */
static int load_counters(struct ptk_arc *a, sqlite3_stmt *st, struct ptk_snap *s)
{
	for (int vc = 0; vc < 3; vc++) {
		const unsigned char *p = sqlite3_column_blob(st, vc);
		size_t len = sqlite3_column_bytes(st, vc), pos = 0;
		s64 id, n, v;
		while (pos < len) {
			if (get_varint(p, len, &pos, &id) || get_varint(p, len, &pos, &n) ||
			    n < 0 || n > 1024)
				goto err_damaged;
			u64 *f = NULL;
			const struct ptk_field_desc *fd;
			char what[96];
			int nf = 0;
			if (vc == 0) {
				if (id < -1 || id > 65535)
					goto err_damaged;
				struct ptk_cpu_times *t = &s->st.all;
				if (id >= 0) {
					stat_slot(&s->st, (int)id);
					s->st.present[id] = true;
					t = &s->st.cpu[id];
				}
				memset(t, 0, sizeof(*t));
				f = t->t, nf = PTK_CPU_NSTATES, fd = ptk_cpu_fields;
				if (id < 0)
					snprintf(what, sizeof(what), "cpu");
				else
					snprintf(what, sizeof(what), "cpu%" PRId64, id);
			} else if (vc == 1) {
				const struct dict_ent *x = rdict_get(a, true, id);
				struct ptk_disk *d = disk_add(s);
				snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1,
					 x ? x->name : "?");
				d->major = x ? x->a : 0;
				d->minor = x ? x->b : 0;
				d->is_partition = x ? x->c : 0;
				d->nfields = MIN((int)n, PTK_DK_NFIELDS);
				s->rot[s->ds.n - 1] = x ? x->d : -1;
				f = d->f, nf = PTK_DK_NFIELDS, fd = ptk_disk_fields;
				snprintf(what, sizeof(what), "disk %s", d->name);
			} else {
				const struct dict_ent *x = rdict_get(a, false, id);
				struct ptk_netdev *d = net_add(s);
				snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1,
					 x ? x->name : "?");
				s->speed[s->nd.n - 1] = x ? x->a : -1;
				f = d->f, nf = PTK_ND_NFIELDS, fd = ptk_netdev_fields;
				snprintf(what, sizeof(what), "interface %s", d->name);
			}
			bool line_ok = true, unlisted = false;
			for (s64 k = 0; k < n; k++) {
				if (get_varint(p, len, &pos, &v))
					goto err_damaged;
				if (k >= nf)
					continue;
				f[k] = (u64)v;
				if (v >= 0 || !line_ok)
					continue;
				line_ok = false;
				if (vc == 0 && id >= 0) { /* one CPU's line: that CPU is unknown */
					impossible(a, "%s %s %" PRId64 " (negative)", what,
						   fd[k].name, v);
					s->st.present[id] = false;
					unlisted = true;
				} else {
					vec_ok(a, v,
					       vc == 0 ? PTK_SNAP_STAT :
					       vc == 1 ? PTK_SNAP_DISKSTATS :
							 PTK_SNAP_NETDEV,
					       what, fd[k].name);
				}
			}
			/* as /proc/stat leaves a CPU it does not list: zero times (the cpu rows'
			 * sum leaves it out, as an offline CPU) */
			if (unlisted)
				memset(f, 0, nf * sizeof(*f));
		}
	}
	if (sqlite3_column_type(st, 3) != SQLITE_NULL)
		load_snmp(a, sqlite3_column_int64(st, 3), sqlite3_column_blob(st, 4),
			  sqlite3_column_bytes(st, 4), s);
	return 0;
err_damaged:
	snprintf(a->err, sizeof(a->err), "archive damaged: malformed counters of sample %" PRId64,
		 s->id);
	return -EIO;
}

/* Step st (bound to the sample) through its rows; 0, or -EIO when the file is damaged. */
static int v1_done(struct ptk_arc *a, sqlite3_stmt *st, int rc)
{
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(a, "archive damaged");
}

/* Columns 2 .. n + 1 of a version 1 row into f[n]; the name after them ("?" when NULL) into
 * name[size] unless NULL. */
static void v1_row(sqlite3_stmt *st, u64 *f, int n, char *name, size_t size)
{
	for (int k = 0; k < n; k++)
		f[k] = (u64)sqlite3_column_int64(st, 2 + k);
	if (name) {
		const unsigned char *t = sqlite3_column_text(st, 2 + n);
		snprintf(name, size, "%s", t ? (const char *)t : "?");
	}
}

/* The counters of a version 1 archive: a row per CPU line, device and interface, and the
 * snmp row (docs/schema.md "Version 1"). 0 or -EIO. */
static int load_v1(struct ptk_arc *a, s64 id, struct ptk_snap *s)
{
	sqlite3_stmt *st = a->sel_cpu;
	int rc, err, c;

	load_rows(a, st, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_count(st) >= 2) {
		struct ptk_cpu_times *t = &s->st.all;
		if ((c = sqlite3_column_int(st, 1)) < -1 || c > 65535)
			continue;
		if (c >= 0) {
			stat_slot(&s->st, c);
			s->st.present[c] = true;
			t = &s->st.cpu[c];
		}
		v1_row(st, t->t, PTK_CPU_NSTATES, NULL, 0);
	}
	if ((err = v1_done(a, st, rc)))
		return err;

	st = a->sel_disk;
	load_rows(a, st, id);
	c = 2 + PTK_DK_NFIELDS; /* then name, major, minor, partition, rotational, nfields */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_count(st) > 1) {
		struct ptk_disk *d = disk_add(s);
		v1_row(st, d->f, PTK_DK_NFIELDS, d->name, sizeof(d->name));
		d->major = sqlite3_column_int(st, c + 1);
		d->minor = sqlite3_column_int(st, c + 2);
		d->is_partition = sqlite3_column_int(st, c + 3);
		if (sqlite3_column_type(st, c + 4) != SQLITE_NULL)
			s->rot[s->ds.n - 1] = sqlite3_column_int(st, c + 4);
		d->nfields = sqlite3_column_int(st, c + 5);
		if (d->nfields < 0 || d->nfields > PTK_DK_NFIELDS)
			d->nfields = PTK_DK_NFIELDS;
	}
	if ((err = v1_done(a, st, rc)))
		return err;

	st = a->sel_net;
	load_rows(a, st, id);
	c = 2 + PTK_ND_NFIELDS; /* then name, speed */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_count(st) > 1) {
		struct ptk_netdev *d = net_add(s);
		v1_row(st, d->f, PTK_ND_NFIELDS, d->name, sizeof(d->name));
		if (sqlite3_column_type(st, c + 1) != SQLITE_NULL)
			s->speed[s->nd.n - 1] = sqlite3_column_int64(st, c + 1);
	}
	if ((err = v1_done(a, st, rc)))
		return err;

	st = a->sel_snmp;
	load_rows(a, st, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_count(st) == 2) {
		load_snmp(a, sqlite3_column_int64(st, 0), sqlite3_column_blob(st, 1),
			  sqlite3_column_bytes(st, 1), s);
		rc = SQLITE_DONE;
	}
	return v1_done(a, st, rc == SQLITE_ROW ? SQLITE_DONE : rc);
}

static const char *cgpath_get(struct ptk_arc *a, s64 id);

int ptk_arc_load(struct ptk_arc *a, s64 id, bool procs, struct ptk_snap *s)
{
	sqlite3_stmt *st = a->sel_sample;
	int rc;

	s->id = id;
	s->read = 0;
	s->has_la = s->has_mi = s->has_vm = false;
	memset(s->has_psi, 0, sizeof(s->has_psi));
	memset(s->psi, 0, sizeof(s->psi));
	memset(&s->up, 0, sizeof(s->up));
	memset(&s->la, 0, sizeof(s->la));
	memset(&s->mi, 0, sizeof(s->mi));
	memset(&s->vm, 0, sizeof(s->vm));
	for (int i = 0; i < PTK_ST_NFIELDS; i++)
		*(u64 *)((char *)&s->st + ptk_stat_fields[i].off) = 0;
	s->st.has = 0;
	load_rows(a, st, id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			return -ENOENT;
		return db_fail(a, "archive damaged");
	}
	s->t_ms = sqlite3_column_int64(st, 0);
	a->impossible[0] = '\0';
	a->bad_parts = 0;
	int bad[NCOL_MAX], nbad = 0;
	for (int i = 0; i < sample_cols(); i++) {
		int c = a->sel_col[i]; /* <= 0: a column the file lacks, NULL */
		if (c <= 0)
			continue;
		int type = sqlite3_column_type(st, c);
		s64 v = sqlite3_column_int64(st, c);
		double x = sqlite3_column_double(st, c);
		/* a REAL: what the CLI makes of an integer past 2^63, or an edit */
		const char *why = type == SQLITE_INTEGER ? col_why(&cols[i], v) :
				  type == SQLITE_NULL	 ? NULL :
				  type == SQLITE_FLOAT && fabs(x) >= 9223372036854775808.0 ?
							"beyond 2^63" :
							"not an integer";
		if (!why) {
			if (type != SQLITE_NULL)
				col_put(s, &cols[i], v);
			continue;
		}
		impossible(a, "%s %.40s (%s)", cols[i].name,
			   (const char *)sqlite3_column_text(st, c), why);
		bad[nbad++] = i;
	}
	sqlite3_reset(st);
	/* after the row: the other fields of a line or file may have marked it held */
	for (int i = 0; i < nbad; i++)
		if (!col_is_flag(&cols[bad[i]]))
			ptk_snap_field_unmark(s, cols[bad[i]].g, cols[bad[i]].f);
	check_totals(a, s);
	if (nbad || a->impossible[0])
		ptk_meminfo_estimate(&s->mi); /* an estimate follows the fields that are left */
	s->st.ncpu = 0;
	s->ds.n = s->nd.n = s->kvs.n = 0;
	/* the extended parts: none unless the ext row has them */
	{
		struct ptk_xkvs none = { 0 };
		ptk_snap_ext_get(s, &none);
	}
	if (a->ver == 1) {
		int r = load_v1(a, id, s);
		if (r)
			return r;
		goto procs;
	}
	st = a->sel_counters;
	load_rows(a, st, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int r = load_counters(a, st, s);
		if (r) {
			sqlite3_reset(st);
			return r;
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(a, "archive damaged");
	if ((st = a->sel_ext)) {
		load_rows(a, st, id);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			load_ext(a, sqlite3_column_int64(st, 0), sqlite3_column_blob(st, 1),
				 sqlite3_column_bytes(st, 1));
			ptk_snap_ext_get(s, &a->ext);
			rc = SQLITE_DONE;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return db_fail(a, "archive damaged");
	}
procs:
	/* the tables of a stored sample are known (maybe empty); the levels when recorded */
	s->read |= PTK_SNAP_BIT(PTK_SNAP_STAT) | PTK_SNAP_BIT(PTK_SNAP_DISKSTATS) |
		   PTK_SNAP_BIT(PTK_SNAP_NETDEV) | PTK_SNAP_BIT(PTK_SNAP_SNMP);
	s->read &= ~a->bad_parts; /* vectors with an impossible value: unknown, as unread */
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_STAT))
		memset(&s->st.all, 0, sizeof(s->st.all));
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_DISKSTATS))
		s->ds.n = 0;
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_NETDEV))
		s->nd.n = 0;
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_INTERRUPTS))
		s->intr.n = s->intr.ncpu = 0;
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS))
		s->sirq.n = s->sirq.ncpu = 0;
	if (a->bad_parts & PTK_SNAP_BIT(PTK_SNAP_SOFTNET))
		s->sn.ncpu = 0;
	s->has_la = ptk_snap_has(s, PTK_SNAP_LOADAVG);
	s->has_mi = ptk_snap_has(s, PTK_SNAP_MEMINFO);
	s->has_vm = ptk_snap_has(s, PTK_SNAP_VMSTAT);
	for (int r = 0; r < PTK_PSI_NRES; r++)
		s->has_psi[r] = ptk_snap_has(s, PTK_SNAP_PSI_CPU + r);
	s->nproc = 0;
	if (!procs)
		return 0;
	st = a->sel_proc;
	load_rows(a, st, id);
	/* p.* then the five task columns: version 5's proc has cgroup after wchan */
	bool has_cg = sqlite3_column_count(st) >= 23 + 5;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ptk_task *t = push(&s->procs, &s->nproc, &s->pcap, sizeof(*t));
		int k = 2;
		t->state = (char)sqlite3_column_int(st, k++);
		t->ppid = sqlite3_column_int(st, k++);
		t->nthreads = sqlite3_column_int64(st, k++);
		t->priority = sqlite3_column_int64(st, k++);
		t->nice = sqlite3_column_int64(st, k++);
		t->processor = sqlite3_column_int(st, k++);
		t->utime = sqlite3_column_int64(st, k++);
		t->stime = sqlite3_column_int64(st, k++);
		t->gtime = sqlite3_column_int64(st, k++);
		t->minflt = sqlite3_column_int64(st, k++);
		t->majflt = sqlite3_column_int64(st, k++);
		t->blkio_ticks = sqlite3_column_int64(st, k++);
		t->vsize = sqlite3_column_int64(st, k++);
		t->rss_pages = sqlite3_column_int64(st, k++);
		t->io_ok = sqlite3_column_type(st, k) != SQLITE_NULL;
		t->rchar = sqlite3_column_int64(st, k++);
		t->wchar = sqlite3_column_int64(st, k++);
		t->read_bytes = sqlite3_column_int64(st, k++);
		t->write_bytes = sqlite3_column_int64(st, k++);
		t->cancelled_write_bytes = sqlite3_column_int64(st, k++);
		if (sqlite3_column_text(st, k))
			snprintf(t->wchan, sizeof(t->wchan), "%s", sqlite3_column_text(st, k));
		k++;
		t->cgroup[0] = '\0';
		if (has_cg) {
			const char *cg = sqlite3_column_type(st, k) == SQLITE_INTEGER ?
						 cgpath_get(a, sqlite3_column_int64(st, k)) :
						 NULL;
			if (cg)
				snprintf(t->cgroup, sizeof(t->cgroup), "%s", cg);
			k++;
		}
		t->pid = t->tgid = sqlite3_column_int(st, k++);
		t->starttime = sqlite3_column_int64(st, k++);
		if (sqlite3_column_text(st, k))
			snprintf(t->comm, sizeof(t->comm), "%s", sqlite3_column_text(st, k));
		k++;
		if (sqlite3_column_text(st, k))
			snprintf(t->cmdline, sizeof(t->cmdline), "%s", sqlite3_column_text(st, k));
		k++;
		t->owner_ok = sqlite3_column_type(st, k) != SQLITE_NULL;
		t->euid = t->uid = sqlite3_column_int(st, k);
		if (t->pid <= 0)
			s->nproc--;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(a, "archive damaged");
	return 0;
}

/* The path of cgpath row id (the table read again on a miss: paths recorded since), NULL. */
static const char *cgpath_get(struct ptk_arc *a, s64 id)
{
	sqlite3_stmt *st = a->sel_cgpath;

	if (id > 0 && id < a->ncgr && a->cgr[id])
		return a->cgr[id];
	if (!st || id <= 0 || id > (1 << 24))
		return NULL;
	sqlite3_reset(st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		s64 k = sqlite3_column_int64(st, 0);
		const char *p = (const char *)sqlite3_column_text(st, 1);
		if (k <= 0 || k > (1 << 24) || !p ||
		    strlen(p) >= sizeof(((struct ptk_cgroup *)0)->path))
			continue;
		if (k >= a->ncgr) {
			int n = (int)k + 64;
			a->cgr = xrealloc(a->cgr, n * sizeof(*a->cgr));
			memset(a->cgr + a->ncgr, 0, (n - a->ncgr) * sizeof(*a->cgr));
			a->ncgr = n;
		}
		if (!a->cgr[k])
			a->cgr[k] = xstrdup(p);
	}
	sqlite3_reset(st);
	return id < a->ncgr ? a->cgr[id] : NULL;
}

static int cmp_cgpath(const void *key, const void *y)
{
	return strcmp(key, ((const struct ptk_cgroup *)y)->path);
}

/* Parse one cgroup of a cgroups vector into c. 0 or -EINVAL (damaged). */
static int load_one_cg(struct ptk_arc *a, const unsigned char *p, size_t len, size_t *pos,
		       struct ptk_cgroup *c)
{
	s64 id, ctrl, has, m, x, hio, nio;
	const char *path;

	if (get_varint(p, len, pos, &id) || get_varint(p, len, pos, &ctrl) ||
	    get_varint(p, len, pos, &has) || !(path = cgpath_get(a, id)))
		return -EINVAL;
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->ctrl = (unsigned)ctrl;
	c->has = (u64)has & ((1ull << PTK_CGV_N) - 1);
	for (int k = 0; k < PTK_CGV_N; k++)
		if (ptk_cg_has(c, k)) {
			if (get_varint(p, len, pos, &x))
				return -EINVAL;
			c->v[k] = (u64)x;
		}
	if (get_varint(p, len, pos, &m))
		return -EINVAL;
	for (int b = 0; b < 2 * PTK_PSI_NRES; b++) {
		struct ptk_psi_line *l = b & 1 ? &c->psi[b / 2].full : &c->psi[b / 2].some;
		s64 v[4];
		if (!(m & (1 << b)))
			continue;
		for (int k = 0; k < 4; k++)
			if (get_varint(p, len, pos, &v[k]))
				return -EINVAL;
		*l = (struct ptk_psi_line){ true, v[0] / 100.0, v[1] / 100.0, v[2] / 100.0,
					    (u64)v[3] };
		c->has_psi[b / 2] = true;
	}
	if (get_varint(p, len, pos, &hio) || get_varint(p, len, pos, &nio) || nio < 0 || nio > 4096)
		return -EINVAL;
	c->has_io = hio != 0;
	c->io = nio ? xcalloc(nio, sizeof(*c->io)) : NULL;
	c->nio = (int)nio;
	for (int k = 0; k < nio; k++) {
		s64 v[6];
		for (int j = 0; j < 6; j++)
			if (get_varint(p, len, pos, &v[j]))
				return -EINVAL;
		c->io[k] = (struct ptk_cg_io){ (unsigned)v[0], (unsigned)v[1], (u64)v[2],
					       (u64)v[3],      (u64)v[4],      (u64)v[5] };
	}
	return 0;
}

int ptk_arc_load_cg(struct ptk_arc *a, s64 id, struct ptk_cgsnap *cg)
{
	sqlite3_stmt *st = a->sel_cg;
	int rc, r = 0;

	for (int i = 0; i < cg->cap; i++) {
		free(cg->cg[i].io);
		cg->cg[i].io = NULL;
	}
	cg->n = 0;
	cg->layout = PTK_CG_NONE;
	cg->err = 0;
	cg->nhier = 0;
	if (!st)
		return -ENOENT;
	load_rows(a, st, id);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc == SQLITE_DONE ? -ENOENT : db_fail(a, "archive damaged");
	}
	int layout = sqlite3_column_int(st, 0);
	s64 n = sqlite3_column_int64(st, 2);
	const unsigned char *p = sqlite3_column_blob(st, 3);
	size_t len = sqlite3_column_bytes(st, 3), pos = 0;
	cg->layout = layout >= PTK_CG_NONE && layout <= PTK_CG_V2 ? layout : PTK_CG_NONE;
	cg->up_s = sqlite3_column_int64(st, 1) / 100.0;
	cg->nhier = 1;
	for (s64 i = 0; i < n && i < PTK_CG_MAX_GROUPS && pos < len; i++) {
		if (cg->n == cg->cap) {
			int old = cg->cap;
			cg->cap = cg->cap ? cg->cap * 2 : 64;
			cg->cg = xrealloc(cg->cg, cg->cap * sizeof(*cg->cg));
			memset(cg->cg + old, 0, (cg->cap - old) * sizeof(*cg->cg));
		}
		struct ptk_cgroup *c = &cg->cg[cg->n];
		memset(c, 0, sizeof(*c));
		if (load_one_cg(a, p, len, &pos, c)) {
			free(c->io);
			c->io = NULL;
			impossible(a, "cgroups of sample %" PRId64 " cut short (damaged)", id);
			break;
		}
		cg->n++;
	}
	sqlite3_reset(st);
	/* depth and parent from the paths (stored in path order: a parent before its children) */
	for (int i = 0; i < cg->n; i++) {
		struct ptk_cgroup *c = &cg->cg[i];
		char up[256];
		c->depth = 0;
		for (const char *q = c->path; *q; q++)
			c->depth += *q == '/' && q[1];
		c->parent = -1;
		if (!strcmp(c->path, "/"))
			continue;
		snprintf(up, sizeof(up), "%s", c->path);
		char *slash = strrchr(up, '/');
		if (!slash)
			continue;
		slash[slash == up] = '\0';
		const struct ptk_cgroup *e = bsearch(up, cg->cg, i, sizeof(*c), cmp_cgpath);
		if (e)
			c->parent = (int)(e - cg->cg);
	}
	return r;
}

/* A value or "max" (PTK_CG_MAX: no limit). */
static void cg_limit(struct ptk_strbuf *b, u64 v)
{
	if (v == PTK_CG_MAX)
		ptk_strbuf_addf(b, "max\n");
	else
		ptk_strbuf_addf(b, "%" PRIu64 "\n", v);
}

/* b into DIR/sys/fs/cgroup/PATH/NAME when it holds something (always). 0 or -errno. */
static int cg_file(struct ptk_strbuf *b, const char *dir, const char *path, const char *name,
		   bool always)
{
	char rel[PATH_MAX];

	if (!b->len && !always)
		return 0;
	if (snprintf(rel, sizeof(rel), "sys/fs/cgroup%s/%s", strcmp(path, "/") ? path : "", name) >=
	    (int)sizeof(rel))
		return -ENAMETOOLONG;
	return ptk_strbuf_write(b, dir, rel);
}

/* The keyed lines "KEY N" of the values of c in keys[] (NULL-terminated with vals[]). */
static void cg_keyed(struct ptk_strbuf *b, const struct ptk_cgroup *c, const char *const *keys,
		     const int *vals, u64 div)
{
	for (int k = 0; keys[k]; k++)
		if (ptk_cg_has(c, vals[k]))
			ptk_strbuf_addf(b, "%s %" PRIu64 "\n", keys[k], c->v[vals[k]] / div);
}

/*
 * The cgroups of a loaded sample as a cgroup v2 tree under dir/sys/fs/cgroup: the files the
 * cgroup source reads (source/cgroup/cgroup.c cg_files), with only the values held, every
 * controller enabled. 0 or -errno.
 */
static int write_cg_tree(const struct ptk_cgsnap *cg, const char *dir)
{
	static const char ctl[] = "cpu io memory pids\n";
	static const char *const cpu_k[] = { "usage_usec", "user_usec",	   "system_usec",
					     "nr_periods", "nr_throttled", "throttled_usec",
					     NULL };
	static const int cpu_v[] = { PTK_CGV_CPU_USAGE_NS,  PTK_CGV_CPU_USER_NS,
				     PTK_CGV_CPU_SYSTEM_NS, PTK_CGV_CPU_PERIODS,
				     PTK_CGV_CPU_THROTTLED, PTK_CGV_CPU_THROTTLED_NS };
	static const char *const ev_k[] = { "low", "high", "max", "oom", "oom_kill", NULL };
	static const int ev_v[] = { PTK_CGV_MEM_EV_LOW, PTK_CGV_MEM_EV_HIGH, PTK_CGV_MEM_EV_MAX,
				    PTK_CGV_MEM_EV_OOM, PTK_CGV_MEM_EV_OOM_KILL };
	static const char *const st_k[] = { "anon",	   "file",    "inactive_file",
					    "active_file", "pgfault", "pgmajfault",
					    NULL };
	static const int st_v[] = { PTK_CGV_MEM_ANON,	       PTK_CGV_MEM_FILE,
				    PTK_CGV_MEM_INACTIVE_FILE, PTK_CGV_MEM_ACTIVE_FILE,
				    PTK_CGV_MEM_PGFAULT,       PTK_CGV_MEM_PGMAJFAULT };
	static const struct {
		const char *name;
		int v;
		bool limit;
	} one[] = {
		{ "memory.current", PTK_CGV_MEM_CURRENT, false },
		{ "memory.max", PTK_CGV_MEM_MAX, true },
		{ "memory.high", PTK_CGV_MEM_HIGH, true },
		{ "memory.low", PTK_CGV_MEM_LOW, true },
		{ "memory.peak", PTK_CGV_MEM_PEAK, false },
		{ "memory.swap.current", PTK_CGV_MEM_SWAP, false },
		{ "pids.current", PTK_CGV_PIDS_CURRENT, false },
		{ "pids.max", PTK_CGV_PIDS_MAX, true },
	};
	struct ptk_strbuf b = { 0 };
	int r = 0;

	for (int i = 0; i < cg->n && !r; i++) {
		const struct ptk_cgroup *c = &cg->cg[i];
		const char *p = c->path;
		if (!strcmp(p, "/")) {
			ptk_strbuf_addf(&b, "%s", ctl);
			r = cg_file(&b, dir, p, "cgroup.controllers", true);
		}
		ptk_strbuf_addf(&b, "%s", ctl);
		r = r ?: cg_file(&b, dir, p, "cgroup.subtree_control", true);
		/* usage and throttled time in microseconds, the periods as counts */
		for (int k = 0; cpu_k[k]; k++)
			if (ptk_cg_has(c, cpu_v[k]))
				ptk_strbuf_addf(
					&b, "%s %" PRIu64 "\n", cpu_k[k],
					c->v[cpu_v[k]] /
						(cpu_v[k] == PTK_CGV_CPU_PERIODS ||
								 cpu_v[k] == PTK_CGV_CPU_THROTTLED ?
							 1 :
							 1000));
		r = r ?: cg_file(&b, dir, p, "cpu.stat", false);
		if (ptk_cg_has(c, PTK_CGV_CPU_QUOTA_US)) {
			u64 q = c->v[PTK_CGV_CPU_QUOTA_US];
			if (q == PTK_CG_MAX)
				ptk_strbuf_addf(&b, "max");
			else
				ptk_strbuf_addf(&b, "%" PRIu64, q);
			if (ptk_cg_has(c, PTK_CGV_CPU_PERIOD_US))
				ptk_strbuf_addf(&b, " %" PRIu64, c->v[PTK_CGV_CPU_PERIOD_US]);
			ptk_strbuf_addf(&b, "\n");
			r = r ?: cg_file(&b, dir, p, "cpu.max", false);
		}
		for (size_t k = 0; k < ARRAY_SIZE(one) && !r; k++) {
			if (!ptk_cg_has(c, one[k].v))
				continue;
			if (one[k].limit)
				cg_limit(&b, c->v[one[k].v]);
			else
				ptk_strbuf_addf(&b, "%" PRIu64 "\n", c->v[one[k].v]);
			r = cg_file(&b, dir, p, one[k].name, false);
		}
		cg_keyed(&b, c, ev_k, ev_v, 1);
		r = r ?: cg_file(&b, dir, p, "memory.events", false);
		cg_keyed(&b, c, st_k, st_v, 1);
		r = r ?: cg_file(&b, dir, p, "memory.stat", false);
		for (int k = 0; c->has_io && k < c->nio; k++) {
			const struct ptk_cg_io *d = &c->io[k];
			ptk_strbuf_addf(&b,
					"%u:%u rbytes=%" PRIu64 " wbytes=%" PRIu64 " rios=%" PRIu64
					" wios=%" PRIu64 " dbytes=0 dios=0\n",
					d->major, d->minor, d->rbytes, d->wbytes, d->rios, d->wios);
		}
		if (c->has_io)
			r = r ?: cg_file(&b, dir, p, "io.stat", true);
		for (int res = 0; res < PTK_PSI_NRES && !r; res++) {
			char name[32];
			if (!c->has_psi[res])
				continue;
			for (int f = 0; f < 2; f++) {
				const struct ptk_psi_line *l =
					f ? &c->psi[res].full : &c->psi[res].some;
				if (l->present)
					ptk_strbuf_addf(&b,
							"%s avg10=%.2f avg60=%.2f avg300=%.2f "
							"total=%" PRIu64 "\n",
							f ? "full" : "some", l->avg10, l->avg60,
							l->avg300, l->total_us);
			}
			snprintf(name, sizeof(name), "%s.pressure", ptk_psi_res_name[res]);
			r = cg_file(&b, dir, p, name, true);
		}
		b.len = 0;
	}
	free(b.p);
	return r;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

void ptk_arc_rmtree(const char *dir)
{
	if (dir && *dir)
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int ptk_arc_snapshot_tree(struct ptk_arc *a, const struct ptk_arc_index *idx, int first, int last,
			  char *dir, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	struct ptk_snap s = { 0 };
	struct ptk_cgsnap cg = { 0 };
	int n = 0, r = 0, nbad = 0;
	char first_bad[sizeof(a->impossible) + 128] = "";

	snprintf(dir, size, "%s/ptk-at.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -errno;
	for (int i = MAX(first, 0); i <= last && i < idx->n; i++) {
		char sub[PATH_MAX];
		if (ptk_arc_load(a, idx->id[i], true, &s))
			continue; /* damaged: skipped */
		if (a->impossible[0] && !nbad++) {
			char t[40];
			ptk_arc_fmt_time(s.t_ms, true, true, t, sizeof(t));
			snprintf(first_bad, sizeof(first_bad), "sample %" PRId64 " at %.40s: %s",
				 s.id, t, a->impossible);
		}
		snprintf(sub, sizeof(sub), "%s/%d", dir, n);
		if ((r = ptk_snap_write_tree(&s, sub)))
			break;
		if (ptk_arc_load_cg(a, idx->id[i], &cg) == 0 && (r = write_cg_tree(&cg, sub)))
			break;
		/* the recorded processes' cgroups as their /proc/PID/cgroup (v2 line) */
		for (int k = 0; k < s.nproc && !r; k++) {
			struct ptk_strbuf b = { 0 };
			char rel[64];
			if (!s.procs[k].cgroup[0])
				continue;
			ptk_strbuf_addf(&b, "0::%s\n", s.procs[k].cgroup);
			snprintf(rel, sizeof(rel), "%d/cgroup", s.procs[k].pid);
			r = ptk_strbuf_write(&b, sub, rel);
			free(b.p);
		}
		if (r)
			break;
		n++;
	}
	ptk_snap_free(&s);
	ptk_cg_free(&cg);
	if (r) {
		ptk_arc_rmtree(dir);
		return r;
	}
	a->impossible[0] = '\0';
	if (nbad)
		snprintf(a->impossible, sizeof(a->impossible), "%.480s%s", first_bad,
			 nbad > 1 ? " (and more samples)" : "");
	return n;
}

/* ---- time --------------------------------------------------------------------------------- */

int ptk_arc_parse_time(const char *s, bool utc, s64 ref_ms, s64 *out_ms)
{
	struct tm tm = { 0 };
	const char *p;
	time_t t;
	double v;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "now")) {
		*out_ms = ptk_snap_now_ms();
		return 0;
	}
	if (s[0] == '@')
		return ptk_parse_double(s + 1, &v) ? -EINVAL : (*out_ms = llround(v * 1000), 0);
	if (s[0] == '-' && strlen(s) >= 2) {
		char unit = s[strlen(s) - 1], num[32];
		double mul = unit == 's' ? 1 :
			     unit == 'm' ? 60 :
			     unit == 'h' ? 3600 :
			     unit == 'd' ? 86400 :
					   0;
		snprintf(num, sizeof(num), "%.*s", (int)strlen(s) - 2, s + 1);
		if (!mul || ptk_parse_double(num, &v) || v < 0)
			return -EINVAL;
		*out_ms = ptk_snap_now_ms() - llround(v * mul * 1000);
		return 0;
	}
	tm.tm_isdst = -1;
	if ((p = strptime(s, "%Y-%m-%d", &tm)) && (*p == ' ' || *p == 'T')) {
		const char *q = strptime(p + 1, "%H:%M:%S", &tm);
		if (!q)
			q = strptime(p + 1, "%H:%M", &tm);
		p = q;
	} else if (p && !*p) {
		/* a date alone: midnight */
	} else {
		/* a time of day */
		time_t base =
			ref_ms > 0 ? (time_t)(ref_ms / 1000) : (time_t)(ptk_snap_now_ms() / 1000);
		int h, m, sec = 0;
		char extra;
		if (sscanf(s, "%d:%d:%d%c", &h, &m, &sec, &extra) < 2 ||
		    sscanf(s, "%d:%d:%d%c", &h, &m, &sec, &extra) == 4 || h < 0 || h > 23 ||
		    m < 0 || m > 59 || sec < 0 || sec > 60)
			return -EINVAL;
		if (utc)
			gmtime_r(&base, &tm);
		else
			localtime_r(&base, &tm);
		tm.tm_hour = h, tm.tm_min = m, tm.tm_sec = sec;
		tm.tm_isdst = -1;
		p = "";
	}
	if (!p)
		return -EINVAL;
	long off = 0;
	bool zone = false;
	if (*p == 'Z') {
		zone = true;
		p++;
	} else if (*p == '+' || *p == '-') {
		int hh, mm = 0;
		if (sscanf(p + 1, "%2d:%2d", &hh, &mm) < 1)
			return -EINVAL;
		off = (hh * 3600L + mm * 60L) * (*p == '-' ? -1 : 1);
		zone = true;
		p += strlen(p);
	}
	if (*p)
		return -EINVAL;
	t = (utc || zone) ? timegm(&tm) - off : mktime(&tm);
	if (t == (time_t)-1)
		return -EINVAL;
	*out_ms = (s64)t * 1000;
	return 0;
}

void ptk_arc_fmt_time(s64 t_ms, bool utc, bool iso, char *buf, size_t size)
{
	time_t t = (time_t)(t_ms >= 0 ? t_ms / 1000 : (t_ms - 999) / 1000);
	struct tm tm;

	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	if (!iso) {
		strftime(buf, size, "%H:%M:%S", &tm);
		return;
	}
	if (utc) {
		strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	} else {
		char z[8];
		strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
		strftime(z, sizeof(z), "%z", &tm); /* +0200 -> +02:00 */
		size_t l = strlen(buf);
		if (strlen(z) == 5)
			snprintf(buf + l, size - l, "%.3s:%s", z, z + 3);
	}
}

int ptk_arc_at(const char *db, const char *at, bool utc, int before, double span_s, int shift,
	       char *dir, size_t size, s64 *t_ms, char *err, size_t errsize)
{
	struct ptk_arc_index idx = { 0 };
	char e[PATH_MAX + 256];
	struct ptk_arc *a;
	s64 t;
	int k, last, n;

	if (!db)
		db = PTK_ARC_DEFAULT_DB;
	if (!(a = ptk_arc_open(db, PTK_ARC_RDONLY, e, sizeof(e)))) {
		snprintf(err, errsize, "%s", e);
		return -ENOENT;
	}
	if (ptk_arc_list(a, INT64_MIN, INT64_MAX, &idx) < 0 || idx.n == 0) {
		snprintf(err, errsize, "%s: no readable sample (%s)", db,
			 idx.damaged ? ptk_arc_errmsg(a) : "empty archive");
		n = -ENODATA;
		goto out_close;
	}
	if (ptk_arc_parse_time(at, utc, idx.t_ms[idx.n - 1], &t)) {
		snprintf(err, errsize,
			 "invalid time '%s' (YYYY-MM-DD HH:MM[:SS], ISO 8601, "
			 "HH:MM[:SS], @EPOCH, -30m)",
			 at);
		n = -EINVAL;
		goto out_close;
	}
	/* the first sample with `before` baselines, then the shift: a step always moves */
	k = MAX(ptk_arc_nearest(&idx, t), MIN(before, idx.n - 1)) + shift;
	k = MAX(k, MIN(before, idx.n - 1));
	k = MIN(k, idx.n - 1);
	last = k;
	while (span_s > 0 && last + 1 < idx.n &&
	       idx.t_ms[last + 1] <= idx.t_ms[k] + llround(span_s * 1000) + 500)
		last++;
	if (t_ms)
		*t_ms = idx.t_ms[k];
	n = ptk_arc_snapshot_tree(a, &idx, k - before, last, dir, size);
	err[0] = '\0';
	if (n >= 2 && a->impossible[0])
		snprintf(err, errsize, "%s: impossible values shown as unknown: %s", db,
			 a->impossible);
	if (n < 0)
		snprintf(err, errsize, "cannot write snapshots: %s", strerror(-n));
	else if (n < 2)
		snprintf(err, errsize, "%s: fewer than 2 readable samples around %s", db, at);
out_close:
	ptk_arc_index_free(&idx);
	ptk_arc_close(a);
	return n;
}
