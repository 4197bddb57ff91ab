// SPDX-License-Identifier: GPL-2.0
/* /proc/pressure/{cpu,memory,io}: averages are shares of wall time, 0..100 and finite. */
#include <math.h>

#include "fuzz.h"
#include "source/procfs/procfs.h"

static void check_line(const struct ptk_psi_line *l)
{
	if (!l->present)
		return;
	FUZZ_CHECK(isfinite(l->avg10) && isfinite(l->avg60) && isfinite(l->avg300));
	FUZZ_CHECK(l->avg10 >= 0 && l->avg10 <= 100 && l->avg60 >= 0 && l->avg60 <= 100 &&
		   l->avg300 >= 0 && l->avg300 <= 100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_psi psi;

	if (ptk_psi_parse(text, &psi) == 0) {
		check_line(&psi.some);
		check_line(&psi.full);
	}
	free(text);
	return 0;
}
