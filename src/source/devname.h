/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Other names of block devices, from the links udev and device-mapper keep under /dev:
 * device-mapper names (/dev/mapper/NAME -> ../dm-N, or /sys/block/dm-N/dm/name) and
 * persistent names (/dev/disk/by-TYPE/NAME -> ../../sdX), as sysstat's iostat -N and -j show
 * them. devroot is the /dev directory to read (live /dev, or another tree's). A link may also
 * be a regular file holding its target, as trees copied without links keep them (sysstat's
 * own test trees). Names are kernel names ("sda1", "dm-2", "cciss/c0d0"). Every function
 * returns 0 or -errno and prints nothing.
 */
#ifndef PTK_SOURCE_DEVNAME_H
#define PTK_SOURCE_DEVNAME_H

#include <stdbool.h>
#include <stddef.h>

/* The device a link under devroot points at: rel is "mapper/NAME", "disk/by-id/NAME", ...;
 * the target with its leading "../" and "/dev/" taken off ("../../sda5": "sda5"). */
int ptk_dev_link(const char *devroot, const char *rel, char *buf, size_t size);

/* dm device dev's name: sysroot/block/DEV/dm/name, else the entry of devroot/mapper that
 * links to dev. -ENOENT when it has none (not a device-mapper device). */
int ptk_dm_name(const char *sysroot, const char *devroot, const char *dev, char *buf, size_t size);

/* Does devroot/disk/by-TYPE exist (type lower-case: "id", "label", "path", "uuid", ...)? */
bool ptk_persist_type_ok(const char *devroot, const char *type);
/* dev's persistent name of that type: the first entry, by name, of devroot/disk/by-TYPE
 * that links to dev. -ENOENT when none does. */
int ptk_persist_name(const char *devroot, const char *type, const char *dev, char *buf,
		     size_t size);

#endif
