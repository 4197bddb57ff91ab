// SPDX-License-Identifier: GPL-2.0
/* /proc/net/snmp and netstat: every key "Proto.Name", terminated, found by its name. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_kvs kvs = { 0 };

	if (ptk_netsnmp_parse(text, &kvs) == 0) {
		FUZZ_CHECK(kvs.n >= 0 && kvs.n <= kvs.cap);
		for (int i = 0; i < kvs.n; i++) {
			const struct ptk_kv *kv = &kvs.kv[i];
			s64 v;
			FUZZ_CHECK(fuzz_terminated(kv->key, sizeof(kv->key)));
			FUZZ_CHECK(strchr(kv->key, '.') && !strpbrk(kv->key, " \t\n"));
			FUZZ_CHECK(ptk_kvs_get(&kvs, kv->key, &v));
		}
	}
	ptk_kvs_free(&kvs);
	free(text);
	return 0;
}
