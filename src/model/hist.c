// SPDX-License-Identifier: GPL-2.0
#include "model/hist.h"

#include <json-c/json.h>
#include <string.h>

int ptk_log2_slot(u64 v)
{
	return v <= 1 ? 0 : 63 - __builtin_clzll(v);
}

void ptk_hist_bounds(const struct ptk_hist *h, int i, u64 *low, u64 *high)
{
	if (h->linear) {
		*low = (u64)h->lin_min + (u64)i * h->lin_step;
		*high = *low + h->lin_step - 1;
		return;
	}
	/* as libbpf-tools print_log2_hist: 0 -> 1, 2 -> 3, 4 -> 7, ... */
	*low = i == 0 ? 0 : 1ull << i;
	*high = i >= 63 ? ~0ull : (1ull << (i + 1)) - 1;
}

u64 ptk_hist_total(const struct ptk_hist *h)
{
	u64 t = 0;

	for (int i = 0; i < PTK_HIST_SLOTS; i++)
		t += h->slot[i];
	return t;
}

u64 ptk_hist_pct_le(const struct ptk_hist *h, double p)
{
	u64 total = ptk_hist_total(h), seen = 0, low, high;

	if (!total)
		return 0;
	/* the rank of the p-th percentile value, 1-based */
	u64 rank = (u64)(p / 100.0 * total + 0.999999);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < PTK_HIST_SLOTS; i++) {
		seen += h->slot[i];
		if (seen >= rank) {
			ptk_hist_bounds(h, i, &low, &high);
			return high;
		}
	}
	return 0;
}

void ptk_hist_add(struct ptk_hist *a, const struct ptk_hist *b)
{
	for (int i = 0; i < PTK_HIST_SLOTS; i++)
		a->slot[i] += b->slot[i];
}

static void stars(FILE *f, u64 val, u64 max, int width)
{
	int n = max ? (int)((val < max ? val : max) * width / max) : 0;

	for (int i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', f);
}

/* A bound as text: signed in a linear histogram (its minimum may be negative). */
static const char *bound(const struct ptk_hist *h, u64 v, char *buf, size_t size)
{
	if (h->linear)
		snprintf(buf, size, "%" PRId64, (s64)v);
	else
		snprintf(buf, size, "%" PRIu64, v);
	return buf;
}

static struct json_object *bound_json(const struct ptk_hist *h, u64 v)
{
	return h->linear ? json_object_new_int64((s64)v) : json_object_new_uint64(v);
}

void ptk_hist_print(FILE *f, const struct ptk_hist *h)
{
	char b[4][24];
	int idx_max = -1;
	u64 max = 0, low, high;

	for (int i = 0; i < PTK_HIST_SLOTS; i++) {
		if (h->slot[i])
			idx_max = i;
		if (h->slot[i] > max)
			max = h->slot[i];
	}
	if (idx_max >= 0 && h->linear) {
		fprintf(f, "     %-13s : count     distribution\n", h->unit);
		for (int i = 0; i <= idx_max; i++) {
			ptk_hist_bounds(h, i, &low, &high);
			fprintf(f, "        %-10s : %-8" PRIu64 " |", bound(h, low, b[0], 24),
				h->slot[i]);
			stars(f, h->slot[i], max, 40);
			fputs("|\n", f);
		}
	} else if (idx_max >= 0) {
		bool wide = idx_max > 32;
		fprintf(f, "%*s%-*s : count    distribution\n", wide ? 15 : 5, "", wide ? 29 : 19,
			h->unit);
		for (int i = 0; i <= idx_max; i++) {
			ptk_hist_bounds(h, i, &low, &high);
			fprintf(f, "%*" PRIu64 " -> %-*" PRIu64 " : %-8" PRIu64 " |",
				wide ? 20 : 10, low, wide ? 20 : 10, high, h->slot[i]);
			stars(f, h->slot[i], max, wide ? 20 : 40);
			fputs("|\n", f);
		}
	}
	fprintf(f,
		"count %" PRIu64
		"  p50 <= %s  p90 <= %s  p99 <= %s  max <= %s %s (bucket upper bounds)\n",
		ptk_hist_total(h), bound(h, ptk_hist_pct_le(h, 50), b[0], 24),
		bound(h, ptk_hist_pct_le(h, 90), b[1], 24),
		bound(h, ptk_hist_pct_le(h, 99), b[2], 24),
		bound(h, ptk_hist_pct_le(h, 100), b[3], 24), h->unit);
}

struct json_object *ptk_hist_json(const struct ptk_hist *h)
{
	struct json_object *o = json_object_new_object(), *b = json_object_new_array();
	u64 low, high;

	json_object_object_add(o, "unit", json_object_new_string(h->unit));
	json_object_object_add(o, "total", json_object_new_uint64(ptk_hist_total(h)));
	json_object_object_add(o, "p50_le", bound_json(h, ptk_hist_pct_le(h, 50)));
	json_object_object_add(o, "p90_le", bound_json(h, ptk_hist_pct_le(h, 90)));
	json_object_object_add(o, "p99_le", bound_json(h, ptk_hist_pct_le(h, 99)));
	json_object_object_add(o, "max_le", bound_json(h, ptk_hist_pct_le(h, 100)));
	for (int i = 0; i < PTK_HIST_SLOTS; i++) {
		if (!h->slot[i])
			continue;
		struct json_object *x = json_object_new_object();
		ptk_hist_bounds(h, i, &low, &high);
		json_object_object_add(x, "low", bound_json(h, low));
		json_object_object_add(x, "high", bound_json(h, high));
		json_object_object_add(x, "count", json_object_new_uint64(h->slot[i]));
		json_object_array_add(b, x);
	}
	json_object_object_add(o, "buckets", b);
	return o;
}
