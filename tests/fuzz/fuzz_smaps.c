// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/smaps (and maps): mappings ordered with start <= end, strings terminated, field
 * indexes inside the field table, the pulled-out keys pointing at their names. */
#include "fuzz.h"
#include "source/procfs/smaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptk_smaps s = { 0 };

	if (ptk_smaps_parse((const char *)data, size, &s) == 0) {
		FUZZ_CHECK(s.n >= 0 && s.n <= s.cap);
		FUZZ_CHECK(s.nfields >= 0 && s.nfields <= PTK_SMAPS_MAXF);
		for (int k = 0; k < PTK_SM_NKEYS; k++)
			FUZZ_CHECK(s.key[k] >= -1 && s.key[k] < s.nfields);
		for (int i = 0; i < s.nfields; i++)
			FUZZ_CHECK(fuzz_terminated(s.field[i], sizeof(s.field[i])));
		for (int i = 0; i < s.n; i++) {
			const struct ptk_smap *m = &s.m[i];
			FUZZ_CHECK(m->start <= m->end);
			FUZZ_CHECK(fuzz_terminated(m->perms, sizeof(m->perms)));
			FUZZ_CHECK(fuzz_terminated(m->start_s, sizeof(m->start_s)));
			FUZZ_CHECK(fuzz_terminated(m->offset_s, sizeof(m->offset_s)));
			FUZZ_CHECK(fuzz_terminated(m->dev_s, sizeof(m->dev_s)));
			FUZZ_CHECK(fuzz_terminated(m->inode_s, sizeof(m->inode_s)));
			FUZZ_CHECK(m->path != NULL && !strchr(m->path, '\n'));
			FUZZ_CHECK(s.nfields == 64 || (m->have >> s.nfields) == 0);
		}
	}
	ptk_smaps_free(&s);
	return 0;
}
