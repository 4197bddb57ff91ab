// SPDX-License-Identifier: GPL-2.0
#include "source/taskstats.h"

#include <errno.h>
#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdlib.h>
#include <string.h>

struct ptk_taskstats {
	struct nl_sock *sk;
	int family;
};

/* What one request collects from the callbacks. */
struct ts_reply {
	struct ptk_taskdelay *out;
	int err; /* -errno from an NLMSG_ERROR, or -EPROTO */
	bool got;
};

static int nle_to_errno(int nle)
{
	switch (-nle) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ESRCH;
	case NLE_INVAL:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int ptk_taskstats_open(struct ptk_taskstats **out)
{
	struct ptk_taskstats *ts = xcalloc(1, sizeof(*ts));
	int r;

	ts->sk = nl_socket_alloc();
	if (!ts->sk) {
		free(ts);
		return -ENOMEM;
	}
	r = genl_connect(ts->sk);
	if (r < 0) {
		r = nle_to_errno(r);
		goto out_free;
	}
	ts->family = genl_ctrl_resolve(ts->sk, TASKSTATS_GENL_NAME);
	/* the answer is one message: no NLMSG_ERROR ack left behind for the next query */
	nl_socket_disable_auto_ack(ts->sk);
	if (ts->family < 0) {
		r = -ENOENT;
		goto out_free;
	}
	*out = ts;
	return 0;
out_free:
	nl_socket_free(ts->sk);
	free(ts);
	return r;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct ts_reply *rep = arg;

	rep->err = e->error < 0 ? e->error : -EIO;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct ts_reply *rep = arg;
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1], *nest[TASKSTATS_TYPE_MAX + 1];
	struct nlattr *aggr;
	struct taskstats st;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, TASKSTATS_TYPE_MAX, NULL) < 0)
		goto err_proto;
	aggr = tb[TASKSTATS_TYPE_AGGR_PID] ? tb[TASKSTATS_TYPE_AGGR_PID] :
					     tb[TASKSTATS_TYPE_AGGR_TGID];
	if (!aggr || nla_parse_nested(nest, TASKSTATS_TYPE_MAX, aggr, NULL) < 0 ||
	    !nest[TASKSTATS_TYPE_STATS])
		goto err_proto;
	/* the kernel's struct may be older (shorter) or newer (longer) than ours */
	memset(&st, 0, sizeof(st));
	int len = nla_len(nest[TASKSTATS_TYPE_STATS]);
	memcpy(&st, nla_data(nest[TASKSTATS_TYPE_STATS]),
	       (size_t)len < sizeof(st) ? (size_t)len : sizeof(st));
	rep->out->version = st.version;
	rep->out->pid = st.ac_pid;
	rep->out->cpu_delay_ns = st.cpu_delay_total;
	rep->out->blkio_delay_ns = st.blkio_delay_total;
	rep->out->swapin_delay_ns = st.swapin_delay_total;
	rep->out->blkio_count = st.blkio_count;
	rep->out->swapin_count = st.swapin_count;
	rep->out->read_bytes = st.read_bytes;
	rep->out->write_bytes = st.write_bytes;
	rep->got = true;
	return NL_OK;
err_proto:
	rep->err = -EPROTO;
	return NL_STOP;
}

int ptk_taskstats_get(struct ptk_taskstats *ts, int id, bool tgid, struct ptk_taskdelay *out)
{
	struct ts_reply rep = { .out = out };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int r;

	memset(out, 0, sizeof(*out));
	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ts->family, 0, 0, TASKSTATS_CMD_GET,
			 TASKSTATS_VERSION) ||
	    nla_put_u32(msg, tgid ? TASKSTATS_CMD_ATTR_TGID : TASKSTATS_CMD_ATTR_PID, id) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	r = nl_send_auto(ts->sk, msg);
	nlmsg_free(msg);
	if (r < 0)
		return nle_to_errno(r);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &rep);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &rep);
	r = nl_recvmsgs(ts->sk, cb);
	nl_cb_put(cb);
	if (rep.err)
		return rep.err;
	if (r < 0)
		return nle_to_errno(r);
	return rep.got ? 0 : -EPROTO;
}

void ptk_taskstats_close(struct ptk_taskstats *ts)
{
	if (!ts)
		return;
	nl_socket_free(ts->sk);
	free(ts);
}

int ptk_delayacct_enabled(const struct ptk_src *src)
{
	char buf[32];
	ssize_t n = ptk_src_read(src, PTK_PROC, "sys/kernel/task_delayacct", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return atoi(buf) ? 1 : 0;
}
