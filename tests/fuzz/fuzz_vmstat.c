// SPDX-License-Identifier: GPL-2.0
/* /proc/vmstat: the counters found are flagged present, and the text written back parses to
 * the same values and presence. */
#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_vmstat vm, back;
	struct ptk_strbuf b = { 0 };

	if (ptk_vmstat_parse(text, &vm) == 0) {
		FUZZ_CHECK(vm.present != 0);
		FUZZ_CHECK(vm.has_oom_kill == ptk_vmstat_has(&vm, PTK_VM_OOM_KILL));
		for (int i = 0; i < PTK_VM_NFIELDS; i++)
			if (!ptk_vmstat_has(&vm, i))
				FUZZ_CHECK(ptk_vmstat_get(&vm, i) == 0);
		ptk_vmstat_text(&vm, &b);
		FUZZ_CHECK(ptk_vmstat_parse(b.p, &back) == 0);
		FUZZ_CHECK(back.present == vm.present);
		for (int i = 0; i < PTK_VM_NFIELDS; i++)
			FUZZ_CHECK(ptk_vmstat_get(&back, i) == ptk_vmstat_get(&vm, i));
	}
	free(b.p);
	free(text);
	return 0;
}
