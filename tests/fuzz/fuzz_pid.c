// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/{stat,statm,io,schedstat,status}: the first byte picks the file. Names (comm,
 * Name:) terminated inside their arrays and free of control characters. */
#include "fuzz.h"
#include "source/procfs/pid.h"

/* Some line of text starts with s. */
static bool line_starts(const char *text, const char *s)
{
	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, s, strlen(s)))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptk_task t;
	char *text;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % 5;
	text = fuzz_text(data + 1, size - 1);
	memset(&t, 0, sizeof(t));
	switch (which) {
	case 0:
		if (ptk_task_parse_stat(text, &t) == 0) {
			FUZZ_CHECK(fuzz_terminated(t.comm, sizeof(t.comm)));
			FUZZ_CHECK(fuzz_printable(t.comm));
			FUZZ_CHECK(t.state != '\0');
			FUZZ_CHECK(t.pid >= 0 && t.ppid >= 0);
		}
		break;
	case 1:
		if (ptk_task_parse_statm(text, &t) == 0)
			FUZZ_CHECK(t.statm_ok);
		break;
	case 2:
		/* a counter the file writes with a sign is refused, never wrapped */
		if (ptk_task_parse_io(text, &t) == 0)
			FUZZ_CHECK(!line_starts(text, "rchar: -") &&
				   !line_starts(text, "wchar: -"));
		break;
	case 3:
		if (ptk_task_parse_schedstat(text, &t) == 0)
			FUZZ_CHECK(t.sched_ok);
		break;
	case 4:
		if (ptk_task_parse_status(text, &t) == 0) {
			FUZZ_CHECK(fuzz_terminated(t.name, sizeof(t.name)));
			FUZZ_CHECK(fuzz_printable(t.name));
		}
		break;
	}
	free(text);
	return 0;
}
