// SPDX-License-Identifier: GPL-2.0
/* Decoding of struct request::cmd_flags in the layout the BPF programs hand over
 * (blk_layout.h): blktrace rwbs (libbpf-tools biosnoop) and the -F names (biolatency). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "source/bpf/blk.h"
#include "source/bpf/blk_layout.h"

#define F(n) (1u << PTK_BLK_F_##n)

static void test_rwbs(void **state)
{
	char b[8];

	(void)state;
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_READ, b), "R");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_READ | F(RAHEAD), b), "RA");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_WRITE | F(SYNC), b), "WS");
	/* preflush first, FUA after the op, then sync and meta */
	assert_string_equal(
		ptk_blk_rwbs(PTK_BLK_OP_WRITE | F(PREFLUSH) | F(FUA) | F(SYNC) | F(META), b),
		"FWFSM");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_FLUSH | F(PREFLUSH), b), "FF");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_DISCARD, b), "D");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_SECURE_ERASE, b), "DE");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_WRITE_SAME, b), "W");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_WRITE_ZEROES, b), "N");
	assert_string_equal(ptk_blk_rwbs(PTK_BLK_OP_UNKNOWN, b), "N");
}

static void test_flags_str(void **state)
{
	char b[256];

	(void)state;
	assert_string_equal(ptk_blk_flags_str(PTK_BLK_OP_WRITE | F(SYNC), b, sizeof(b)),
			    "Sync-Write");
	/* libbpf-tools biolatency's order: NoWait first, Sync last, then the op */
	assert_string_equal(
		ptk_blk_flags_str(PTK_BLK_OP_READ | F(SYNC) | F(NOWAIT) | F(META) | F(RAHEAD), b,
				  sizeof(b)),
		"NoWait-ReadAhead-Metadata-Sync-Read");
	assert_string_equal(ptk_blk_flags_str(PTK_BLK_OP_ZONE_APPEND, b, sizeof(b)), "ZoneAppend");
	assert_string_equal(ptk_blk_flags_str(PTK_BLK_OP_SCSI_OUT, b, sizeof(b)), "SCSIOut");
	assert_string_equal(ptk_blk_flags_str(0x7e, b, sizeof(b)), "Unknown");
	/* a short buffer is cut, never overrun */
	assert_string_equal(ptk_blk_flags_str(PTK_BLK_OP_WRITE | F(FUA) | F(SYNC), b, 8),
			    "FUA-Syn");
	assert_true(ptk_blk_is_write(PTK_BLK_OP_WRITE | F(FUA)));
	assert_false(ptk_blk_is_write(PTK_BLK_OP_READ | F(SYNC)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rwbs),
		cmocka_unit_test(test_flags_str),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
