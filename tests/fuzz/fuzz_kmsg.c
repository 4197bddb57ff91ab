// SPDX-License-Identifier: GPL-2.0
/* /dev/kmsg records: every event of a known kind, its message terminated and on one line. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_kmsg km = { 0 };

	if (ptk_kmsg_parse(text, &km) == 0) {
		FUZZ_CHECK(km.n >= 0 && km.n <= km.cap && (u64)km.n <= km.records);
		for (int i = 0; i < km.n; i++) {
			const struct ptk_kmsg_event *e = &km.ev[i];
			FUZZ_CHECK(e->kind >= 0 && e->kind < PTK_KMSG_NKINDS);
			FUZZ_CHECK(fuzz_terminated(e->msg, sizeof(e->msg)));
			FUZZ_CHECK(fuzz_printable(e->msg));
		}
	}
	ptk_kmsg_free(&km);
	free(text);
	return 0;
}
