// SPDX-License-Identifier: GPL-2.0
/* TEMPORARY: to be written. */
#include "cmd/cmd.h"

int cmd_iotop(struct ptk_ctx *ctx, int argc, char **argv)
{
	ptk_err("not written yet");
	return 1;
}
