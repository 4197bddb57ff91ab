// SPDX-License-Identifier: GPL-2.0
/* tracefs events/CAT/EVENT/format: fields inside the table, names and types terminated,
 * offsets and sizes non-negative and without overflow, look-up by name finds each field. */
#include <limits.h>

#include "fuzz.h"
#include "source/tracefs/tracefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptk_tp_format fmt;

	if (ptk_tp_format_parse(text, &fmt) == 0) {
		FUZZ_CHECK(fmt.nfields >= 0 && fmt.nfields <= PTK_TP_MAX_FIELDS);
		for (int i = 0; i < fmt.nfields; i++) {
			const struct ptk_tp_field *f = &fmt.f[i];
			FUZZ_CHECK(fuzz_terminated(f->name, sizeof(f->name)) && f->name[0]);
			FUZZ_CHECK(fuzz_terminated(f->type, sizeof(f->type)));
			FUZZ_CHECK(f->offset >= 0 && f->size >= 0);
			FUZZ_CHECK(f->offset <= INT_MAX - f->size);
			FUZZ_CHECK(ptk_tp_field_find(&fmt, f->name) != NULL);
		}
	}
	free(text);
	return 0;
}
