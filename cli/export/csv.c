/* csv.c: `timeline export --format csv`: the header row and the rows of
 * dump --format csv (view.c prints both), with the file on every row. */
#include "export.h"

static int csv_begin(const struct export *x, struct input **in, size_t n)
{
	(void)in;
	(void)n;
	view_begin(x->view);
	return 0;
}

static void csv_entry(const struct export *x, size_t k, struct input *in, const tl_def *ev,
		      const tl_entry *e, int64_t t)
{
	(void)k;
	view_print(x->view, in, ev, e, t);
}

const struct export_format export_csv = {
	.name = "csv",
	.begin = csv_begin,
	.entry = csv_entry,
};
