/* usage.h: how a subcommand reports (usage.c): its exit codes, errors on
 * one line, bad usage, and the check of stdout before it exits. */
#ifndef TL_USAGE_H
#define TL_USAGE_H
#include <stdio.h>

/* Exit codes shared by every subcommand. */
#define EXIT_OK 0        /* success */
#define EXIT_FINDING 1   /* a finding, e.g. a significant difference */
#define EXIT_USAGE 2     /* bad usage or bad input */

/* Where this thread's messages go: stderr unless set (stats and diff read
 * files on several threads, each into a buffer printed in input order). */
extern __thread FILE *cli_err;
#define CLI_ERR (cli_err ? cli_err : stderr)

/* Prints "timeline CMD: " and the message to CLI_ERR, then a newline. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For getopt_long's '?' or ':' return C (with opterr = 0 and an optstring
 * starting with ':'): prints which option was wrong as cli_usage_error()
 * does; returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, char **argv, int c);

/* Parses the options of a command that takes only -f/--format text|json and
 * -h/--help (OPTIONS), setting *JSON. Returns -1 to go on with the arguments
 * at argv[optind], or the exit code to return now (help, usage error). */
struct option;
int cli_parse_text_json(const char *cmd, const char *usage, const struct option *options,
			int argc, char **argv, int *json);

/* Prints "timeline CMD: REASON" and "see 'timeline CMD --help'" to stderr,
 * as git does: the reason, then where the usage is, not the usage itself.
 * Returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *reason);

/* Flushes stdout; on a write error (full disk, closed pipe) reports it and
 * returns EXIT_USAGE, else RC. */
int cli_finish(const char *cmd, int rc);
#endif
