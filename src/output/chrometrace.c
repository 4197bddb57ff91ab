// SPDX-License-Identifier: GPL-2.0
#include "output/chrometrace.h"

#include <errno.h>
#include <string.h>

/* a JSON string: quotes, backslashes and control characters escaped */
static void jstr(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c); /* comms are bytes: keep the JSON ASCII */
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* microseconds from the trace's start, with ns precision */
static void us(FILE *out, u64 ns)
{
	fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static int32_t group_of(const struct ptk_sched_task *t)
{
	return t->pid > 0 ? t->pid : t->tid;
}

/* A metadata event naming task t's group or thread (what: "process_name", "thread_name"). */
static void name_event(FILE *out, const char *what, const struct ptk_sched_task *t)
{
	fprintf(out,
		",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what,
		group_of(t), t->tid);
	jstr(out, t->comm);
	fputs("}}", out);
}

static void slice(FILE *out, bool *first, const char *name, const char *cat, int32_t pid,
		  int32_t tid, u64 t0, u64 start, u64 dur, const struct ptk_sched_task *t,
		  const struct ptk_sched_slice *s)
{
	fputs(*first ? "\n" : ",\n", out);
	*first = false;
	fputs("{\"ph\":\"X\",\"name\":", out);
	jstr(out, name);
	fprintf(out, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", cat, pid, tid);
	us(out, start - t0);
	fputs(",\"dur\":", out);
	us(out, dur);
	if (s)
		fprintf(out,
			",\"args\":{\"tid\":%d,\"cpu\":%u,\"end_state\":\"%c\","
			"\"sched_delay_us\":%.3f,\"wait_us\":%.3f}",
			t->tid, s->cpu, s->state, s->delay / 1e3, s->wait / 1e3);
	fputc('}', out);
}

int ptk_chrome_trace_write(const struct ptk_sched *m, FILE *out)
{
	u64 t0 = m->first;
	bool first = true;
	char name[64];

	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":\"ptk sched\"},"
	      "\"traceEvents\":[",
	      out);
	/* names: the CPUs process, one thread per CPU; each task's group and thread */
	fprintf(out,
		"\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"name\":\"CPUs\"}}",
		PTK_CHROME_CPU_PID, PTK_CHROME_CPU_PID);
	first = false;
	for (int c = 0; c < m->ncpu; c++)
		fprintf(out,
			",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
			"\"args\":{\"name\":\"CPU %d\"}},"
			"\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,"
			"\"args\":{\"sort_index\":%d}}",
			PTK_CHROME_CPU_PID, PTK_CHROME_CPU_PID + 1 + c, c, PTK_CHROME_CPU_PID,
			PTK_CHROME_CPU_PID + 1 + c, c);
	for (u32 i = 0; i < m->nt; i++) {
		const struct ptk_sched_task *t = &m->t[i];
		if (!t->tid)
			continue;
		if (t->pid <= 0 || t->pid == t->tid)
			name_event(out, "process_name", t);
		name_event(out, "thread_name", t);
	}
	for (size_t i = 0; i < m->ns; i++) {
		const struct ptk_sched_slice *s = &m->s[i];
		const struct ptk_sched_task *t = &m->t[s->task];
		u64 end = s->state == '-' ? m->last : s->end;
		if (!s->tid)
			continue; /* the idle task: the gaps on a CPU track */
		snprintf(name, sizeof(name), "%s [%d]", t->comm, t->tid);
		slice(out, &first, name, "cpu", PTK_CHROME_CPU_PID, PTK_CHROME_CPU_PID + 1 + s->cpu,
		      t0, s->start, end - s->start, t, s);
		if (s->wait && s->start >= s->delay + s->wait + t0)
			slice(out, &first, "sleeping", "task", group_of(t), t->tid, t0,
			      s->start - s->delay - s->wait, s->wait, t, NULL);
		if (s->delay && s->start >= s->delay + t0)
			slice(out, &first, "runnable", "task", group_of(t), t->tid, t0,
			      s->start - s->delay, s->delay, t, NULL);
		slice(out, &first, "running", "task", group_of(t), t->tid, t0, s->start,
		      end - s->start, t, s);
	}
	for (size_t i = 0; i < m->nmig; i++) {
		const struct ptk_sched_mig *g = &m->mig[i];
		const struct ptk_sched_task *t = ptk_sched_find(m, g->tid);
		if (!t || !t->tid || g->time < t0)
			continue;
		fprintf(out,
			",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"migrate\",\"cat\":\"task\","
			"\"pid\":%d,\"tid\":%d,\"ts\":",
			group_of(t), t->tid);
		us(out, g->time - t0);
		fprintf(out, ",\"args\":{\"from_cpu\":%d,\"to_cpu\":%d}}", g->from, g->to);
	}
	fputs("\n]}\n", out);
	return ferror(out) ? -EIO : 0;
}
