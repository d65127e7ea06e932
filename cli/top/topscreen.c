/* topscreen.c: `timeline top`'s screen: the terminal in raw mode and put
 * back as it was on quitting, on SIGINT and SIGTERM and around Ctrl-Z; the
 * frame drawn with plain VT100 codes to the window's size (SIGWINCH); the
 * keys: sort, group, select, focus, pause, rate, quit. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "top.h"

#define ESC "\033"
static const char help[] =
	"q quit  space pause  < > sort  r reverse  p a e by process/app/event  "
	"j k select  f focus  R rate";

static struct termios saved;         /* the terminal as it was */
static int active;                   /* raw mode and the alternate screen are on */
static int keys_fd = -1;             /* where keys come from: stdin, if a terminal */
static volatile sig_atomic_t resized, suspended;

/* The rate prompt: open, and what was typed. */
static int prompting;
static char typed[16];

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(1, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static void on_tstp(int sig)
{
	(void)sig;
	suspended = 1;
}

/* Raw keys (no echo, no line buffering; Ctrl-C still signals), the
 * alternate screen, no cursor. */
static void enter(void)
{
	struct termios raw;
	if (keys_fd >= 0 && tcgetattr(keys_fd, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(keys_fd, TCSANOW, &raw);
	}
	put(ESC "[?1049h" ESC "[?25l" ESC "[2J", 16);
	active = 1;
}

void topscreen_end(void)
{
	if (!active)
		return;
	put(ESC "[0m" ESC "[?25h" ESC "[?1049l", 18);
	if (keys_fd >= 0)
		tcsetattr(keys_fd, TCSANOW, &saved);
	active = 0;
}

int topscreen_begin(struct top *t)
{
	struct sigaction sa;
	(void)t;
	keys_fd = isatty(0) ? 0 : -1;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, NULL);
	atexit(topscreen_end);
	enter();
	return 0;
}

/* Stops the process as Ctrl-Z asked, with the terminal as it was; takes
 * the screen back when continued. */
static void suspend(void)
{
	struct sigaction sa;
	suspended = 0;
	topscreen_end();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &sa, NULL);
	raise(SIGTSTP);
	sa.sa_handler = on_tstp;
	sigaction(SIGTSTP, &sa, NULL);
	enter();
}

/* ---- drawing ------------------------------------------------------------- */

/* Appends line S (LEN bytes) to the frame F, cut to COLS and erased to
 * its end; in reverse video with INVERSE. */
static void frame_line(FILE *f, const char *s, size_t len, int cols, int inverse, int last)
{
	fputs(inverse ? ESC "[7m" : "", f);
	fwrite(s, 1, len < (size_t)cols ? len : (size_t)cols, f);
	fputs(inverse ? ESC "[0m" ESC "[K" : ESC "[K", f);
	fputs(last ? "" : "\r\n", f);
}

static void window_size(int *rows, int *cols)
{
	struct winsize ws;
	*rows = 24;
	*cols = 80;
	if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* The third line: the focused log, the prompt, or what a key did. */
static size_t third_line(const struct top *t, char *buf, size_t size)
{
	const struct top_log *l = t->focus;
	int n;
	if (prompting && l)
		n = snprintf(buf, size, "rate of %s[%u] (all, auto, off, 1-9; Esc cancels): %s_",
			     l->name, l->pid, typed);
	else if (t->message[0])
		n = snprintf(buf, size, "%s", t->message);
	else if (l)
		n = snprintf(buf, size, "focus: %s[%u] %s (f: all logs)", l->name, l->pid,
			     l->f.in->path);
	else
		n = 0;
	return n > 0 ? (size_t)n : 0;
}

/* Builds the table shown from the logs, and the lines over it. */
static void build(struct top *t)
{
	toptable_free(&t->shown);
	toptable_build(&t->shown, t->group, t->logs, t->nlogs, t->focus);
	if (t->sort >= t->shown.ncols)
		t->sort = toptable_default_sort(t->group);
	toptable_sort(&t->shown, t->sort, t->reverse);
	top_title(t, t->title, sizeof t->title);
	top_status(t, t->status, sizeof t->status);
}

/* Draws the screen from the table shown, as it is. */
static void draw(struct top *t)
{
	char *frame = NULL, line[1024];
	size_t flen = 0, len, body, first = 0;
	int rows, cols;
	FILE *f = open_memstream(&frame, &flen);
	if (!f)
		abort();
	window_size(&rows, &cols);
	if (t->shown.nrows && t->selected >= t->shown.nrows)
		t->selected = t->shown.nrows - 1;
	body = rows > 7 ? (size_t)rows - 6 : 1;   /* title, status, third, spans, heads, help */
	if (t->selected >= body)
		first = t->selected - body + 1;
	fputs(ESC "[H", f);
	len = (size_t)snprintf(line, sizeof line, "%s%s%s", t->title, t->paused ? "  [PAUSED]" : "",
			       t->reverse ? "  [reversed]" : "");
	frame_line(f, line, len, cols, 0, 0);
	frame_line(f, t->status, strlen(t->status), cols, 0, 0);
	frame_line(f, line, third_line(t, line, sizeof line), cols, 0, 0);
	frame_line(f, line, toptable_line(&t->shown, -2, -1, line, sizeof line), cols, 0, 0);
	frame_line(f, line, toptable_line(&t->shown, -1, t->sort, line, sizeof line), cols, 1, 0);
	for (size_t r = 0; r < body; r++) {
		size_t row = first + r;
		len = row < t->shown.nrows ? toptable_line(&t->shown, (long)row, -1, line, sizeof line)
					   : 0;
		if (!t->shown.nrows && r == 0)
			len = (size_t)snprintf(line, sizeof line, "no running logs%s",
					       t->npaths ? " under the paths given" : " in the default roots");
		frame_line(f, line, len, cols, row == t->selected && row < t->shown.nrows, 0);
	}
	frame_line(f, help, sizeof help - 1, cols, 1, 1);
	fclose(f);
	put(frame, flen);
	free(frame);
}

void topscreen_draw(struct top *t)
{
	build(t);
	draw(t);
}

/* ---- keys ---------------------------------------------------------------- */

/* Sets the focused log's rate to what was typed. */
static void set_rate(struct top *t)
{
	struct top_log *l = t->focus;
	int rate = tl_rate_parse(typed);
	unsigned now;
	int fixed;
	tl_error err;
	char word[16];
	if (rate < 0) {
		snprintf(t->message, sizeof t->message, "'%s' is no rate: all, auto, off or 1-9", typed);
		return;
	}
	if (tl_rate_file(l->f.in->path, rate, &now, &fixed, &err) != TL_OK) {
		snprintf(t->message, sizeof t->message, "%s", err.msg);
		return;
	}
	l->rate = now;
	l->rate_fixed = fixed;
	tl_rate_name(word, sizeof word, now, fixed);
	snprintf(t->message, sizeof t->message, "rate of %s[%u] set to %s", l->name, l->pid, word);
}

/* A key while the rate prompt is open. */
static void prompt_key(struct top *t, int c)
{
	size_t n = strlen(typed);
	if (c == '\r' || c == '\n') {
		prompting = 0;
		set_rate(t);
	} else if (c == 27) {
		prompting = 0;
	} else if ((c == 127 || c == 8) && n) {
		typed[n - 1] = '\0';
	} else if (c > ' ' && c < 127 && n + 1 < sizeof typed) {
		typed[n] = (char)c;
		typed[n + 1] = '\0';
	}
}

/* Focuses on the selected row's log, or back on all logs. */
static void toggle_focus(struct top *t)
{
	if (t->focus || !t->shown.nrows) {
		t->focus = NULL;
		return;
	}
	if (t->selected >= t->shown.nrows)
		t->selected = t->shown.nrows - 1;
	t->focus = t->shown.rows[t->selected].log;
	t->selected = 0;
}

/* Key C (arrows as 'k' and 'j'). Returns 1 to quit; *REBUILD when the
 * rows change (group, focus), else the frame is redrawn as it is. */
static int key(struct top *t, int c, int *rebuild)
{
	if (prompting) {
		prompt_key(t, c);
		return 0;
	}
	t->message[0] = '\0';
	switch (c) {
	case 'q': return 1;
	case ' ': t->paused = !t->paused; break;
	case '<': t->sort = (t->sort + t->shown.ncols - 1) % (t->shown.ncols ? t->shown.ncols : 1); break;
	case '>': t->sort = (t->sort + 1) % (t->shown.ncols ? t->shown.ncols : 1); break;
	case 'r': t->reverse = !t->reverse; break;
	case 'j': t->selected++; break;
	case 'k': t->selected -= t->selected > 0; break;
	case 'p': case 'a': case 'e':
		t->group = c == 'p' ? TOP_BY_PROCESS : c == 'a' ? TOP_BY_APP : TOP_BY_EVENT;
		t->sort = toptable_default_sort(t->group);
		t->selected = 0;
		*rebuild = 1;
		return 0;
	case 'f': case '\r': case '\n': toggle_focus(t); *rebuild = 1; return 0;
	case 27: if (t->focus) { t->focus = NULL; *rebuild = 1; } return 0;
	case 'R':
		if (!t->focus) {
			snprintf(t->message, sizeof t->message, "focus a log first (f), then R sets its rate");
		} else {
			prompting = 1;
			typed[0] = '\0';
		}
		break;
	default: return 0;
	}
	toptable_sort(&t->shown, t->sort, t->reverse);
	return 0;
}

/* Reads the keys waiting in BUF (N bytes): an arrow is ESC [ A or B. */
static int keys(struct top *t, const unsigned char *buf, ssize_t n, int *rebuild)
{
	for (ssize_t i = 0; i < n; i++) {
		int c = buf[i];
		if (c == 27 && i + 2 < n && buf[i + 1] == '[' && (buf[i + 2] == 'A' || buf[i + 2] == 'B')) {
			c = buf[i + 2] == 'A' ? 'k' : 'j';
			i += 2;
		}
		if (key(t, c, rebuild))
			return 1;
	}
	return 0;
}

int topscreen_keys(struct top *t, uint64_t wait_ns)
{
	struct pollfd p = { keys_fd, POLLIN, 0 };
	unsigned char buf[64];
	int rebuild = 0, quit = 0;
	ssize_t n;
	if (keys_fd < 0 || poll(&p, 1, (int)(wait_ns / 1000000)) <= 0) {
		int again = suspended;
		if (keys_fd < 0)
			follow_sleep(wait_ns);
		if (again)
			suspend();
		if (resized || again) {
			resized = 0;
			draw(t);
		}
		return 0;
	}
	if ((n = read(keys_fd, buf, sizeof buf)) <= 0)
		return 0;
	quit = keys(t, buf, n, &rebuild);
	if (!quit && rebuild)
		build(t);
	if (!quit)
		draw(t);
	return quit;
}
