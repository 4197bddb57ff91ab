// SPDX-License-Identifier: GPL-2.0
/* A private tracefs instance (instance.h). */
#include "source/tracefs/instance.h"

#include <dirent.h>
#include <errno.h>
#include <event-parse.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "lib/util.h"
#include "source/tracefs/tracefs.h"

#define MAX_SYSTEMS 64

struct ptk_ftrace {
	char root[PATH_MAX]; /* tracefs */
	char name[64];
	char dir[PATH_MAX + 80];
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins; /* unloaded before tep is freed */
	bool all; /* every event enabled: every format loaded */
	int nsys;
	char *sys[MAX_SYSTEMS + 2]; /* the systems of the events enabled, NULL-terminated */
};

#define fail ptk_fail /* err[errsz], returning rc */

/* Field 22 of /proc/PID/stat, the start time in clock ticks since boot; 0 when gone. */
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (ptk_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return 0;
	/* after "(comm)": state is field 3, start time field 22 */
	for (int f = 3; f <= 22 && p; f++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/* Write s to path (O_APPEND when append): 0 or -errno. */
static int put(const char *path, const char *s, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)), rc = 0;
	size_t n = strlen(s);

	if (fd < 0)
		return -errno;
	if (write(fd, s, n) != (ssize_t)n)
		rc = -errno;
	close(fd);
	return rc;
}

static int put_at(const struct ptk_ftrace *f, const char *rel, const char *s, bool append)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	return put(path, s, append);
}

int ptk_ftrace_clean_stale(void)
{
	char root[PATH_MAX], dir[PATH_MAX + 16];
	struct dirent **ents = NULL;
	int n, gone = 0, rc;

	if ((rc = ptk_tracefs_find(root, sizeof(root))))
		return rc;
	snprintf(dir, sizeof(dir), "%s/instances", root);
	n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		int pid;
		unsigned long long st;
		char path[PATH_MAX * 2];

		if (sscanf(ents[i]->d_name, "ptk-%d-%llu", &pid, &st) == 2 && pid > 0 &&
		    start_time(pid) != st) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			if (!rmdir(path))
				gone++;
		}
		free(ents[i]);
	}
	free(ents);
	return n < 0 ? -errno : gone;
}

int ptk_ftrace_open(struct ptk_ftrace **out, char *err, size_t errsz)
{
	struct ptk_ftrace *f = xcalloc(1, sizeof(*f));
	int rc;

	if ((rc = ptk_tracefs_find(f->root, sizeof(f->root)))) {
		free(f);
		return fail(err, errsz, rc, "cannot mount tracefs: %s", strerror(-rc));
	}
	ptk_ftrace_clean_stale();
	snprintf(f->name, sizeof(f->name), "ptk-%d-%llu", getpid(), start_time(getpid()));
	snprintf(f->dir, sizeof(f->dir), "%s/instances/%s", f->root, f->name);
	if (mkdir(f->dir, 0700) && errno != EEXIST) {
		rc = -errno;
		free(f);
		return fail(err, errsz, rc, "cannot make a tracefs instance: %s", strerror(-rc));
	}
	f->inst = tracefs_instance_alloc(f->root, f->name);
	if (!f->inst) {
		rmdir(f->dir);
		free(f);
		return fail(err, errsz, -ENOMEM, "cannot use the tracefs instance");
	}
	/* new: empty and on; off until started */
	put_at(f, "tracing_on", "0", false);
	*out = f;
	return 0;
}

const char *ptk_ftrace_dir(const struct ptk_ftrace *f)
{
	return f->dir;
}

int ptk_ftrace_tracer(struct ptk_ftrace *f, const char *tracer, char *err, size_t errsz)
{
	char path[PATH_MAX * 2], buf[1024], *save = NULL;
	bool have = false;
	int rc;

	snprintf(path, sizeof(path), "%s/available_tracers", f->dir);
	if ((rc = (int)ptk_read_file(path, buf, sizeof(buf))) < 0)
		return fail(err, errsz, rc, "cannot read available_tracers: %s", strerror(-rc));
	buf[strcspn(buf, "\n")] = '\0';
	{
		char list[1024];
		snprintf(list, sizeof(list), "%s", buf);
		for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
			have |= !strcmp(t, tracer);
		if (!have)
			return fail(err, errsz, -EOPNOTSUPP,
				    "the %s tracer: this kernel has not it (available_tracers: %s)",
				    tracer, list);
	}
	if ((rc = put_at(f, "current_tracer", tracer, false)))
		return fail(err, errsz, rc == -EPERM || rc == -EACCES ? -EOPNOTSUPP : rc,
			    "the %s tracer: this kernel refuses it (writing current_tracer: %s)",
			    tracer, strerror(-rc));
	return 0;
}

int ptk_ftrace_functions(struct ptk_ftrace *f, const char *pattern, int which, char *err,
			 size_t errsz)
{
	static const char *const files[] = { "set_ftrace_filter", "set_ftrace_notrace",
					     "set_graph_function" };
	int rc = put_at(f, files[which], pattern, true);

	if (rc == -EINVAL)
		return fail(err, errsz, -EINVAL, "no traceable function matches '%s'", pattern);
	if (rc)
		return fail(err, errsz, rc == -EPERM ? -EOPNOTSUPP : rc,
			    "cannot filter the functions traced (%s): %s", files[which],
			    strerror(-rc));
	return 0;
}

int ptk_ftrace_pid(struct ptk_ftrace *f, int pid, char *err, size_t errsz)
{
	char s[32];
	int rc;

	snprintf(s, sizeof(s), "%d", pid);
	if ((rc = put_at(f, "set_event_pid", s, true)))
		return fail(err, errsz, rc, "cannot filter the events to pid %d: %s", pid,
			    strerror(-rc));
	/* the function tracer's own pid filter; refused with the tracer on some kernels */
	put_at(f, "set_ftrace_pid", s, true);
	return 0;
}

static void add_system(struct ptk_ftrace *f, const char *sys)
{
	for (int i = 0; i < f->nsys; i++)
		if (!strcmp(f->sys[i], sys))
			return;
	if (f->nsys < MAX_SYSTEMS)
		f->sys[f->nsys++] = xstrdup(sys);
}

/* Enable one event directory (events/SYS or events/SYS/EVENT) with its filter. */
static int enable_one(struct ptk_ftrace *f, const char *rel, const char *filter, char *err,
		      size_t errsz)
{
	char file[PATH_MAX];
	int rc;

	if (filter) {
		snprintf(file, sizeof(file), "%s/filter", rel);
		if ((rc = put_at(f, file, filter, false)))
			return fail(err, errsz, rc == -EINVAL ? -EINVAL : rc,
				    "invalid filter '%s' for %s: %s", filter, rel + 7,
				    strerror(-rc));
	}
	snprintf(file, sizeof(file), "%s/enable", rel);
	if ((rc = put_at(f, file, "1", false)))
		return fail(err, errsz, rc, "cannot enable %s: %s", rel + 7, strerror(-rc));
	return 0;
}

int ptk_ftrace_event(struct ptk_ftrace *f, const char *spec, const char *filter, char *err,
		     size_t errsz)
{
	char sys[128], ev[128], dir[PATH_MAX * 2];
	const char *colon = strchr(spec, ':');
	struct dirent **sents = NULL;
	int ns, matched = 0, rc = 0;

	if (!strcmp(spec, "all")) {
		f->all = true;
		snprintf(sys, sizeof(sys), "*");
		snprintf(ev, sizeof(ev), "*");
	} else {
		snprintf(sys, sizeof(sys), "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec),
			 spec);
		snprintf(ev, sizeof(ev), "%s", colon ? colon + 1 : "*");
	}
	if (!sys[0] || !ev[0] || strchr(sys, '/') || strchr(ev, '/'))
		return fail(err, errsz, -EINVAL, "invalid event '%s' (SYSTEM[:EVENT] or all)",
			    spec);
	snprintf(dir, sizeof(dir), "%s/events", f->dir);
	ns = scandir(dir, &sents, NULL, alphasort);
	for (int i = 0; i < ns; i++) {
		const char *s = sents[i]->d_name;
		char sdir[PATH_MAX * 3];
		struct dirent **eents = NULL;
		int ne;

		if (s[0] == '.' || sents[i]->d_type != DT_DIR || fnmatch(sys, s, 0))
			continue;
		if (!strcmp(ev, "*")) {
			char rel[300];
			if (snprintf(rel, sizeof(rel), "events/%s", s) >= (int)sizeof(rel))
				continue;
			if (!rc && !(rc = enable_one(f, rel, filter, err, errsz))) {
				add_system(f, s);
				matched++;
			}
			continue;
		}
		snprintf(sdir, sizeof(sdir), "%s/%s", dir, s);
		ne = scandir(sdir, &eents, NULL, alphasort);
		for (int j = 0; j < ne; j++) {
			char rel[400];

			if (!rc && eents[j]->d_type == DT_DIR && eents[j]->d_name[0] != '.' &&
			    !fnmatch(ev, eents[j]->d_name, 0) &&
			    snprintf(rel, sizeof(rel), "events/%s/%s", s, eents[j]->d_name) <
				    (int)sizeof(rel)) {
				if (!(rc = enable_one(f, rel, filter, err, errsz))) {
					add_system(f, s);
					matched++;
				}
			}
			free(eents[j]);
		}
		free(eents);
	}
	for (int i = 0; i < ns; i++)
		free(sents[i]);
	free(sents);
	if (!rc && !matched)
		return fail(err, errsz, -EINVAL, "no event matches '%s'", spec);
	return rc;
}

int ptk_ftrace_option(struct ptk_ftrace *f, const char *name, bool on, char *err, size_t errsz)
{
	char rel[128];
	int rc;

	snprintf(rel, sizeof(rel), "options/%s", name);
	if ((rc = put_at(f, rel, on ? "1" : "0", false)))
		return fail(err, errsz, rc, "cannot set option %s: %s", name, strerror(-rc));
	return 0;
}

int ptk_ftrace_buffer_kb(struct ptk_ftrace *f, int kb, char *err, size_t errsz)
{
	char s[32];
	int rc;

	snprintf(s, sizeof(s), "%d", kb);
	if ((rc = put_at(f, "buffer_size_kb", s, false)))
		return fail(err, errsz, rc, "cannot size the buffer to %d KiB: %s", kb,
			    strerror(-rc));
	return 0;
}

int ptk_ftrace_start(struct ptk_ftrace *f, char *err, size_t errsz)
{
	int rc;

	/* the formats of the events enabled (and ftrace's own: function, kernel_stack) */
	if (f->all) {
		f->tep = tracefs_local_events(f->root);
	} else {
		add_system(f, "ftrace");
		f->sys[f->nsys] = NULL;
		f->tep = tracefs_local_events_system(f->root, (const char *const *)f->sys);
	}
	if (!f->tep)
		return fail(err, errsz, -EIO, "cannot read the event formats");
	f->plugins = tep_load_plugins(f->tep);
	tracefs_load_cmdlines(f->root, f->tep);
	if ((rc = put_at(f, "tracing_on", "1", false)))
		return fail(err, errsz, rc, "cannot start tracing: %s", strerror(-rc));
	return 0;
}

struct tep_handle *ptk_ftrace_tep(struct ptk_ftrace *f)
{
	return f->tep;
}

struct read_ctx {
	int (*cb)(struct tep_event *, struct tep_record *, int, void *);
	void *ctx;
	int n;
};

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *arg)
{
	struct read_ctx *rc = arg;

	rc->n++;
	return rc->cb(ev, rec, cpu, rc->ctx);
}

int ptk_ftrace_read(struct ptk_ftrace *f,
		    int (*cb)(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx),
		    void *ctx)
{
	struct read_ctx rc = { cb, ctx, 0 };

	/* the comms of tasks seen since (saved_cmdlines) */
	tracefs_load_cmdlines(f->root, f->tep);
	if (tracefs_iterate_raw_events(f->tep, f->inst, NULL, 0, on_record, &rc) < 0)
		return -EIO;
	return rc.n;
}

unsigned long long ptk_ftrace_overruns(struct ptk_ftrace *f)
{
	unsigned long long sum = 0;

	for (int cpu = 0; cpu < 4096; cpu++) {
		char path[PATH_MAX * 2], buf[1024], *p;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", f->dir, cpu);
		if (ptk_read_file(path, buf, sizeof(buf)) <= 0)
			break;
		if ((p = strstr(buf, "overrun: ")))
			sum += strtoull(p + 9, NULL, 10);
	}
	return sum;
}

void ptk_ftrace_close(struct ptk_ftrace *f)
{
	if (!f)
		return;
	put_at(f, "tracing_on", "0", false);
	tracefs_instance_free(f->inst);
	/* the instance goes with its events, filters and buffers */
	rmdir(f->dir);
	if (f->plugins)
		tep_unload_plugins(f->plugins, f->tep);
	if (f->tep)
		tep_free(f->tep);
	for (int i = 0; i < f->nsys; i++)
		free(f->sys[i]);
	free(f);
}
