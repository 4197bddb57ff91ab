// SPDX-License-Identifier: GPL-2.0
/* The metric registry (model/registry.h): every metric once, indexed by enum ptk_mid. */
#include "model/registry.h"

#include <string.h>

/* Shorthands for the common shapes; every field can still be given by name. */
#define PCT(t, k, w, h, f)                                                                        \
	{                                                                                         \
		.name = t, .key = k, .unit = "%", .kind = PTK_PCT, .type = PTK_V_F64, .width = w, \
		.prec = 2, .help = h, .from = f                                                   \
	}

const struct ptk_metric ptk_registry[PTK_M_COUNT] = {
	[PTK_M_NONE] = { .name = "", .key = "", .unit = "", .help = "no metric" },

	/* ---- cpu ---- */

	/* ---- load and run queue ---- */

	/* ---- tasks and context switches ---- */

	/* ---- memory ---- */

	/* ---- swap and paging ---- */

	/* ---- block I/O and disks ---- */

	/* ---- network devices ---- */

	/* ---- TCP, IP, UDP, sockets ---- */

	/* ---- pressure stall information ---- */

	/* ---- check ---- */

	/* ---- processes and threads ---- */

	/* ---- BPF, perf and ptrace tools ---- */

	/* ---- the observer ---- */
};

/* Every id has an entry: a missing one would have a NULL key. Checked by the unit test
 * (test_registry), and the array size by the compiler. */
_Static_assert(ARRAY_SIZE(ptk_registry) == PTK_M_COUNT, "one registry entry per metric id");

const struct ptk_metric *ptk_registry_by_key(const char *key)
{
	for (int i = 1; i < PTK_M_COUNT; i++)
		if (ptk_registry[i].key && !strcmp(ptk_registry[i].key, key))
			return &ptk_registry[i];
	return NULL;
}
