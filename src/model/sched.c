// SPDX-License-Identifier: GPL-2.0
#include "model/sched.h"

#include <stdlib.h>
#include <string.h>

void ptk_sched_init(struct ptk_sched *m, bool keep_slices)
{
	memset(m, 0, sizeof(*m));
	m->keep_slices = keep_slices;
}

void ptk_sched_release(struct ptk_sched *m)
{
	free(m->t);
	free(m->hash);
	free(m->s);
	free(m->mig);
	memset(m, 0, sizeof(*m));
}

static void rehash(struct ptk_sched *m)
{
	u32 cap = m->hcap ? m->hcap * 2 : 1024;

	free(m->hash);
	m->hash = xcalloc(cap, sizeof(*m->hash));
	m->hcap = cap;
	for (u32 i = 0; i < m->nt; i++) {
		u32 h = ((u32)m->t[i].tid * 2654435761u) & (cap - 1);
		while (m->hash[h])
			h = (h + 1) & (cap - 1);
		m->hash[h] = i + 1;
	}
}

const struct ptk_sched_task *ptk_sched_find(const struct ptk_sched *m, int32_t tid)
{
	if (!m->hcap)
		return NULL;
	for (u32 h = ((u32)tid * 2654435761u) & (m->hcap - 1); m->hash[h];
	     h = (h + 1) & (m->hcap - 1))
		if (m->t[m->hash[h] - 1].tid == tid)
			return &m->t[m->hash[h] - 1];
	return NULL;
}

struct ptk_sched_task *ptk_sched_task(struct ptk_sched *m, int32_t tid)
{
	u32 h;

	if ((m->nt + 1) * 2 > m->hcap)
		rehash(m);
	for (h = ((u32)tid * 2654435761u) & (m->hcap - 1); m->hash[h]; h = (h + 1) & (m->hcap - 1))
		if (m->t[m->hash[h] - 1].tid == tid)
			return &m->t[m->hash[h] - 1];
	if (m->nt == m->capt) {
		m->capt = m->capt ? m->capt * 2 : 256;
		m->t = xrealloc(m->t, m->capt * sizeof(*m->t));
	}
	memset(&m->t[m->nt], 0, sizeof(m->t[m->nt]));
	m->t[m->nt].tid = tid;
	m->t[m->nt].pid = -1;
	m->t[m->nt].oncpu = -1;
	m->hash[h] = m->nt + 1;
	return &m->t[m->nt++];
}

static char state_char(s64 st)
{
	static const char c[] = "SDTtXZPI";

	if (!st)
		return 'R';
	for (int i = 0; i < 8; i++)
		if (st & (1 << i))
			return c[i];
	return '?';
}

static void set_comm(struct ptk_sched_task *t, const char *comm)
{
	if (comm[0])
		memcpy(t->comm, comm, sizeof(t->comm) - 1);
}

static void switch_out(struct ptk_sched *m, const struct ptk_sched_ev *e, u64 now)
{
	struct ptk_sched_task *t = ptk_sched_task(m, e->prev_pid);

	set_comm(t, e->prev_comm);
	if (t->running && t->in && now >= t->in) {
		u64 ran = now - t->in;
		t->runtime += ran;
		if (e->prev_pid && e->cpu < ARRAY_SIZE(m->cpu_busy))
			m->cpu_busy[e->cpu] += ran;
		if (t->open_slice) {
			struct ptk_sched_slice *s = &m->s[t->open_slice - 1];
			s->end = now;
			s->state = state_char(e->prev_state);
			memcpy(s->comm, t->comm, sizeof(s->comm));
		}
	}
	t->open_slice = 0;
	t->seen = true;
	t->switches++;
	t->woken_at = 0;
	t->running = false;
	t->in = 0;
	t->last_out = now;
	t->oncpu = -1;
	if (e->prev_state == 0) { /* preempted: runnable from now on */
		t->ready = now;
		t->sleeping = false;
	} else {
		t->ready = 0;
		t->sleeping = true;
	}
}

static void switch_in(struct ptk_sched *m, const struct ptk_sched_ev *e, u64 now)
{
	struct ptk_sched_task *t = ptk_sched_task(m, e->next_pid);
	u64 delay = 0, wait = 0, offcpu = 0, wdelay = 0;

	set_comm(t, e->next_comm);
	if (t->last_out && now >= t->last_out)
		offcpu = now - t->last_out;
	if (t->woken_at && now >= t->woken_at)
		wdelay = now - t->woken_at;
	t->woken_at = 0;
	if (t->open_slice) {
		/* its switch-out was lost: end that run here, so runs never overlap */
		m->s[t->open_slice - 1].end = now;
		m->s[t->open_slice - 1].state = '?';
		t->open_slice = 0;
	}
	if (!t->seen) {
		/* first heard of at its switch-in: runnable until now, as perf sched
		 * latency counts it (a delay of 0) */
		t->ready = now;
	}
	if (t->ready && now >= t->ready) {
		delay = now - t->ready;
		t->ndelay++;
		t->delay_sum += delay;
		if (delay > t->delay_max) {
			t->delay_max = delay;
			t->max_start = t->ready;
			t->max_end = now;
		}
	}
	if (t->wakeup_wait_pending) {
		wait = t->wakeup_wait;
		t->wakeup_wait_pending = false;
	}
	t->seen = true;
	t->running = true;
	t->in = now;
	t->ready = 0;
	t->sleeping = false;
	t->oncpu = (int32_t)e->cpu;
	if (m->keep_slices) {
		if (m->ns == m->caps) {
			m->caps = m->caps ? m->caps * 2 : 4096;
			m->s = xrealloc(m->s, m->caps * sizeof(*m->s));
		}
		m->s[m->ns++] = (struct ptk_sched_slice){ .start = now,
							  .end = now,
							  .wait = wait,
							  .delay = delay,
							  .offcpu = offcpu,
							  .wdelay = wdelay,
							  .cpu = e->cpu,
							  .tid = e->next_pid,
							  .task = (u32)(t - m->t),
							  .state = '-' };
		t->open_slice = m->ns;
	}
}

void ptk_sched_feed(struct ptk_sched *m, const struct ptk_sched_ev *e)
{
	u64 now = e->time;
	struct ptk_sched_task *t;

	if (now < m->last) {
		m->out_of_order++;
		now = m->last;
	}
	if (!m->events)
		m->first = now;
	m->last = now;
	m->events++;
	if ((int)e->cpu + 1 > m->ncpu && e->cpu < ARRAY_SIZE(m->cpu_busy))
		m->ncpu = e->cpu + 1;
	switch (e->kind) {
	case PTK_SCHED_SWITCH:
		if (m->keep_slices && e->cpu < ARRAY_SIZE(m->cpu_open) && m->cpu_open[e->cpu]) {
			/* the run open on this CPU ends here whoever the event says left it,
			 * so that a CPU's runs never overlap */
			struct ptk_sched_slice *s = &m->s[m->cpu_open[e->cpu] - 1];
			if (s->state == '-' && s->tid != e->prev_pid) {
				struct ptk_sched_task *o = &m->t[s->task];
				m->mismatched++;
				s->end = now;
				s->state = '?';
				memcpy(s->comm, o->comm, sizeof(s->comm));
				if (o->open_slice == m->cpu_open[e->cpu])
					o->open_slice = 0;
			}
		}
		switch_out(m, e, now);
		switch_in(m, e, now);
		if (m->keep_slices && e->cpu < ARRAY_SIZE(m->cpu_open))
			m->cpu_open[e->cpu] = m->ns;
		break;
	case PTK_SCHED_WAKEUP:
		t = ptk_sched_task(m, e->next_pid);
		set_comm(t, e->next_comm);
		t->seen = true;
		if (!t->running && !t->woken_at)
			t->woken_at = now;
		/* a wakeup of a running or already runnable task changes nothing */
		if (!t->running && !t->ready) {
			if (t->sleeping && t->last_out && now >= t->last_out) {
				t->wait_sum += now - t->last_out;
				t->wakeup_wait = now - t->last_out;
				t->wakeup_wait_pending = true;
			}
			t->ready = now;
			t->sleeping = false;
		}
		break;
	case PTK_SCHED_MIGRATE:
		t = ptk_sched_task(m, e->next_pid);
		set_comm(t, e->next_comm);
		t->migrations++;
		m->migrations++;
		if (m->keep_slices) {
			if (m->nmig == m->capmig) {
				m->capmig = m->capmig ? m->capmig * 2 : 1024;
				m->mig = xrealloc(m->mig, m->capmig * sizeof(*m->mig));
			}
			m->mig[m->nmig++] =
				(struct ptk_sched_mig){ now, e->next_pid, e->cpu2, e->cpu3 };
		}
		break;
	}
}

static int ev_cmp(const void *a, const void *b)
{
	const struct ptk_sched_ev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ptk_sched_sort(struct ptk_sched_ev *e, size_t n)
{
	if (n > 1)
		qsort(e, n, sizeof(*e), ev_cmp);
}
