// SPDX-License-Identifier: GPL-2.0
/* jstack thread dumps: as many threads as returned, sorted by nid, names terminated and
 * free of control characters; the pool name of each is no longer than the name. */
#include "fuzz.h"
#include "model/jstack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_jdump d = { 0 };
	int n = ptk_jstack_parse(text, &d);

	if (n >= 0) {
		FUZZ_CHECK(n == d.n && d.n <= d.cap);
		for (int i = 0; i < d.n; i++) {
			char pool[256];
			FUZZ_CHECK(d.t[i].name && fuzz_printable(d.t[i].name));
			FUZZ_CHECK(fuzz_terminated(d.t[i].state, sizeof(d.t[i].state)));
			FUZZ_CHECK(i == 0 || d.t[i - 1].nid <= d.t[i].nid);
			FUZZ_CHECK(ptk_jstack_find(&d, d.t[i].nid) != NULL);
			ptk_pool_name(d.t[i].name, 15, pool, sizeof(pool));
			FUZZ_CHECK(strlen(pool) <= strlen(d.t[i].name));
		}
	}
	ptk_jstack_free(&d);
	free(text);
	return 0;
}
