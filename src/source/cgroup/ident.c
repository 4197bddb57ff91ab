// SPDX-License-Identifier: GPL-2.0
/*
 * What a cgroup path says about its owner (source/cgroup/cgroup.h ptk_cg_identify): the
 * naming conventions of the container runtimes and of the kubelet, under the systemd cgroup
 * driver ("docker-ID.scope", "kubepods-burstable-podUID.slice") and the cgroupfs one
 * ("/docker/ID", "/kubepods/burstable/podUID/ID"), and systemd's units.
 */
#include "source/cgroup/cgroup.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* n hex digits at p, and then not another one. */
static bool hex_run(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return !isxdigit((unsigned char)p[n]);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t l = strlen(suffix);

	return len >= l && !strncmp(s + len - l, suffix, l);
}

/* Systemd-driver scopes: PREFIX-<64 hex>.scope, and the runtime each names. */
static const struct {
	const char *prefix, *runtime;
} scopes[] = {
	{ "docker-", "docker" },
	{ "cri-containerd-", "containerd" },
	{ "crio-", "cri-o" },
	{ "libpod-", "podman" },
};

/* The pod UID in a component "...pod<UID>[.slice]" (the systemd driver writes its dashes as
 * underscores). */
static bool pod_uid(const char *comp, size_t len, char *out, size_t size)
{
	const char *p = NULL;

	for (size_t i = 0; i + 3 < len; i++)
		if (!strncmp(comp + i, "pod", 3) && (i == 0 || comp[i - 1] == '-'))
			p = comp + i + 3;
	if (!p)
		return false;
	size_t n = comp + len - p;
	if (ends_with(p, n, ".slice"))
		n -= 6;
	if (n < 32 || n > 36 || n >= size)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = p[i] == '_' ? '-' : p[i];
		if (!isxdigit((unsigned char)c) && c != '-')
			return false;
		out[i] = c;
	}
	out[n] = '\0';
	return true;
}

void ptk_cg_identify(const char *path, struct ptk_cg_ident *id)
{
	const char *p = path, *prev = NULL;
	size_t prevlen = 0;

	memset(id, 0, sizeof(*id));
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, "/");
		/* systemd units: the innermost wins */
		if ((ends_with(p, len, ".service") || ends_with(p, len, ".scope") ||
		     ends_with(p, len, ".slice") || ends_with(p, len, ".socket") ||
		     ends_with(p, len, ".mount") || ends_with(p, len, ".swap")) &&
		    len < sizeof(id->unit))
			snprintf(id->unit, sizeof(id->unit), "%.*s", (int)len, p);
		/* kubepods: QoS from the component names, pod UID from pod<UID> */
		if (!strncmp(p, "kubepods", 8)) {
			if (!id->qos[0])
				snprintf(id->qos, sizeof(id->qos), "guaranteed");
			if (strstr(p, "burstable") && strstr(p, "burstable") < p + len)
				snprintf(id->qos, sizeof(id->qos), "burstable");
			if (strstr(p, "besteffort") && strstr(p, "besteffort") < p + len)
				snprintf(id->qos, sizeof(id->qos), "besteffort");
		} else if (prev && !strncmp(prev, "kubepods", 8) && id->qos[0]) {
			/* cgroupfs driver: /kubepods/burstable/pod<UID> */
			if (len == 9 && !strncmp(p, "burstable", 9))
				snprintf(id->qos, sizeof(id->qos), "burstable");
			else if (len == 10 && !strncmp(p, "besteffort", 10))
				snprintf(id->qos, sizeof(id->qos), "besteffort");
		}
		if (id->qos[0] && !id->pod_uid[0])
			pod_uid(p, len, id->pod_uid, sizeof(id->pod_uid));
		/* container scopes of the systemd driver */
		for (size_t k = 0; k < ARRAY_SIZE(scopes); k++) {
			size_t pl = strlen(scopes[k].prefix);
			if (len == pl + 64 + 6 && !strncmp(p, scopes[k].prefix, pl) &&
			    hex_run(p + pl, 64) && ends_with(p, len, ".scope")) {
				snprintf(id->runtime, sizeof(id->runtime), "%s", scopes[k].runtime);
				snprintf(id->id, sizeof(id->id), "%.64s", p + pl);
			}
		}
		/* cgroupfs driver: a bare 64-hex component under docker/, a pod, or libpod */
		if (len == 64 && hex_run(p, 64) && !id->id[0]) {
			const char *rt = id->pod_uid[0] ? "cri" :
					 prev && prevlen == 6 && !strncmp(prev, "docker", 6) ?
							  "docker" :
							  "";
			if (rt[0]) {
				snprintf(id->runtime, sizeof(id->runtime), "%s", rt);
				snprintf(id->id, sizeof(id->id), "%.64s", p);
			}
		}
		if (prev && prevlen == 13 && !strncmp(prev, "libpod_parent", 13) &&
		    !strncmp(p, "libpod-", 7) && len == 7 + 64 && hex_run(p + 7, 64)) {
			snprintf(id->runtime, sizeof(id->runtime), "podman");
			snprintf(id->id, sizeof(id->id), "%.64s", p + 7);
		}
		/* LXC: /lxc/NAME or /lxc.payload.NAME */
		if (!id->runtime[0] && prev && prevlen == 3 && !strncmp(prev, "lxc", 3) &&
		    len < sizeof(id->id)) {
			snprintf(id->runtime, sizeof(id->runtime), "lxc");
			snprintf(id->id, sizeof(id->id), "%.*s", (int)len, p);
		} else if (!id->runtime[0] && len > 12 && !strncmp(p, "lxc.payload.", 12) &&
			   len - 12 < sizeof(id->id)) {
			snprintf(id->runtime, sizeof(id->runtime), "lxc");
			snprintf(id->id, sizeof(id->id), "%.*s", (int)(len - 12), p + 12);
		}
		prev = p;
		prevlen = len;
		p += len;
	}
	if (!id->pod_uid[0])
		id->qos[0] = '\0'; /* kubepods.slice itself is no pod */
}

const char *ptk_cg_ident_short(const struct ptk_cg_ident *id, char *buf, size_t size)
{
	if (id->runtime[0] && id->pod_uid[0])
		snprintf(buf, size, "%s %.12s (pod %.8s, %s)", id->runtime, id->id, id->pod_uid,
			 id->qos);
	else if (id->runtime[0])
		snprintf(buf, size, "%s %.12s", id->runtime, id->id);
	else if (id->pod_uid[0])
		snprintf(buf, size, "pod %s (%s)", id->pod_uid, id->qos);
	else if (id->unit[0])
		snprintf(buf, size, "%s", id->unit);
	else if (size)
		buf[0] = '\0';
	return buf;
}

const char *ptk_cg_container(const char *path, char *buf, size_t size)
{
	struct ptk_cg_ident id;

	ptk_cg_identify(path, &id);
	if (id.runtime[0])
		snprintf(buf, size, "%s:%.12s", id.runtime, id.id);
	else if (id.pod_uid[0])
		snprintf(buf, size, "pod:%.8s", id.pod_uid);
	else if (id.unit[0])
		snprintf(buf, size, "%s", id.unit);
	else if (size)
		buf[0] = '\0';
	return buf;
}

bool ptk_cg_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (n == 1 && prefix[0] == '/')
		return path[0] == '/';
	return !strncmp(path, prefix, n) && (path[n] == '\0' || path[n] == '/');
}
