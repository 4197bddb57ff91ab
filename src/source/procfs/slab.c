// SPDX-License-Identifier: GPL-2.0
/* /proc/slabinfo reader (mm/slab_common.c slab_show, "slabinfo - version: 2.1"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

int ptk_slabinfo_parse(const char *text, struct ptk_slabinfo *si)
{
	const char *p = text;

	si->n = 0;
	if (strncmp(p, "slabinfo - version: 2.", 22))
		return -EINVAL; /* 1.x (2.4 kernels) has other columns */
	while ((p = strchr(p, '\n')) && *++p) {
		struct ptk_slab sl = { 0 };
		unsigned long long v[5];
		char name[64];
		int used = 0;

		if (*p == '#')
			continue;
		/* name active_objs num_objs objsize objperslab pagesperslab : tunables ... */
		if (sscanf(p, "%63s %llu %llu %llu %llu %llu%n", name, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &used) != 6 ||
		    (p[used] != ' ' && p[used] != '\n' && p[used]))
			return -EINVAL;
		snprintf(sl.name, sizeof(sl.name), "%s", name);
		sl.active_objs = v[0];
		sl.num_objs = v[1];
		sl.objsize = v[2];
		sl.objperslab = v[3];
		sl.pagesperslab = v[4];
		if (si->n == si->cap) {
			si->cap = si->cap ? 2 * si->cap : 64;
			si->s = xrealloc(si->s, si->cap * sizeof(*si->s));
		}
		si->s[si->n++] = sl;
	}
	return 0;
}

int ptk_slabinfo_read(const struct ptk_src *src, struct ptk_slabinfo *si)
{
	struct ptk_buf b = { 0 };
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "slabinfo", &b);
	int r = n < 0 ? (int)n : ptk_slabinfo_parse(b.p, si);

	ptk_buf_free(&b);
	return r;
}

void ptk_slabinfo_free(struct ptk_slabinfo *si)
{
	free(si->s);
	memset(si, 0, sizeof(*si));
}
