// SPDX-License-Identifier: GPL-2.0
/* /proc/net/dev: interface names terminated, non-empty, without the ':' that ends them. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_netdevs nd = { 0 };

	if (ptk_netdev_parse(text, &nd) == 0) {
		FUZZ_CHECK(nd.n >= 0 && nd.n <= nd.cap);
		for (int i = 0; i < nd.n; i++) {
			const struct ptk_netdev *d = &nd.d[i];
			FUZZ_CHECK(fuzz_terminated(d->name, sizeof(d->name)) && d->name[0]);
			FUZZ_CHECK(!strpbrk(d->name, ": \t\n"));
			FUZZ_CHECK(ptk_netdev_find(&nd, d->name) != NULL);
		}
	}
	ptk_netdev_free(&nd);
	free(text);
	return 0;
}
