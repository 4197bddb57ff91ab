// SPDX-License-Identifier: GPL-2.0
#include "model/metric.h"

#include <inttypes.h>

const char *ptk_metric_fmt(const struct ptk_metric *m, const struct ptk_val *v, char *buf,
			   size_t size)
{
	if (v->na) {
		snprintf(buf, size, "-");
		return buf;
	}
	switch (m->type) {
	case PTK_V_STR:
		snprintf(buf, size, "%s", v->s ? v->s : "");
		break;
	case PTK_V_U64:
		snprintf(buf, size, "%" PRIu64, v->u);
		break;
	case PTK_V_S64:
		snprintf(buf, size, "%" PRId64, v->i);
		break;
	case PTK_V_F64:
		snprintf(buf, size, "%.*f", m->prec, v->f);
		break;
	}
	return buf;
}
