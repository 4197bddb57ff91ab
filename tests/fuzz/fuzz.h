/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c). Each harness feeds one parser the
 * fuzzer's bytes and checks invariants of what came out, not only that nothing crashed:
 * names terminated inside their buffers, counts within range, what went in accounted for.
 * FUZZ_CHECK aborts with the invariant's text, which libFuzzer reports as a crash and saves
 * the input (make fuzz; found inputs become seeds in tests/fuzz/corpus/NAME/).
 */
#ifndef PTK_TESTS_FUZZ_H
#define PTK_TESTS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libFuzzer's entry point, defined by each harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                     \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                      \
			abort();                                                             \
		}                                                                            \
	} while (0)

/* The input as a NUL-terminated string (the readers parse text that ptk_src_read
 * terminated); embedded NULs end the text early, as they would there. Free it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* buf[size] holds a NUL: a name that cannot run past its array. */
static inline bool fuzz_terminated(const char *buf, size_t size)
{
	return memchr(buf, '\0', size) != NULL;
}

/* No byte of s is a control character (what the readers promise for names they escape). */
static inline bool fuzz_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			return false;
	return true;
}

#endif
