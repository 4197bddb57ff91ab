// SPDX-License-Identifier: GPL-2.0
/* /proc/loadavg and /proc/uptime: finite, non-negative values or an error. */
#include <math.h>

#include "fuzz.h"
#include "source/procfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_loadavg la;
	struct ptk_uptime up;

	if (ptk_loadavg_parse(text, &la) == 0) {
		FUZZ_CHECK(isfinite(la.load1) && isfinite(la.load5) && isfinite(la.load15));
		FUZZ_CHECK(la.load1 >= 0 && la.load5 >= 0 && la.load15 >= 0);
		FUZZ_CHECK(la.last_pid >= 0);
	}
	if (ptk_uptime_parse(text, &up) == 0) {
		FUZZ_CHECK(isfinite(up.up_s) && isfinite(up.idle_s));
		FUZZ_CHECK(up.up_s >= 0 && up.idle_s >= 0);
	}
	free(text);
	return 0;
}
