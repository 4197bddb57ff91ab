/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON keys that more than one registry entry still carries: the sections of the registry
 * were filled from the commands that printed them (system activities, check, processes),
 * and these keys name a column in each with a different title, precision or formula
 * (check's user_pct is user+nice, sar's %user includes guest; top's and pidstat's %CPU).
 * Each is to become one entry, or two keys named for what they are. The tests accept only
 * these: a new shared key fails them.
 */
#ifndef PTK_TESTS_REGISTRY_SHARED_H
#define PTK_TESTS_REGISTRY_SHARED_H

#include <stdbool.h>
#include <string.h>

static const char *const registry_shared_keys[] = {
	"aqu_sz",
	"cpu",
	"cpu_pct",
	"cswch_s",
	"device",
	"dstate_tasks",
	"file",
	"group",
	"guest_pct",
	"iowait_pct",
	"load1",
	"majflt_s",
	"major_faults_per_s",
	"mem_pct",
	"nvcswch_s",
	"offset",
	"retrans_pct",
	"rkb_s",
	"rss_kb",
	"steal_pct",
	"system_pct",
	"threads",
	"user",
	"user_pct",
	"usr_pct",
	"util_pct",
	"wkb_s",
};

static inline bool registry_key_shared(const char *key)
{
	for (size_t i = 0; i < sizeof(registry_shared_keys) / sizeof(registry_shared_keys[0]); i++)
		if (!strcmp(registry_shared_keys[i], key))
			return true;
	return false;
}

#endif
