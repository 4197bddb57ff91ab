// SPDX-License-Identifier: GPL-2.0
/*
 * Interactive process viewer on ncursesw. One erase() and one refresh() per frame (ncurses
 * sends only the changed cells, so nothing flickers); KEY_RESIZE redraws at the new size;
 * the terminal is restored on 'q', Ctrl-C, SIGTERM and on exit() from anywhere (atexit).
 */
#include "output/tui.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* CPU bar segments: stat column, bar character (monochrome-safe), colour pair. */
static const struct {
	int state;
	char ch;
	const char *name;
	short color;
} segs[] = {
	{ PTK_CPU_USER, '|', "us", COLOR_GREEN },      { PTK_CPU_NICE, '+', "ni", COLOR_BLUE },
	{ PTK_CPU_SYSTEM, '#', "sy", COLOR_RED },      { PTK_CPU_IRQ, '!', "hi", COLOR_YELLOW },
	{ PTK_CPU_SOFTIRQ, '*', "si", COLOR_MAGENTA }, { PTK_CPU_IOWAIT, '.', "wa", COLOR_WHITE },
	{ PTK_CPU_STEAL, '~', "st", COLOR_CYAN },
};
enum { PAIR_HEADER = 10, PAIR_SEL, PAIR_MEM, PAIR_SWAP, PAIR_STATUS };

static bool tui_active;

static void tui_restore(void)
{
	if (tui_active) {
		tui_active = false;
		curs_set(1);
		endwin();
	}
}

struct tui {
	const struct ptk_top_ops *ops;
	struct ptk_top_view *v;
	struct ptk_ctx *ctx;
	int sel; /* selected row index in order[] */
	int top; /* first row shown */
	char msg[160];
	double delay;
	bool follow; /* the user moved the selection: it follows its task when rows move */
};

static void bar(int y, int x, int w, const char *label, const double *parts, const char *chars,
		const short *pairs, int nparts, const char *text)
{
	int inner = w - (int)strlen(label) - 2;

	if (inner < 4)
		return;
	mvprintw(y, x, "%s[", label);
	int pos = 0, tl = (int)strlen(text);
	for (int i = 0; i < nparts; i++) {
		int n = (int)lround(parts[i] / 100.0 * inner);
		if (pos + n > inner)
			n = inner - pos;
		attron(COLOR_PAIR(pairs[i]));
		for (int k = 0; k < n; k++, pos++)
			addch(pos >= inner - tl ? (chtype)text[pos - (inner - tl)] :
						  (chtype)chars[i]);
		attroff(COLOR_PAIR(pairs[i]));
	}
	for (; pos < inner; pos++)
		addch(pos >= inner - tl ? (chtype)text[pos - (inner - tl)] : ' ');
	addch(']');
}

static void human_kb(u64 kb, char *buf, size_t size)
{
	ptk_human_bytes(kb * 1024, buf, size, false);
}

/* Meters; returns the number of lines used. */
static int draw_meters(struct tui *t)
{
	const struct ptk_top_frame *f = t->ops->frame;
	int W = COLS, y = 0, ncpu = 0;

	for (int c = 0; c < f->ncpu; c++)
		ncpu += f->present[c];
	int maxrows = MAX(1, (LINES - 10) / 3);
	int ncols = (ncpu + maxrows - 1) / MAX(maxrows, 1);
	ncols = MAX(1, MIN(ncols, 4));
	int rows = (ncpu + ncols - 1) / ncols, cw = W / ncols, k = 0;
	char chars[8];
	short pairs[8];
	for (size_t i = 0; i < ARRAY_SIZE(segs); i++) {
		chars[i] = segs[i].ch;
		pairs[i] = (short)(i + 1);
	}
	for (int c = 0; c < f->ncpu && rows; c++) {
		if (!f->present[c])
			continue;
		double parts[8], busy = 0;
		char label[16], text[16];
		for (size_t i = 0; i < ARRAY_SIZE(segs); i++)
			busy += parts[i] = f->percpu[c][segs[i].state];
		snprintf(label, sizeof(label), "%3d", c);
		snprintf(text, sizeof(text), "%5.1f%%", busy);
		bar(y + k % rows, (k / rows) * cw, cw - 1, label, parts, chars, pairs,
		    (int)ARRAY_SIZE(segs), text);
		k++;
	}
	y += rows;
	/* legend */
	move(y, 0);
	addstr("CPU ");
	for (size_t i = 0; i < ARRAY_SIZE(segs); i++) {
		attron(COLOR_PAIR(i + 1));
		printw("%c%s ", segs[i].ch, segs[i].name);
		attroff(COLOR_PAIR(i + 1));
	}
	printw(" all: %.1f us %.1f sy %.1f wa %.1f id", f->cpu[PTK_CPU_USER],
	       f->cpu[PTK_CPU_SYSTEM], f->cpu[PTK_CPU_IOWAIT], f->cpu[PTK_CPU_IDLE]);
	y++;
	/* memory and swap */
	const struct ptk_meminfo *mi = &f->mi;
	u64 used = mi->mem_total > mi->mem_available ? mi->mem_total - mi->mem_available : 0;
	u64 cache = mi->buffers + mi->cached + mi->sreclaimable;
	double mp[2] = { mi->mem_total ? 100.0 * used / mi->mem_total : 0,
			 mi->mem_total ? 100.0 * MIN(cache, mi->mem_total - used) / mi->mem_total :
					 0 };
	char a[16], b[16], text[48];
	human_kb(used, a, sizeof(a));
	human_kb(mi->mem_total, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	int half = W / 2;
	bar(y, 0, half - 1, "Mem", mp, "|.", (short[]){ PAIR_MEM, 6 }, 2, text);
	u64 sused = mi->swap_total > mi->swap_free ? mi->swap_total - mi->swap_free : 0;
	double sp[1] = { mi->swap_total ? 100.0 * sused / mi->swap_total : 0 };
	human_kb(sused, a, sizeof(a));
	human_kb(mi->swap_total, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	bar(y, half, W - half - 1, "Swp", sp, "|", (short[]){ PAIR_SWAP }, 1, text);
	y++;
	/* load, tasks, forks, PSI */
	mvprintw(y, 0, "Load %.2f %.2f %.2f  Tasks %d: R %d S %d D %d Z %d T %d I %d  forks/s %.1f",
		 f->la.load1, f->la.load5, f->la.load15, f->tasks.total, f->tasks.running,
		 f->tasks.sleeping - f->tasks.disk - f->tasks.idle, f->tasks.disk, f->tasks.zombie,
		 f->tasks.stopped, f->tasks.idle, f->forks_s);
	y++;
	move(y, 0);
	addstr("PSI some avg10:");
	for (int i = 0; i < PTK_PSI_NRES; i++) {
		if (isnan(f->psi10[i]))
			printw(" %s -", ptk_psi_res_name[i]);
		else
			printw(" %s %.2f%%", ptk_psi_res_name[i], f->psi10[i]);
	}
	y++;
	return y;
}

static int col_width(const struct tui *t, int col)
{
	const struct ptk_metric *m = t->ops->cols[col];
	int w = abs(t->ops->width[col]);

	return MAX(w, (int)strlen(m->name));
}

static void draw_list(struct tui *t, int y0, int y1)
{
	const struct ptk_top_frame *f = t->ops->frame;
	const struct ptk_top_view *v = t->v;
	char buf[512];
	int W = COLS;

	/* header row */
	attron(COLOR_PAIR(PAIR_HEADER));
	move(y0, 0);
	for (int x = 0; x < W; x++)
		addch(' ');
	move(y0, 0);
	for (int c = 0; c < TC_N; c++) {
		if (!v->show[c])
			continue;
		const struct ptk_metric *m = t->ops->cols[c];
		int w = col_width(t, c);
		if (c == v->sort)
			attron(A_BOLD | A_UNDERLINE);
		if (c == TC_COMMAND)
			printw("%s", m->name);
		else
			printw(t->ops->width[c] < 0 ? "%-*s " : "%*s ", w, m->name);
		if (c == v->sort)
			attroff(A_BOLD | A_UNDERLINE);
		if (getcurx(stdscr) >= W - 1)
			break;
	}
	attroff(COLOR_PAIR(PAIR_HEADER));
	int nvis = y1 - y0 - 1;
	if (t->sel >= f->norder)
		t->sel = f->norder - 1;
	if (t->sel < 0)
		t->sel = 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + nvis)
		t->top = t->sel - nvis + 1;
	if (t->top < 0)
		t->top = 0;
	for (int i = 0; i < nvis && t->top + i < f->norder; i++) {
		const struct ptk_top_row *r = &f->rows[f->order[t->top + i]];
		bool sel = t->top + i == t->sel;
		int x = 0;
		move(y0 + 1 + i, 0);
		if (sel)
			attron(COLOR_PAIR(PAIR_SEL) | A_REVERSE);
		for (int c = 0; c < TC_N && x < W; c++) {
			if (!v->show[c])
				continue;
			int w = col_width(t, c);
			if (c == TC_COMMAND)
				w = MAX(W - x, 1);
			t->ops->cell(t->ops->arg, r, c, w, buf, sizeof(buf));
			if (c == TC_COMMAND)
				printw("%-*.*s", w - (x + w >= W), w - (x + w >= W), buf);
			else
				printw(t->ops->width[c] < 0 ? "%-*.*s " : "%*.*s ", w, w, buf);
			x += w + 1;
		}
		if (sel)
			attroff(COLOR_PAIR(PAIR_SEL) | A_REVERSE);
	}
}

static void draw(struct tui *t)
{
	const struct ptk_top_frame *f = t->ops->frame;

	erase();
	int y = draw_meters(t);
	draw_list(t, y, LINES - 1);
	attron(COLOR_PAIR(PAIR_STATUS));
	if (t->msg[0])
		mvprintw(LINES - 1, 0, "%-*.*s", COLS - 1, COLS - 1, t->msg);
	else
		mvprintw(
			LINES - 1, 0, "%-*.*s", COLS - 1, COLS - 1, ({
				static char s[512];
				if (f->at_label[0])
					snprintf(s, sizeof(s),
						 "%s | [ ] step | %d/%d rows%s%s%s%s%s | q quit F6 "
						 "sort t tree \\ filter g cgroup / find f cols",
						 f->at_label, f->norder, f->nrows,
						 t->v->filter[0] ? " filter:" : "", t->v->filter,
						 t->v->cgroup[0] ? " cgroup:" : "", t->v->cgroup,
						 t->v->tree ? " tree" : "");
				else
					snprintf(
						s, sizeof(s),
						"ptk cost %.2f%% CPU | %d/%d rows%s%s%s%s%s | q quit "
						"F6 sort t tree H thr \\ filter g cgroup / find k "
						"kill r nice f cols",
						f->observer_pct, f->norder, f->nrows,
						t->v->filter[0] ? " filter:" : "", t->v->filter,
						t->v->cgroup[0] ? " cgroup:" : "", t->v->cgroup,
						t->v->tree ? " tree" : "");
				s;
			}));
	attroff(COLOR_PAIR(PAIR_STATUS));
	refresh();
}

/* Read a line at the bottom. Returns true on Enter, false on Esc/stop. */
static bool prompt(struct tui *t, const char *label, char *out, size_t size)
{
	size_t n = strlen(out);

	timeout(-1);
	for (;;) {
		attron(COLOR_PAIR(PAIR_STATUS));
		mvprintw(LINES - 1, 0, "%-*s", COLS - 1, "");
		mvprintw(LINES - 1, 0, "%s%s", label, out);
		attroff(COLOR_PAIR(PAIR_STATUS));
		refresh();
		int ch = getch();
		if (t->ctx->stop || ch == 27)
			return false;
		if (ch == '\n' || ch == KEY_ENTER || ch == '\r')
			return true;
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n)
			out[--n] = '\0';
		else if (ch == KEY_RESIZE)
			draw(t);
		else if (ch >= 32 && ch < 127 && n + 1 < size) {
			out[n++] = (char)ch;
			out[n] = '\0';
		}
	}
}

/* A vertical menu over the list; returns the chosen index or -1. */
static int menu(struct tui *t, const char *title, const char *const *items, int n, int cur)
{
	timeout(-1);
	for (;;) {
		int h = MIN(n, LINES - 4), off = cur >= h ? cur - h + 1 : 0;
		attron(COLOR_PAIR(PAIR_HEADER));
		mvprintw(1, 2, " %-24.24s ", title);
		attroff(COLOR_PAIR(PAIR_HEADER));
		for (int i = 0; i < h; i++) {
			if (off + i == cur)
				attron(A_REVERSE);
			mvprintw(2 + i, 2, " %-24.24s ", items[off + i]);
			if (off + i == cur)
				attroff(A_REVERSE);
		}
		refresh();
		int ch = getch();
		if (t->ctx->stop || ch == 27 || ch == 'q')
			return -1;
		if (ch == KEY_UP && cur > 0)
			cur--;
		else if (ch == KEY_DOWN && cur < n - 1)
			cur++;
		else if (ch == '\n' || ch == KEY_ENTER || ch == '\r' || ch == ' ')
			return cur;
		else if (ch == KEY_RESIZE)
			draw(t);
	}
}

static bool confirm(struct tui *t, const char *q)
{
	char ans[4] = "";
	char label[200];

	snprintf(label, sizeof(label), "%s [y/N] ", q);
	return prompt(t, label, ans, sizeof(ans)) && (ans[0] == 'y' || ans[0] == 'Y');
}

static const struct ptk_top_row *selected(struct tui *t)
{
	const struct ptk_top_frame *f = t->ops->frame;

	return t->sel >= 0 && t->sel < f->norder ? &f->rows[f->order[t->sel]] : NULL;
}

static void do_kill(struct tui *t)
{
	static const char *const names[] = { "15 SIGTERM", "9 SIGKILL",	 "1 SIGHUP",
					     "2 SIGINT",   "3 SIGQUIT",	 "19 SIGSTOP",
					     "18 SIGCONT", "10 SIGUSR1", "12 SIGUSR2" };
	static const int sigs[] = { SIGTERM, SIGKILL, SIGHUP,  SIGINT, SIGQUIT,
				    SIGSTOP, SIGCONT, SIGUSR1, SIGUSR2 };
	const struct ptk_top_row *r = selected(t);
	char q[200];

	if (!r)
		return;
	int pid = r->pid;
	int k = menu(t, "Send signal:", names, (int)ARRAY_SIZE(names), 0);
	if (k < 0)
		return;
	snprintf(q, sizeof(q), "Send %s to %d (%.40s)?", names[k], pid, r->cmd);
	if (!confirm(t, q))
		return;
	if (kill(pid, sigs[k]))
		snprintf(t->msg, sizeof(t->msg), "kill %d: %s", pid, strerror(errno));
	else
		snprintf(t->msg, sizeof(t->msg), "sent %s to %d", names[k], pid);
}

static void do_renice(struct tui *t, int delta)
{
	const struct ptk_top_row *r = selected(t);
	char q[200], val[16] = "";

	if (!r)
		return;
	int pid = r->pid, nice = (int)r->v[TC_NI].i + delta;
	if (!delta) {
		snprintf(q, sizeof(q), "Renice %d to: ", pid);
		if (!prompt(t, q, val, sizeof(val)) || ptk_parse_int(val, &nice))
			return;
	}
	nice = MAX(-20, MIN(19, nice));
	snprintf(q, sizeof(q), "Renice %d (%.40s) from %d to %d?", pid, r->cmd, (int)r->v[TC_NI].i,
		 nice);
	if (!confirm(t, q))
		return;
	if (setpriority(PRIO_PROCESS, pid, nice))
		snprintf(t->msg, sizeof(t->msg), "renice %d: %s", pid, strerror(errno));
	else
		snprintf(t->msg, sizeof(t->msg), "reniced %d to %d", pid, nice);
}

static void choose_sort(struct tui *t)
{
	const char *names[TC_N];

	for (int i = 0; i < TC_N; i++)
		names[i] = t->ops->cols[i]->name;
	int k = menu(t, "Sort by:", names, TC_N, t->v->sort);
	if (k >= 0) {
		t->v->sort = k;
		t->v->asc = k == TC_PID || k == TC_USER || k == TC_COMMAND || k == TC_CGROUP ||
			    k == TC_CONTAINER;
	}
}

static void choose_cols(struct tui *t)
{
	static const int extra[] = { TC_RKB, TC_WKB,	TC_MAJFLT,   TC_CSW,
				     TC_FDS, TC_CGROUP, TC_CONTAINER };
	char names[ARRAY_SIZE(extra)][48];
	const char *items[ARRAY_SIZE(extra)];
	int cur = 0;

	for (;;) {
		for (size_t i = 0; i < ARRAY_SIZE(extra); i++) {
			snprintf(names[i], sizeof(names[i]), "[%c] %s",
				 t->v->show[extra[i]] ? 'x' : ' ', t->ops->cols[extra[i]]->name);
			items[i] = names[i];
		}
		cur = menu(t, "Columns (Enter toggles):", items, (int)ARRAY_SIZE(extra), cur);
		if (cur < 0)
			return;
		t->v->show[extra[cur]] = !t->v->show[extra[cur]];
	}
}

static void find_next(struct tui *t, const char *s, int from)
{
	const struct ptk_top_frame *f = t->ops->frame;

	for (int k = 0; k < f->norder; k++) {
		int i = (from + k) % f->norder;
		if (strstr(f->rows[f->order[i]].cmd, s)) {
			t->sel = i;
			return;
		}
	}
	snprintf(t->msg, sizeof(t->msg), "not found: %s", s);
}

/* Visible columns in order, for '<' '>'. */
static void move_sort(struct tui *t, int dir)
{
	int c = t->v->sort;

	for (int k = 0; k < TC_N; k++) {
		c = (c + dir + TC_N) % TC_N;
		if (t->v->show[c])
			break;
	}
	t->v->sort = c;
}

static void keep_selection(struct tui *t, int pid)
{
	const struct ptk_top_frame *f = t->ops->frame;

	for (int i = 0; i < f->norder; i++)
		if (f->rows[f->order[i]].pid == pid) {
			t->sel = i;
			return;
		}
}

/* Handle one key. Returns 1 to quit, 2 when a new sample is needed, else 0. */
static int key(struct tui *t, int ch)
{
	struct ptk_top_view *v = t->v;
	static char search[128];

	t->msg[0] = '\0';
	switch (ch) {
	case 'q':
	case KEY_F(10):
		return 1;
	case 'P':
		v->sort = TC_CPU, v->asc = false;
		break;
	case 'M':
		v->sort = TC_MEM, v->asc = false;
		break;
	case 'T':
		v->sort = TC_TIME, v->asc = false;
		break;
	case 'N':
		v->sort = TC_PID, v->asc = true;
		break;
	case 'I':
	case 'R':
		v->asc = !v->asc;
		break;
	case '<':
		move_sort(t, -1);
		break;
	case '>':
		move_sort(t, 1);
		break;
	case KEY_F(6):
		choose_sort(t);
		break;
	case 't':
	case KEY_F(5):
		v->tree = !v->tree;
		break;
	case 'H':
		v->threads = !v->threads;
		return 2;
	case 'c':
		v->cmdline = !v->cmdline;
		return 2;
	case 'f':
	case KEY_F(2):
		choose_cols(t);
		return 2;
	case '\\':
	case KEY_F(4):
		if (!prompt(t, "Filter: ", v->filter, sizeof(v->filter)))
			v->filter[0] = '\0';
		t->sel = 0;
		break;
	case 'g': {
		/* the tasks of one cgroup and below: reading cgroups may start now (time travel:
		 * the recorded tasks' cgroups, archive version 5) */
		char cg[sizeof(v->cgroup)];
		snprintf(cg, sizeof(cg), "%s", v->cgroup);
		if (!prompt(t, "Cgroup (a path from /, empty: all): ", cg, sizeof(cg)))
			cg[0] = '\0';
		if (cg[0] && cg[0] != '/') {
			snprintf(t->msg, sizeof(t->msg), "not a cgroup path: %.60s", cg);
			break;
		}
		snprintf(v->cgroup, sizeof(v->cgroup), "%s", cg);
		t->sel = 0;
		return 2;
	}
	case '/':
	case KEY_F(3):
		search[0] = '\0';
		if (prompt(t, "Search: ", search, sizeof(search)) && search[0])
			find_next(t, search, 0);
		break;
	case 'n':
		if (search[0])
			find_next(t, search, t->sel + 1);
		break;
	case 'k':
	case KEY_F(9):
		do_kill(t);
		break;
	case 'r':
		do_renice(t, 0);
		break;
	case KEY_F(7):
		do_renice(t, -1);
		break;
	case KEY_F(8):
		do_renice(t, 1);
		break;
	case KEY_UP:
		t->sel--;
		break;
	case KEY_DOWN:
		t->sel++;
		break;
	case KEY_PPAGE:
		t->sel -= LINES / 2;
		break;
	case KEY_NPAGE:
		t->sel += LINES / 2;
		break;
	case KEY_HOME:
		t->sel = 0;
		break;
	case KEY_END:
		t->sel = t->ops->frame->norder - 1;
		break;
	case ' ':
		return 2;
	case '[': /* time travel (top --at): previous / next recorded sample */
	case ']':
		v->step += ch == '[' ? -1 : 1;
		return 2;
	}
	return 0;
}

/* The terminal set up for a viewer: 0, or PTK_EXIT_RUNTIME after saying why. */
static int tui_start(void)
{
	if (!newterm(NULL, stdout, stdin)) {
		ptk_err("cannot initialise the terminal (TERM=%s)", getenv("TERM") ?: "");
		return PTK_EXIT_RUNTIME;
	}
	tui_active = true;
	atexit(tui_restore);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors()) {
		start_color();
		use_default_colors();
		for (size_t i = 0; i < ARRAY_SIZE(segs); i++)
			init_pair((short)(i + 1), segs[i].color, -1);
		init_pair(PAIR_HEADER, COLOR_BLACK, COLOR_GREEN);
		init_pair(PAIR_SEL, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_MEM, COLOR_GREEN, -1);
		init_pair(PAIR_SWAP, COLOR_RED, -1);
		init_pair(PAIR_STATUS, COLOR_BLACK, COLOR_CYAN);
	}
	return 0;
}

static void table_draw(const struct ptk_tui_table_ops *ops, int *top, int sel)
{
	char buf[1024];
	int rows = LINES - 2, n = ops->nrows(ops->arg);

	erase();
	ops->title(ops->arg, buf, sizeof(buf));
	mvaddnstr(0, 0, buf, COLS);
	ops->header(ops->arg, buf, sizeof(buf));
	attron(COLOR_PAIR(PAIR_HEADER));
	mvprintw(1, 0, "%-*.*s", COLS, COLS, buf);
	attroff(COLOR_PAIR(PAIR_HEADER));
	if (sel < *top)
		*top = sel;
	if (rows > 0 && sel >= *top + rows)
		*top = sel - rows + 1;
	for (int i = *top; i < n && i - *top < rows; i++) {
		ops->row(ops->arg, i, buf, sizeof(buf));
		if (i == sel)
			attron(COLOR_PAIR(PAIR_SEL));
		mvprintw(2 + i - *top, 0, "%-*.*s", COLS, COLS, buf);
		if (i == sel)
			attroff(COLOR_PAIR(PAIR_SEL));
	}
	refresh();
}

int ptk_tui_table(struct ptk_ctx *ctx, const struct ptk_tui_table_ops *ops, double delay_s)
{
	int r = ops->sample(ops->arg), top = 0, sel = 0;

	if (r || (r = tui_start()))
		return r;
	u64 step = (u64)(delay_s * 1e9), next = ptk_now_ns() + step;
	while (!ctx->stop) {
		int n = ops->nrows(ops->arg), page = MAX(LINES - 3, 1), act = 0;
		sel = MAX(MIN(sel, n - 1), 0);
		table_draw(ops, &top, sel);
		u64 now = ptk_now_ns();
		timeout(now >= next ? 0 : (int)MIN((next - now) / 1000000 + 1, 1000000));
		int ch = getch();
		if (ch == 'q' || ch == 'Q' || ch == 3 || ctx->stop)
			break;
		if (ch == KEY_UP)
			sel--;
		else if (ch == KEY_DOWN)
			sel++;
		else if (ch == KEY_PPAGE)
			sel -= page;
		else if (ch == KEY_NPAGE)
			sel += page;
		else if (ch == KEY_HOME)
			sel = 0;
		else if (ch == KEY_END)
			sel = n - 1;
		else if (ch != ERR && ch != KEY_RESIZE)
			act = ops->key(ops->arg, ch);
		if (act == 2 || ptk_now_ns() >= next) {
			if ((r = ops->sample(ops->arg)))
				break;
			next = ptk_now_ns() + step;
		}
	}
	tui_restore();
	return r;
}

int ptk_tui_top(struct ptk_ctx *ctx, const struct ptk_top_ops *ops, struct ptk_top_view *view,
		double delay_s)
{
	struct tui t = { .ops = ops, .v = view, .ctx = ctx, .delay = delay_s };
	int r = ops->sample(ops->arg, view);

	if (r || (r = tui_start()))
		return r;
	u64 step = (u64)(delay_s * 1e9), next = ptk_now_ns() + step;
	ops->arrange(ops->arg, view);
	while (!ctx->stop) {
		draw(&t);
		u64 now = ptk_now_ns();
		int ms = now >= next ? 0 : (int)MIN((next - now) / 1000000 + 1, 1000000);
		timeout(ms);
		int ch = getch();
		int act = 0;
		if (ch != ERR && ch != KEY_RESIZE && (act = key(&t, ch)) == 1)
			break;
		if (ctx->stop)
			break;
		/* the selection follows its task across re-sorting and new samples */
		if (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE || ch == KEY_NPAGE ||
		    ch == KEY_END || ch == '/' || ch == KEY_F(3) || ch == 'n')
			t.follow = true;
		else if (ch == KEY_HOME || ch == '\\' || ch == KEY_F(4))
			t.follow = false;
		const struct ptk_top_row *sr = selected(&t);
		int pid = sr && t.follow ? sr->pid : -1;
		if (act == 2 || ptk_now_ns() >= next) {
			if ((r = ops->sample(ops->arg, view)))
				break;
			next = ptk_now_ns() + step;
		}
		ops->arrange(ops->arg, view);
		if (pid >= 0)
			keep_selection(&t, pid);
	}
	tui_restore();
	return r;
}
