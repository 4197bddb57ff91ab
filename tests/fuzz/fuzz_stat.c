// SPDX-License-Identifier: GPL-2.0
/* /proc/stat: CPUs keyed by their label, the copy equal to the parse. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_stat st = { 0 }, cp = { 0 };

	if (ptk_stat_parse(text, &st) == 0) {
		FUZZ_CHECK(st.ncpu >= 0 && st.ncpu <= st.cap);
		FUZZ_CHECK(st.ncpu == 0 || st.present[st.ncpu - 1]);
		for (int i = st.ncpu; i < st.cap; i++)
			FUZZ_CHECK(!st.present[i]);
		/* a line the file lacks is unknown: its bit clear, its value 0 */
		for (int f = 0; f < PTK_ST_NFIELDS; f++)
			FUZZ_CHECK(ptk_stat_has(&st, f) ||
				   !ptk_field_u64(&ptk_stat_fields[f], &st));
		ptk_stat_copy(&cp, &st);
		FUZZ_CHECK(cp.ncpu == st.ncpu && cp.ctxt == st.ctxt && cp.btime == st.btime &&
			   cp.has == st.has);
		for (int i = 0; i < st.ncpu; i++) {
			FUZZ_CHECK(cp.present[i] == st.present[i]);
			if (st.present[i])
				FUZZ_CHECK(!memcmp(&cp.cpu[i], &st.cpu[i], sizeof(st.cpu[i])));
		}
	}
	ptk_stat_free(&st);
	ptk_stat_free(&cp);
	free(text);
	return 0;
}
