// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats: names terminated and non-empty, a known number of counters, look-up by
 * name finds each device. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_diskstats ds = { 0 };

	if (ptk_diskstats_parse(text, &ds) == 0) {
		FUZZ_CHECK(ds.n >= 0 && ds.n <= ds.cap);
		for (int i = 0; i < ds.n; i++) {
			const struct ptk_disk *d = &ds.d[i];
			FUZZ_CHECK(fuzz_terminated(d->name, sizeof(d->name)) && d->name[0]);
			FUZZ_CHECK(!strpbrk(d->name, " \t\n"));
			FUZZ_CHECK(d->nfields == 4 ||
				   (d->nfields >= 11 && d->nfields <= PTK_DK_NFIELDS));
			FUZZ_CHECK(ptk_diskstats_find(&ds, d->name) != NULL);
			/* the old 4-field partition lines fill 4 slots of the full layout */
			for (int k = d->nfields == 4 ? PTK_DK_IN_FLIGHT : d->nfields;
			     k < PTK_DK_NFIELDS; k++)
				FUZZ_CHECK(d->f[k] == 0);
		}
	}
	ptk_diskstats_free(&ds);
	free(text);
	return 0;
}
