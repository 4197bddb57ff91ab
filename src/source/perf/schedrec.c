// SPDX-License-Identifier: GPL-2.0
#include "source/perf/schedrec.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

static const char *const tp_name[SR_N] = { "sched_switch", "sched_wakeup", "sched_wakeup_new",
					   "sched_migrate_task" };

/* An integer field (1..8 bytes, sign per format); 0 when absent or out of the record. */
static s64 field_int(const struct ptk_tp_format *fmt, const char *name, const unsigned char *raw,
		     u32 size, bool *ok)
{
	const struct ptk_tp_field *f = ptk_tp_field_find(fmt, name);
	s64 v = 0;

	if (!f || f->offset < 0 || (u32)(f->offset + f->size) > size || f->size > 8 ||
	    f->size < 1) {
		*ok = false;
		return 0;
	}
	switch (f->size) {
	case 1:
		v = f->is_signed ? (s64)(int8_t)raw[f->offset] : raw[f->offset];
		break;
	case 2: {
		uint16_t x;
		memcpy(&x, raw + f->offset, 2);
		v = f->is_signed ? (s64)(int16_t)x : x;
		break;
	}
	case 4: {
		u32 x;
		memcpy(&x, raw + f->offset, 4);
		v = f->is_signed ? (s64)(int32_t)x : x;
		break;
	}
	default:
		memcpy(&v, raw + f->offset, 8);
		break;
	}
	return v;
}

/* A comm: a char[16] array or a __data_loc string (u32: length << 16 | offset). */
static void field_str(const struct ptk_tp_format *fmt, const char *name, const unsigned char *raw,
		      u32 size, char *out, size_t outsz)
{
	const struct ptk_tp_field *f = ptk_tp_field_find(fmt, name);
	u32 off, len;

	out[0] = '\0';
	if (!f || f->offset < 0 || (u32)(f->offset + f->size) > size)
		return;
	if (f->is_data_loc) {
		u32 dl;
		memcpy(&dl, raw + f->offset, 4);
		off = dl & 0xffff;
		len = dl >> 16;
	} else {
		off = f->offset;
		len = f->size;
	}
	if (off + len > size)
		return;
	if (len >= outsz)
		len = outsz - 1;
	memcpy(out, raw + off, len);
	out[len] = '\0';
	out[strnlen(out, len)] = '\0';
}

int ptk_schedrec_decode(const struct ptk_tp_format *fmt, int k, const unsigned char *raw, u32 size,
			struct ptk_sched_ev *e)
{
	bool ok = true;

	switch (k) {
	case SR_SWITCH:
		e->kind = PTK_SCHED_SWITCH;
		field_str(fmt, "prev_comm", raw, size, e->prev_comm, sizeof(e->prev_comm));
		field_str(fmt, "next_comm", raw, size, e->next_comm, sizeof(e->next_comm));
		e->prev_pid = (int32_t)field_int(fmt, "prev_pid", raw, size, &ok);
		e->prev_prio = (int32_t)field_int(fmt, "prev_prio", raw, size, &ok);
		e->prev_state = field_int(fmt, "prev_state", raw, size, &ok);
		e->next_pid = (int32_t)field_int(fmt, "next_pid", raw, size, &ok);
		e->next_prio = (int32_t)field_int(fmt, "next_prio", raw, size, &ok);
		break;
	case SR_WAKEUP:
	case SR_WAKEUP_NEW:
		e->kind = PTK_SCHED_WAKEUP;
		field_str(fmt, "comm", raw, size, e->next_comm, sizeof(e->next_comm));
		e->next_pid = (int32_t)field_int(fmt, "pid", raw, size, &ok);
		e->next_prio = (int32_t)field_int(fmt, "prio", raw, size, &ok);
		e->cpu2 = (int32_t)field_int(fmt, "target_cpu", raw, size, &ok);
		break;
	case SR_MIGRATE:
		e->kind = PTK_SCHED_MIGRATE;
		field_str(fmt, "comm", raw, size, e->next_comm, sizeof(e->next_comm));
		e->next_pid = (int32_t)field_int(fmt, "pid", raw, size, &ok);
		e->next_prio = (int32_t)field_int(fmt, "prio", raw, size, &ok);
		e->cpu2 = (int32_t)field_int(fmt, "orig_cpu", raw, size, &ok);
		e->cpu3 = (int32_t)field_int(fmt, "dest_cpu", raw, size, &ok);
		break;
	default:
		return -EINVAL;
	}
	return ok ? 0 : -EINVAL;
}

int ptk_schedrec_open(struct ptk_schedrec *r, int data_pages)
{
	struct ptk_perf_target all = { .kind = PTK_PERF_CPUS };
	int err = 0;

	memset(r, 0, sizeof(*r));
	for (int k = 0; k < SR_N; k++) {
		struct perf_event_attr a;
		u64 id;
		int e = ptk_tp_id_read("sched", tp_name[k], &id);
		if (!e)
			e = ptk_tp_format_read("sched", tp_name[k], &r->fmt[k]);
		if (e) {
			if (k == SR_SWITCH) {
				err = e;
				break;
			}
			continue;
		}
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = id;
		a.sample_period = 1;
		a.sample_type =
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
		a.disabled = 1;
		/* wake the reader when a quarter of the ring is used */
		a.watermark = 1;
		a.wakeup_watermark = (u32)((size_t)data_pages * 4096 / 4);
		e = ptk_perf_sampler_open(&r->s[k], &a, &all, data_pages);
		if (e) {
			if (k == SR_SWITCH) {
				err = e;
				break;
			}
			continue;
		}
		r->open[k] = true;
	}
	if (err)
		ptk_schedrec_close(r);
	return err;
}

int ptk_schedrec_pollfds(const struct ptk_schedrec *r, struct pollfd *pf, int max)
{
	int n = 0;

	for (int k = 0; k < SR_N; k++)
		for (int i = 0; r->open[k] && i < r->s[k].nring && n < max; i++)
			pf[n++] = (struct pollfd){ .fd = r->s[k].ring[i].fd, .events = POLLIN };
	return n;
}

void ptk_schedrec_enable(struct ptk_schedrec *r, bool on)
{
	for (int k = 0; k < SR_N; k++)
		for (int i = 0; r->open[k] && i < r->s[k].nfd; i++)
			ioctl(r->s[k].fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
			      0);
}

struct rd {
	struct ptk_schedrec *r;
	int k;
	size_t added;
};

/* PERF_RECORD_SAMPLE for TID | TIME | CPU | RAW: u32 pid, tid; u64 time; u32 cpu, res;
 * u32 size; raw bytes */
static int on_record(const struct perf_event_header *h, void *arg)
{
	struct rd *d = arg;
	struct ptk_schedrec *r = d->r;
	const unsigned char *p = (const unsigned char *)(h + 1);
	struct ptk_sched_ev e;
	u32 cpu, rawsz;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (h->size < sizeof(*h) + 24) {
		r->bad++;
		return 0;
	}
	memset(&e, 0, sizeof(e));
	memcpy(&e.time, p + 8, 8);
	memcpy(&cpu, p + 16, 4);
	memcpy(&rawsz, p + 24, 4);
	if (sizeof(*h) + 28 + (size_t)rawsz > h->size ||
	    ptk_schedrec_decode(&r->fmt[d->k], d->k, p + 28, rawsz, &e)) {
		r->bad++;
		return 0;
	}
	e.cpu = cpu;
	e.seq = r->seq++;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 65536;
		r->ev = xrealloc(r->ev, r->cap * sizeof(*r->ev));
	}
	r->ev[r->n++] = e;
	d->added++;
	return 0;
}

size_t ptk_schedrec_read(struct ptk_schedrec *r)
{
	struct rd d = { .r = r };

	for (int k = 0; k < SR_N; k++) {
		if (!r->open[k])
			continue;
		d.k = k;
		ptk_perf_sampler_read(&r->s[k], on_record, &d);
	}
	return d.added;
}

u64 ptk_schedrec_lost(const struct ptk_schedrec *r)
{
	u64 n = 0;

	for (int k = 0; k < SR_N; k++)
		if (r->open[k])
			n += ptk_perf_sampler_lost(&r->s[k]);
	return n;
}

void ptk_schedrec_close(struct ptk_schedrec *r)
{
	for (int k = 0; k < SR_N; k++)
		if (r->open[k])
			ptk_perf_sampler_close(&r->s[k]);
	free(r->ev);
	memset(r, 0, sizeof(*r));
}
