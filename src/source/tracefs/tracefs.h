/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs: find it (/proc/mounts), or mount it at /sys/kernel/tracing when absent and
 * unmount it again at exit, so ptk leaves no tracefs state behind. Tracepoint formats
 * (events/<category>/<event>/format) give field offsets for the generic aggregator.
 */
#ifndef PTK_SOURCE_TRACEFS_H
#define PTK_SOURCE_TRACEFS_H

#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Locate tracefs; mount it at /sys/kernel/tracing if no tracefs (or debugfs tracing) is
 * mounted. path receives the directory. Returns 0 or -errno (-EPERM unprivileged).
 * The mount, if made, is undone by ptk_tracefs_release() (also registered with atexit).
 */
int ptk_tracefs_find(char *path, size_t size);
/* Undo a mount made by ptk_tracefs_find(). Safe to call more than once. */
void ptk_tracefs_release(void);
/* True when ptk_tracefs_find() mounted tracefs itself. */
bool ptk_tracefs_mounted_by_us(void);

#define PTK_TP_MAX_FIELDS 64
struct ptk_tp_field {
	char name[64];
	char type[96]; /* "pid_t", "char[16]", "__data_loc char[]" */
	int offset; /* bytes from the start of the raw record */
	int size; /* bytes */
	bool is_signed;
	bool is_array; /* "char comm[16]" style fixed arrays */
	bool is_data_loc; /* __data_loc: u32 (len << 16 | offset) */
};
struct ptk_tp_format {
	int id;
	int nfields;
	struct ptk_tp_field f[PTK_TP_MAX_FIELDS];
};
/* Parse events/<cat>/<event>/format text. 0 or -EINVAL. Common fields are included. */
int ptk_tp_format_parse(const char *text, struct ptk_tp_format *fmt);
/* The id of tracepoint "cat:event" (tracefs events/<cat>/<event>/id, the perf_event_attr
 * config of PERF_TYPE_TRACEPOINT). 0, -EINVAL for a bad name, -ENOENT when absent, or -errno. */
int ptk_tp_id_read(const char *cat, const char *event, u64 *id);
/* Read and parse the format of "cat:event" from tracefs. 0 or -errno. */
int ptk_tp_format_read(const char *cat, const char *event, struct ptk_tp_format *fmt);
const struct ptk_tp_field *ptk_tp_field_find(const struct ptk_tp_format *fmt, const char *name);

#endif
