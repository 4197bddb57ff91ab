// SPDX-License-Identifier: GPL-2.0
/* perf script text collapsed as stackcollapse-perf.pl: every sample header read is counted
 * once, as output or as filtered; the folded total is the sum of its stacks; stacks hold no
 * newline and no empty frame list. The first byte picks the options. */
#include "fuzz.h"
#include "model/perfscript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptk_perfscript_opts o = { 0 };
	struct ptk_perfscript ps;
	struct ptk_folded *f;
	char *text, *p;
	u64 sum = 0;

	if (size < 1)
		return 0;
	o.pid = data[0] & 1;
	o.tid = data[0] & 2;
	o.annotate_kernel = data[0] & 4;
	o.annotate_jit = data[0] & 8;
	if (data[0] & 16)
		o.event = "cycles";
	text = fuzz_text(data + 1, size - 1);
	f = ptk_folded_new();
	ptk_perfscript_init(&ps, f, &o);
	for (p = text; p;) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		ptk_perfscript_line(&ps, p);
		p = eol ? eol + 1 : NULL;
	}
	ptk_perfscript_finish(&ps);
	FUZZ_CHECK(ps.samples_in == ps.samples_out + ps.samples_filtered);
	FUZZ_CHECK(ps.nev >= 0 && ps.nev <= PTK_PERFSCRIPT_MAX_EVENTS);
	for (int i = 0; i < f->n; i++) {
		FUZZ_CHECK(f->s[i].stack && f->s[i].stack[0]);
		FUZZ_CHECK(!strchr(f->s[i].stack, '\n'));
		sum += f->s[i].count;
	}
	FUZZ_CHECK(sum == f->total);
	ptk_perfscript_release(&ps);
	ptk_folded_free(f);
	free(text);
	return 0;
}
