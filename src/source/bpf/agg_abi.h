/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel/user ABI of the aggregation engine (source/bpf/agg.h, ptk agg). One precompiled program,
 * configured before load through read-only data: which fields of the raw tracepoint record
 * (offsets and sizes from events/<cat>/<event>/format) make up the key, what is aggregated
 * (count, sum of a field, log2 or linear histogram of a field, or the latency between two
 * tracepoints matched by a field) and an optional one-field filter.
 */
#ifndef PTK_AGG_ABI_H
#define PTK_AGG_ABI_H

#define AGG_MAX_KEYS 4 /* fields in one key */
#define AGG_KEY_SIZE 64 /* bytes of the composed key */
#define AGG_STR_MAX 32 /* bytes copied from a char[N] or __data_loc string */
#define AGG_SLOTS 64 /* histogram slots (model/hist.h PTK_HIST_SLOTS) */
#define AGG_MAX_ENTRIES 10240 /* distinct keys kept */
#define AGG_NPROGS 2 /* program copies: [0] the event (or --from), [1] --to */

/* What one key part (or the value / filter / match field) reads. */
enum agg_src {
	AGG_SRC_NONE = 0,
	AGG_SRC_NUM, /* numeric field of 1/2/4/8 bytes, stored as 8 bytes (sign-extended) */
	AGG_SRC_ARRAY, /* char[N] field: N bytes (at most AGG_STR_MAX) */
	AGG_SRC_DATALOC, /* __data_loc char[] string: at most AGG_STR_MAX bytes, NUL padded */
	AGG_SRC_COMM, /* current task comm, 16 bytes */
	AGG_SRC_PID, /* current tgid, 8 bytes */
	AGG_SRC_TID, /* current thread id, 8 bytes */
	AGG_SRC_CGROUP, /* current cgroup v2 id, 8 bytes */
	AGG_SRC_KSTACK, /* kernel stack id in the stacks map (s64; < 0: not captured) */
	AGG_SRC_PTRSTR, /* "char *" field: the string it points to (user memory when .user) */
};

enum agg_mode {
	AGG_COUNT = 0, /* count of events per key (and sum when sum_field) */
	AGG_SUM, /* count and sum of a numeric field per key */
	AGG_HIST, /* log2 histogram of a numeric field per key */
	AGG_LHIST, /* linear histogram of a numeric field per key */
	AGG_LAT_START, /* latency, first event: start[match] = now */
	AGG_LAT_END, /* latency, second event: histogram of now - start[match] per key */
};

enum agg_op { AGG_OP_EQ = 0, AGG_OP_NE, AGG_OP_LT, AGG_OP_LE, AGG_OP_GT, AGG_OP_GE };

struct agg_field {
	__u32 src; /* enum agg_src */
	__u32 off; /* byte offset in the raw record */
	__u32 size; /* field size in the record */
	__u32 len; /* bytes written into the key */
	__u32 kofs; /* offset in the key buffer */
	__u32 is_signed;
	__u32 user; /* AGG_SRC_PTRSTR: a user-space pointer (syscall arguments) */
};

struct agg_cfg {
	__u32 mode; /* enum agg_mode */
	__u32 nkeys;
	struct agg_field key[AGG_MAX_KEYS];
	struct agg_field val; /* AGG_SUM/HIST/LHIST: the value; AGG_LAT_*: the match field */
	__u32 has_filter;
	__u32 filter_op; /* enum agg_op */
	__u32 filter_str; /* compare filter_s (string) instead of filter_v */
	struct agg_field filter;
	__s64 filter_v;
	char filter_s[AGG_STR_MAX];
	__s64 lin_min, lin_step; /* AGG_LHIST */
	__u32 lin_nslots; /* <= AGG_SLOTS */
	__u32 lat_div; /* AGG_LAT_END: ns per unit (1000 = usecs) */
};

struct agg_key {
	__u8 b[AGG_KEY_SIZE];
};

/* AGG_COUNT / AGG_SUM */
struct agg_count {
	__u64 count;
	__s64 sum;
};

/* AGG_HIST / AGG_LHIST / AGG_LAT_END */
struct agg_hist {
	__u64 slot[AGG_SLOTS];
	__u64 below; /* negative (log2) or < lin_min (linear) */
	__u64 above; /* >= lin_min + lin_nslots * lin_step (linear) */
	__s64 sum;
};

/* per-CPU counters of what could not be recorded (the map lost) */
enum agg_drop {
	AGG_DROP_KEYS = 0, /* aggregation map full */
	AGG_DROP_START, /* latency start map full */
	AGG_DROP_STACK, /* stack not captured (stack map full or collision) */
	AGG_DROP_READ, /* a field read failed */
	AGG_DROP_NR
};

#endif
