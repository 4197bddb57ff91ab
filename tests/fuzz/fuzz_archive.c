// SPDX-License-Identifier: GPL-2.0
/*
 * The archive loader (ptk sar --db, top --at, check --at). The first byte picks the input:
 *  even: one sample of a valid archive, edited: sample columns set to integers, reals, text
 *        or NULL, and the counters vectors (cpu, disk, net, snmp) and the snmp keyset
 *        replaced by the fuzzer's bytes;
 *  odd:  the whole database file (damaged pages, truncation, a foreign file).
 * Invariants of what loads: no value the kernel cannot have written is held (u64 fields below
 * 2^63, meminfo parts within their totals, PSI averages within 0..100, nr_running within
 * nr_threads, CPU slots bounded), an impossible integer column is named, names are
 * terminated, the activities give finite values, and the snapshot written back as a /proc
 * tree reads back with the same fields.
 */
#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "model/activity.h"
#include "output/archive.h"
#include "source/root.h"

static char dir[64], tmpl[96], work[96], raw[96];
static char cols[128][64]; /* the sample table's columns after id and t_ms */
static int ncols;

static void put_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void copy_file(const char *from, const char *to)
{
	size_t n;
	char *p = ptk_slurp(from, &n);

	if (!p)
		abort();
	put_file(to, p, n);
	free(p);
}

/* The template: one recorded sample of a small made-up machine, one disk and interface. */
static void make_template(void)
{
	static const char *const files[][2] = {
		{ "uptime", "1000.50 1900.25\n" },
		{ "stat", "cpu  100 2 30 400 5 6 7 8 0 0\ncpu0 50 1 15 200 2 3 3 4 0 0\n"
			  "cpu1 50 1 15 200 3 3 4 4 0 0\nintr 999 1 2\nctxt 5000\n"
			  "btime 1700000000\nprocesses 300\nprocs_running 2\nprocs_blocked 0\n" },
		{ "loadavg", "0.50 0.40 0.30 2/120 4000\n" },
		{ "meminfo", "MemTotal: 1000000 kB\nMemFree: 500000 kB\nMemAvailable: 700000 kB\n"
			     "Buffers: 10000 kB\nCached: 200000 kB\nSwapTotal: 1000 kB\n"
			     "SwapFree: 900 kB\nSlab: 5000 kB\nSReclaimable: 3000 kB\n"
			     "Committed_AS: 300000 kB\nHugePages_Total: 4\nHugePages_Free: 2\n" },
		{ "vmstat", "pgpgin 100\npgpgout 200\npgfault 3000\npgmajfault 4\npgfree 5000\n" },
		{ "diskstats", "   8       0 sda 10 1 80 5 20 2 160 9 0 12 14 0 0 0 0 0 0\n" },
		{ "net/dev",
		  "Inter-|   Receive                                                |  Transmit\n"
		  " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
		  "packets errs drop fifo colls carrier compressed\n"
		  "  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n" },
		{ "net/snmp", "Tcp: RtoAlgorithm ActiveOpens MaxConn\nTcp: 1 5 -1\n" },
		{ "pressure/cpu", "some avg10=1.00 avg60=2.00 avg300=3.00 total=12345\n" },
	};
	char path[160], err[256];
	struct ptk_src src;
	struct ptk_snap s = { 0 };
	struct ptk_arc *a;
	sqlite3 *db;
	sqlite3_stmt *st;

	snprintf(path, sizeof(path), "%s/tree/net", dir);
	ptk_mkdir_p(path, 0755);
	snprintf(path, sizeof(path), "%s/tree/pressure", dir);
	ptk_mkdir_p(path, 0755);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/tree/%s", dir, files[i][0]);
		put_file(path, files[i][1], strlen(files[i][1]));
	}
	snprintf(path, sizeof(path), "%s/tree", dir);
	if (ptk_src_init(&src, path, NULL) || ptk_snap_read(&src, &s, PTK_SNAP_ALL))
		abort();
	if (!(a = ptk_arc_open(tmpl, PTK_ARC_RDWR, err, sizeof(err))))
		abort();
	if (ptk_arc_write(a, &s, 0, NULL, 0))
		abort();
	ptk_arc_close(a);
	ptk_snap_free(&s);
	/* no WAL: the reader opens the copies immutable, and nothing is left beside them */
	if (sqlite3_open(tmpl, &db) ||
	    sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL))
		abort();
	if (sqlite3_prepare_v2(db, "PRAGMA table_info(sample)", -1, &st, NULL))
		abort();
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 1);
		if (strcmp(n, "id") && strcmp(n, "t_ms") && ncols < 128)
			snprintf(cols[ncols++], sizeof(cols[0]), "%s", n);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * Apply the edits: n = data[0] column edits of 10 bytes (column, kind, 8 value bytes), then
 * the four vectors and the keyset, each a 2-byte length and its bytes. neg[c]: column c was
 * set to a negative integer last (the loader must name it).
 */
static void edit(const uint8_t *data, size_t size, bool *neg)
{
	static const char *const vecs[] = { "cpu", "disk", "net", "snmp" };
	sqlite3 *db;
	sqlite3_stmt *st;
	char sql[256];
	size_t pos = 1;
	int n = size ? data[0] : 0;

	copy_file(tmpl, work);
	if (sqlite3_open(work, &db))
		abort();
	sqlite3_exec(db, "PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
	for (int i = 0; i < n && pos + 10 <= size; i++, pos += 10) {
		int c = data[pos] % ncols, kind = data[pos + 1] % 4;
		uint64_t v = get_u64(data + pos + 2);
		double d;
		snprintf(sql, sizeof(sql), "UPDATE sample SET %s = ?", cols[c]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
			abort();
		switch (kind) {
		case 0:
			sqlite3_bind_int64(st, 1, (int64_t)v);
			neg[c] = (int64_t)v < 0;
			break;
		case 1:
			memcpy(&d, &v, sizeof(d));
			sqlite3_bind_double(st, 1, d);
			neg[c] = false;
			break;
		case 2:
			sqlite3_bind_null(st, 1);
			neg[c] = false;
			break;
		default:
			sqlite3_bind_text(st, 1, (const char *)data + pos + 2, 8, SQLITE_TRANSIENT);
			neg[c] = false;
		}
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	for (int i = 0; i < 5 && pos + 2 <= size; i++) {
		size_t len = data[pos] | data[pos + 1] << 8;
		pos += 2;
		len = MIN(len, size - pos);
		if (i < 4)
			snprintf(sql, sizeof(sql), "UPDATE counters SET %s = ?", vecs[i]);
		else
			snprintf(sql, sizeof(sql), "UPDATE keyset SET keys = ?");
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
			if (i < 4)
				sqlite3_bind_blob(st, 1, data + pos, len, SQLITE_TRANSIENT);
			else
				sqlite3_bind_text(st, 1, (const char *)data + pos, len,
						  SQLITE_TRANSIENT);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
		pos += len;
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
}

static void check_snap(const struct ptk_snap *s)
{
	const uint64_t lim = 1ull << 63;

	for (int f = 0; f < PTK_ST_NFIELDS; f++)
		if (ptk_stat_has(&s->st, f))
			FUZZ_CHECK(ptk_field_u64(&ptk_stat_fields[f], &s->st) < lim);
	FUZZ_CHECK(s->st.ncpu >= 0 && s->st.ncpu <= 65536);
	for (int i = 0; i < s->st.ncpu; i++)
		for (int k = 0; s->st.present[i] && k < PTK_CPU_NSTATES; k++)
			FUZZ_CHECK(s->st.cpu[i].t[k] < lim);
	for (int k = 0; ptk_snap_has(s, PTK_SNAP_STAT) && k < PTK_CPU_NSTATES; k++)
		FUZZ_CHECK(s->st.all.t[k] < lim);
	if (s->has_mi) {
		for (int f = 0; f < PTK_MI_NFIELDS; f++)
			if (ptk_meminfo_has(&s->mi, f))
				FUZZ_CHECK(ptk_meminfo_get(&s->mi, f) < lim);
		if (ptk_meminfo_has(&s->mi, PTK_MI_MEM_TOTAL)) {
			static const enum ptk_mi_field parts[] = { PTK_MI_MEM_FREE, PTK_MI_CACHED,
								   PTK_MI_BUFFERS, PTK_MI_SLAB,
								   PTK_MI_MEM_AVAILABLE };
			for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
				if (ptk_meminfo_has(&s->mi, parts[i]))
					FUZZ_CHECK(ptk_meminfo_get(&s->mi, parts[i]) <=
						   s->mi.mem_total);
		}
	}
	if (s->has_vm)
		for (int f = 0; f < PTK_VM_NFIELDS; f++)
			if (ptk_vmstat_has(&s->vm, f))
				FUZZ_CHECK(ptk_vmstat_get(&s->vm, f) < lim);
	if (s->has_la)
		FUZZ_CHECK(s->la.nr_running <= s->la.nr_threads);
	for (int r = 0; r < PTK_PSI_NRES; r++) {
		const struct ptk_psi_line *l[] = { &s->psi[r].some, &s->psi[r].full };
		for (int k = 0; s->has_psi[r] && k < 2; k++)
			if (l[k]->present)
				FUZZ_CHECK(l[k]->avg10 >= 0 && l[k]->avg10 <= 100 &&
					   l[k]->avg60 >= 0 && l[k]->avg60 <= 100 &&
					   l[k]->avg300 >= 0 && l[k]->avg300 <= 100);
	}
	FUZZ_CHECK(isnan(s->up.up_s) || s->up.up_s >= 0);
	for (int i = 0; ptk_snap_has(s, PTK_SNAP_DISKSTATS) && i < s->ds.n; i++) {
		FUZZ_CHECK(fuzz_terminated(s->ds.d[i].name, sizeof(s->ds.d[i].name)));
		for (int k = 0; k < PTK_DK_NFIELDS; k++)
			FUZZ_CHECK(s->ds.d[i].f[k] < lim);
	}
	for (int i = 0; ptk_snap_has(s, PTK_SNAP_NETDEV) && i < s->nd.n; i++) {
		FUZZ_CHECK(fuzz_terminated(s->nd.d[i].name, sizeof(s->nd.d[i].name)));
		for (int k = 0; k < PTK_ND_NFIELDS; k++)
			FUZZ_CHECK(s->nd.d[i].f[k] < lim);
	}
	for (int i = 0; i < s->kvs.n; i++)
		FUZZ_CHECK(fuzz_terminated(s->kvs.kv[i].key, sizeof(s->kvs.kv[i].key)));
	/* what the reports compute from it: finite or unknown */
	for (int a = 0; a < PTK_ACT_COUNT; a++) {
		struct ptk_rows rows = { 0 };
		struct ptk_act_opts o = { .per_cpu = true };
		ptk_activities[a].rows(NULL, s, 1, &o, &rows);
		for (int k = 0; k < rows.n; k++)
			for (int c = 0; ptk_activities[a].mids[c] != PTK_M_NONE; c++)
				if (!rows.r[k].v[c].na &&
				    ptk_registry[ptk_activities[a].mids[c]].type == PTK_V_F64)
					FUZZ_CHECK(!isnan(rows.r[k].v[c].f));
		ptk_rows_free(&rows);
	}
}

/* s written as a /proc tree reads back with the same scalar fields. */
static void check_tree(const struct ptk_snap *s)
{
	char tree[128];
	struct ptk_src src;
	struct ptk_snap b = { 0 };

	snprintf(tree, sizeof(tree), "%s/back", dir);
	ptk_arc_rmtree(tree);
	if (ptk_snap_write_tree(s, tree))
		return;
	if (ptk_src_init(&src, tree, NULL) == 0 && ptk_snap_read(&src, &b, PTK_SNAP_ALL) == 0) {
		FUZZ_CHECK(ptk_snap_has(s, PTK_SNAP_STAT)); /* else no cpu line was written */
		for (int f = 0; f < PTK_ST_NFIELDS; f++)
			if (f != PTK_ST_BTIME)
				FUZZ_CHECK(ptk_stat_has(&b.st, f) == ptk_stat_has(&s->st, f));
		/* a meminfo without MemTotal is refused by its reader */
		FUZZ_CHECK(b.has_mi == s->has_mi ||
			   (s->has_mi && !ptk_meminfo_has(&s->mi, PTK_MI_MEM_TOTAL)));
		if (s->has_mi && b.has_mi)
			for (int f = 0; f < PTK_MI_NFIELDS; f++)
				if (ptk_meminfo_has(&s->mi, f))
					FUZZ_CHECK(ptk_meminfo_has(&b.mi, f) &&
						   ptk_meminfo_get(&b.mi, f) ==
							   ptk_meminfo_get(&s->mi, f));
		if (s->has_vm && b.has_vm)
			for (int f = 0; f < PTK_VM_NFIELDS; f++)
				FUZZ_CHECK(ptk_vmstat_has(&b.vm, f) == ptk_vmstat_has(&s->vm, f));
	}
	ptk_snap_free(&b);
	ptk_arc_rmtree(tree);
}

static void load_all(const char *path, const bool *neg)
{
	char err[512];
	struct ptk_arc *a = ptk_arc_open(path, PTK_ARC_RDONLY, err, sizeof(err));
	struct ptk_arc_index idx = { 0 };
	struct ptk_snap s = { 0 };

	if (!a) {
		FUZZ_CHECK(fuzz_terminated(err, sizeof(err)) && err[0]);
		return;
	}
	if (ptk_arc_list(a, INT64_MIN, INT64_MAX, &idx) == 0) {
		for (int i = 0; i < idx.n && i < 16; i++) {
			if (ptk_arc_load(a, idx.id[i], true, &s))
				continue;
			const char *why = ptk_arc_impossible(a);
			FUZZ_CHECK(strlen(why) < 512);
			for (int c = 0; neg && c < ncols; c++)
				if (neg[c]) {
					char name[80];
					snprintf(name, sizeof(name), "%s -", cols[c]);
					FUZZ_CHECK(strstr(why, name) || strlen(why) > 400);
				}
			check_snap(&s);
			if (neg)
				check_tree(&s);
		}
	}
	ptk_arc_index_free(&idx);
	ptk_snap_free(&s);
	ptk_arc_close(a);
}

static void cleanup(void)
{
	ptk_arc_rmtree(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/ptk-fuzz-arc.%d", t && *t ? t : "/tmp",
			 (int)getpid());
		ptk_arc_rmtree(dir);
		ptk_mkdir_p(dir, 0700);
		snprintf(tmpl, sizeof(tmpl), "%s/template.db", dir);
		snprintf(work, sizeof(work), "%s/work.db", dir);
		snprintf(raw, sizeof(raw), "%s/raw.db", dir);
		make_template();
		atexit(cleanup);
	}
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		put_file(raw, data + 1, size - 1);
		load_all(raw, NULL);
	} else {
		bool neg[128] = { false };
		edit(data + 1, size - 1, neg);
		load_all(work, neg);
	}
	return 0;
}
