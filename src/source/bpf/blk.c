// SPDX-License-Identifier: GPL-2.0
#include "source/bpf/blk.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

int ptk_blk_disk_dev(const char *disk, u32 *kdev)
{
	char path[PATH_MAX], buf[64];
	unsigned int ma, mi;
	ssize_t n;

	if (!*disk || strchr(disk, '/'))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/block/%s/dev", disk);
	n = ptk_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*kdev = ma << PTK_BLK_MINORBITS | mi;
	return 0;
}

const char *ptk_blk_dev_name(u32 kdev, char *buf, size_t size)
{
	char path[64], link[PATH_MAX];
	unsigned int ma = kdev >> PTK_BLK_MINORBITS, mi = kdev & ((1u << PTK_BLK_MINORBITS) - 1);
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", ma, mi);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *b = strrchr(link, '/');
		snprintf(buf, size, "%s", b ? b + 1 : link);
	} else {
		snprintf(buf, size, "%u:%u", ma, mi);
	}
	return buf;
}

/* The kernel's values for the enumerators we decode; the defaults are those of 6.x. */
struct blk_enum {
	const char *name; /* enumerator in enum req_op / enum req_flag_bits */
	const char *label;
	int value;
};

static struct blk_enum ops[] = {
	{ "REQ_OP_READ", "Read", 0 },
	{ "REQ_OP_WRITE", "Write", 1 },
	{ "REQ_OP_FLUSH", "Flush", 2 },
	{ "REQ_OP_DISCARD", "Discard", 3 },
	{ "REQ_OP_SECURE_ERASE", "SecureErase", 5 },
	{ "REQ_OP_ZONE_RESET", "ZoneReset", 17 },
	{ "REQ_OP_WRITE_SAME", "WriteSame", -1 },
	{ "REQ_OP_ZONE_RESET_ALL", "ZoneResetAll", 19 },
	{ "REQ_OP_WRITE_ZEROES", "WriteZeroes", 9 },
	{ "REQ_OP_ZONE_OPEN", "ZoneOpen", 11 },
	{ "REQ_OP_ZONE_CLOSE", "ZoneClose", 13 },
	{ "REQ_OP_ZONE_FINISH", "ZoneFinish", 15 },
	{ "REQ_OP_ZONE_APPEND", "ZoneAppend", 7 },
	{ "REQ_OP_SCSI_IN", "SCSIIn", -1 },
	{ "REQ_OP_SCSI_OUT", "SCSIOut", -1 },
	{ "REQ_OP_DRV_IN", "DrvIn", 34 },
	{ "REQ_OP_DRV_OUT", "DrvOut", 35 },
};

/* In libbpf-tools biolatency's order; value = bit number. */
static struct blk_enum flags[] = {
	{ "__REQ_NOWAIT", "NoWait-", 21 },    { "__REQ_BACKGROUND", "Background-", 20 },
	{ "__REQ_RAHEAD", "ReadAhead-", 19 }, { "__REQ_PREFLUSH", "PreFlush-", 18 },
	{ "__REQ_FUA", "FUA-", 17 },	      { "__REQ_INTEGRITY", "Integrity-", 16 },
	{ "__REQ_IDLE", "Idle-", 15 },	      { "__REQ_NOMERGE", "NoMerge-", 14 },
	{ "__REQ_PRIO", "Priority-", 13 },    { "__REQ_META", "Metadata-", 12 },
	{ "__REQ_SYNC", "Sync-", 11 },
};

static int enum_value(const struct btf *btf, const char *ename, const char *name, int def)
{
	int id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;

	if (id <= 0)
		return def;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return e->val;
	return -1; /* not in this kernel */
}

static struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__load_vmlinux_btf();
		if (libbpf_get_error(btf))
			btf = NULL;
	}
	return btf;
}

static void load_enums(void)
{
	static bool done;
	struct btf *btf;

	if (done)
		return;
	done = true;
	btf = kernel_btf();
	if (!btf)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		ops[i].value = enum_value(btf, "req_op", ops[i].name, ops[i].value);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		flags[i].value = enum_value(btf, "req_flag_bits", flags[i].name, flags[i].value);
}

static int op_value(const char *name)
{
	load_enums();
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(ops[i].name, name))
			return ops[i].value;
	return -1;
}

static bool has_flag(u32 cmd_flags, const char *name)
{
	load_enums();
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (!strcmp(flags[i].name, name))
			return flags[i].value >= 0 && flags[i].value < 32 &&
			       (cmd_flags >> flags[i].value & 1);
	return false;
}

bool ptk_blk_is_write(u32 cmd_flags)
{
	return (int)ptk_blk_op(cmd_flags) == op_value("REQ_OP_WRITE");
}

const char *ptk_blk_rwbs(u32 cmd_flags, char *buf)
{
	int op = (int)ptk_blk_op(cmd_flags), i = 0;

	if (has_flag(cmd_flags, "__REQ_PREFLUSH"))
		buf[i++] = 'F';
	if (op == op_value("REQ_OP_WRITE") || op == op_value("REQ_OP_WRITE_SAME")) {
		buf[i++] = 'W';
	} else if (op == op_value("REQ_OP_DISCARD")) {
		buf[i++] = 'D';
	} else if (op == op_value("REQ_OP_SECURE_ERASE")) {
		buf[i++] = 'D';
		buf[i++] = 'E';
	} else if (op == op_value("REQ_OP_FLUSH")) {
		buf[i++] = 'F';
	} else if (op == op_value("REQ_OP_READ")) {
		buf[i++] = 'R';
	} else {
		buf[i++] = 'N';
	}
	if (has_flag(cmd_flags, "__REQ_FUA"))
		buf[i++] = 'F';
	if (has_flag(cmd_flags, "__REQ_RAHEAD"))
		buf[i++] = 'A';
	if (has_flag(cmd_flags, "__REQ_SYNC"))
		buf[i++] = 'S';
	if (has_flag(cmd_flags, "__REQ_META"))
		buf[i++] = 'M';
	buf[i] = '\0';
	return buf;
}

const char *ptk_blk_flags_str(u32 cmd_flags, char *buf, size_t size)
{
	int op = (int)ptk_blk_op(cmd_flags);
	const char *opname = "Unknown";
	size_t n = 0;

	load_enums();
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(flags) && n < size; i++)
		if (has_flag(cmd_flags, flags[i].name))
			n += snprintf(buf + n, size - n, "%s", flags[i].label);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (ops[i].value == op)
			opname = ops[i].label;
	if (n < size)
		snprintf(buf + n, size - n, "%s", opname);
	return buf;
}

bool ptk_blk_rq_tp_two_args(void)
{
	struct btf *btf = kernel_btf();
	struct utsname u;
	int id, ma = 0, mi = 0;

	if (btf) {
		id = btf__find_by_name_kind(btf, "btf_trace_block_rq_issue", BTF_KIND_TYPEDEF);
		if (id > 0) {
			/* typedef -> pointer -> func_proto (void *, args...) */
			const struct btf_type *t = btf__type_by_id(btf, id);
			t = btf__type_by_id(btf, t->type);
			if (t && btf_is_ptr(t))
				t = btf__type_by_id(btf, t->type);
			if (t && btf_is_func_proto(t))
				return btf_vlen(t) == 3;
		}
	}
	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &ma, &mi) == 2)
		return ma < 5 || (ma == 5 && mi < 11);
	return false;
}
