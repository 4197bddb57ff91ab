// SPDX-License-Identifier: GPL-2.0
/* Folded stacks "a;b;c COUNT": a line is taken whole or refused; counts are what the line
 * says (never a negative number read as a huge one); the total never wraps. */
#include "fuzz.h"
#include "model/folded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *p;
	struct ptk_folded *f = ptk_folded_new();
	u64 sum = 0;

	for (p = text; p;) {
		char *eol = strchr(p, '\n');
		u64 before = f->total;
		if (eol)
			*eol = '\0';
		if (ptk_folded_add_line(f, p) == 0)
			FUZZ_CHECK(f->total >= before);
		else
			FUZZ_CHECK(f->total == before);
		p = eol ? eol + 1 : NULL;
	}
	for (int i = 0; i < f->n; i++) {
		FUZZ_CHECK(f->s[i].stack && !strchr(f->s[i].stack, '\n'));
		FUZZ_CHECK(sum + f->s[i].count >= sum);
		sum += f->s[i].count;
	}
	FUZZ_CHECK(sum == f->total);
	ptk_folded_free(f);
	free(text);
	return 0;
}
