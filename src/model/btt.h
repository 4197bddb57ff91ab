/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt's latencies of block I/O, from a stream of per-request events in blkparse's actions:
 * Q (a bio queued), G (a request made for it), M/F (a bio merged into one), I (the request
 * inserted), D (issued to the device), C (completed). Each I/O is followed by its device
 * and sector: Q2G, G2I, I2D, D2C for the request, Q2M and M2D for a merged bio, Q2C for
 * every bio the request completed, and Q2Q between consecutive bios; each as btt's MIN,
 * AVG, MAX and N.
 */
#ifndef PTK_MODEL_BTT_H
#define PTK_MODEL_BTT_H

#include <stdio.h>

#include "lib/util.h"

enum ptk_btt_stage {
	PTK_BTT_Q2Q,
	PTK_BTT_Q2G,
	PTK_BTT_G2I,
	PTK_BTT_Q2M,
	PTK_BTT_I2D,
	PTK_BTT_M2D,
	PTK_BTT_D2C,
	PTK_BTT_Q2C,
	PTK_BTT_NSTAGES
};

/* The stage's name, "Q2Q" ... "Q2C". */
const char *ptk_btt_stage_name(enum ptk_btt_stage s);

struct ptk_btt_stat {
	u64 n;
	u64 min_ns, max_ns;
	double sum_ns;
};

struct ptk_btt;

struct ptk_btt *ptk_btt_new(void);
void ptk_btt_free(struct ptk_btt *b);

/* One event: action 'Q' 'G' 'M' 'F' 'I' 'D' 'C' (others ignored), of the I/O at sector
 * (nr_sector long) of device dev, at t_ns (any monotonic clock). */
void ptk_btt_event(struct ptk_btt *b, char action, u32 dev, u64 sector, u32 nr_sector, u64 t_ns);

/* The statistics of stage s so far. */
const struct ptk_btt_stat *ptk_btt_stat(const struct ptk_btt *b, enum ptk_btt_stage s);

/* btt's "All Devices" table: "ALL MIN AVG MAX N" in seconds, a line per stage with data. */
void ptk_btt_print(const struct ptk_btt *b, FILE *out);

#endif
