// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats: names terminated and non-empty, a known number of counters, look-up by
 * name finds each device; iostat's keeping reader and the per-device stat file parser. */
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
	/* iostat's reader keeps a line whose counters are not all numbers: those are in bad,
	 * inside the line's layout, with 0 in f[] */
	if (ptk_diskstats_parse_all(text, &ds) == 0) {
		for (int i = 0; i < ds.n; i++) {
			const struct ptk_disk *d = &ds.d[i];
			FUZZ_CHECK(d->nfields == 4 ||
				   (d->nfields >= 11 && d->nfields <= PTK_DK_NFIELDS));
			for (int k = 0; k < PTK_DK_NFIELDS; k++)
				if (d->bad & (1u << k))
					FUZZ_CHECK(d->f[k] == 0 && !ptk_disk_has(d, k));
			FUZZ_CHECK(d->nfields == 4 || (d->bad >> d->nfields) == 0);
		}
	}
	/* the same text as one device's /sys/block stat file */
	struct ptk_disk one;
	if (ptk_blockstat_parse(text, &one) == 0)
		FUZZ_CHECK(one.nfields == 4 ||
			   (one.nfields >= 11 && one.nfields <= PTK_DK_NFIELDS));
	ptk_diskstats_free(&ds);
	free(text);
	return 0;
}
