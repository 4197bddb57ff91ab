// SPDX-License-Identifier: GPL-2.0
#include "source/bpf/blk.h"
#include "source/bpf/blk_layout.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/cli.h"

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

/* Names of the ops and flags of the layout the BPF programs hand over (blk_layout.h). */
static const char *op_label(u32 op)
{
	switch (op) {
	case PTK_BLK_OP_READ:
		return "Read";
	case PTK_BLK_OP_WRITE:
		return "Write";
	case PTK_BLK_OP_FLUSH:
		return "Flush";
	case PTK_BLK_OP_DISCARD:
		return "Discard";
	case PTK_BLK_OP_SECURE_ERASE:
		return "SecureErase";
	case PTK_BLK_OP_ZONE_APPEND:
		return "ZoneAppend";
	case PTK_BLK_OP_WRITE_ZEROES:
		return "WriteZeroes";
	case PTK_BLK_OP_ZONE_OPEN:
		return "ZoneOpen";
	case PTK_BLK_OP_ZONE_CLOSE:
		return "ZoneClose";
	case PTK_BLK_OP_ZONE_FINISH:
		return "ZoneFinish";
	case PTK_BLK_OP_ZONE_RESET:
		return "ZoneReset";
	case PTK_BLK_OP_ZONE_RESET_ALL:
		return "ZoneResetAll";
	case PTK_BLK_OP_DRV_IN:
		return "DrvIn";
	case PTK_BLK_OP_DRV_OUT:
		return "DrvOut";
	case PTK_BLK_OP_WRITE_SAME:
		return "WriteSame";
	case PTK_BLK_OP_SCSI_IN:
		return "SCSIIn";
	case PTK_BLK_OP_SCSI_OUT:
		return "SCSIOut";
	}
	return "Unknown";
}

/* in libbpf-tools biolatency -F's order */
static const struct {
	int bit;
	const char *label;
} flags[] = {
	{ PTK_BLK_F_NOWAIT, "NoWait-" },    { PTK_BLK_F_BACKGROUND, "Background-" },
	{ PTK_BLK_F_RAHEAD, "ReadAhead-" }, { PTK_BLK_F_PREFLUSH, "PreFlush-" },
	{ PTK_BLK_F_FUA, "FUA-" },	    { PTK_BLK_F_INTEGRITY, "Integrity-" },
	{ PTK_BLK_F_IDLE, "Idle-" },	    { PTK_BLK_F_NOMERGE, "NoMerge-" },
	{ PTK_BLK_F_PRIO, "Priority-" },    { PTK_BLK_F_META, "Metadata-" },
	{ PTK_BLK_F_SYNC, "Sync-" },
};

static bool has_flag(u32 cmd_flags, int bit)
{
	return cmd_flags >> bit & 1;
}

bool ptk_blk_is_write(u32 cmd_flags)
{
	return ptk_blk_op(cmd_flags) == PTK_BLK_OP_WRITE;
}

const char *ptk_blk_rwbs(u32 cmd_flags, char *buf)
{
	u32 op = ptk_blk_op(cmd_flags);
	int i = 0;

	if (has_flag(cmd_flags, PTK_BLK_F_PREFLUSH))
		buf[i++] = 'F';
	if (op == PTK_BLK_OP_WRITE || op == PTK_BLK_OP_WRITE_SAME) {
		buf[i++] = 'W';
	} else if (op == PTK_BLK_OP_DISCARD) {
		buf[i++] = 'D';
	} else if (op == PTK_BLK_OP_SECURE_ERASE) {
		buf[i++] = 'D';
		buf[i++] = 'E';
	} else if (op == PTK_BLK_OP_FLUSH) {
		buf[i++] = 'F';
	} else if (op == PTK_BLK_OP_READ) {
		buf[i++] = 'R';
	} else {
		buf[i++] = 'N';
	}
	if (has_flag(cmd_flags, PTK_BLK_F_FUA))
		buf[i++] = 'F';
	if (has_flag(cmd_flags, PTK_BLK_F_RAHEAD))
		buf[i++] = 'A';
	if (has_flag(cmd_flags, PTK_BLK_F_SYNC))
		buf[i++] = 'S';
	if (has_flag(cmd_flags, PTK_BLK_F_META))
		buf[i++] = 'M';
	buf[i] = '\0';
	return buf;
}

const char *ptk_blk_flags_str(u32 cmd_flags, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(flags) && n < size; i++)
		if (has_flag(cmd_flags, flags[i].bit))
			n += snprintf(buf + n, size - n, "%s", flags[i].label);
	if (n < size)
		snprintf(buf + n, size - n, "%s", op_label(ptk_blk_op(cmd_flags)));
	return buf;
}

bool ptk_blk_rq_tp_two_args(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct utsname u;
	int id, ma = 0, mi = 0, n = -1;

	if (!libbpf_get_error(btf)) {
		id = btf__find_by_name_kind(btf, "btf_trace_block_rq_issue", BTF_KIND_TYPEDEF);
		if (id > 0) {
			/* typedef -> pointer -> func_proto (void *, args...) */
			const struct btf_type *t = btf__type_by_id(btf, id);
			t = btf__type_by_id(btf, t->type);
			if (t && btf_is_ptr(t))
				t = btf__type_by_id(btf, t->type);
			if (t && btf_is_func_proto(t))
				n = btf_vlen(t);
		}
		btf__free(btf);
		if (n >= 0)
			return n == 3;
	}
	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &ma, &mi) == 2)
		return ma < 5 || (ma == 5 && mi < 11);
	return false;
}

int ptk_blk_disk_opt(const struct ptk_ctx *ctx, const char *disk, u32 *kdev)
{
	int err = ptk_blk_disk_dev(disk, kdev);

	if (err)
		return ptk_usage_error(ctx, "-d %s: no such disk in /sys/block (%s)", disk,
				       strerror(-err));
	return 0;
}
