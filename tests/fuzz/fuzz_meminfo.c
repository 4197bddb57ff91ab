// SPDX-License-Identifier: GPL-2.0
/* /proc/meminfo: MemTotal required, kB values that fit bytes, the estimate within MemTotal,
 * and the text written back (snapshot trees) parsing to the same values and presence. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_meminfo mi, back;
	struct ptk_strbuf b = { 0 };

	if (ptk_meminfo_parse(text, &mi) == 0) {
		FUZZ_CHECK(ptk_meminfo_has(&mi, PTK_MI_MEM_TOTAL));
		FUZZ_CHECK(mi.has_available == ptk_meminfo_has(&mi, PTK_MI_MEM_AVAILABLE));
		if (!mi.has_available)
			FUZZ_CHECK(mi.mem_available <= mi.mem_total);
		for (int i = 0; i < PTK_MI_NFIELDS; i++) {
			FUZZ_CHECK(ptk_meminfo_get(&mi, i) <= (~0ull >> 10));
			if (!ptk_meminfo_has(&mi, i) && i != PTK_MI_MEM_AVAILABLE)
				FUZZ_CHECK(ptk_meminfo_get(&mi, i) == 0);
		}
		ptk_meminfo_text(&mi, &b);
		FUZZ_CHECK(ptk_meminfo_parse(b.p, &back) == 0);
		FUZZ_CHECK(back.present == mi.present);
		for (int i = 0; i < PTK_MI_NFIELDS; i++)
			FUZZ_CHECK(ptk_meminfo_get(&back, i) == ptk_meminfo_get(&mi, i));
	}
	free(b.p);
	free(text);
	return 0;
}
