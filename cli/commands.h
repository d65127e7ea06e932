/* commands.h: the timeline subcommands and what they share.
 *
 * Adding a subcommand:
 *   1. write cli/<name>.c with one usage string, one struct option table and
 *      int cmd_<name>(int argc, char **argv), returning an EXIT_* code;
 *   2. declare it below and add it to the table in cli/timeline.c;
 *   3. document it in man/timeline.1 (SYNOPSIS = its --help) and the README;
 *   4. add tests in tests/check_cli.c that run the built program. */
#ifndef TL_COMMANDS_H
#define TL_COMMANDS_H

/* Exit codes shared by every subcommand. */
#define EXIT_OK 0        /* success */
#define EXIT_FINDING 1   /* a finding, e.g. a significant difference */
#define EXIT_USAGE 2     /* bad usage or bad input */

int cmd_copy(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

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
