/* commands.h: the timeline subcommands, and what each needs to report
 * (usage.h).
 *
 * Adding a subcommand:
 *   1. write cli/<name>.c (or cli/<family>/<name>.c, beside the commands it
 *      belongs with) with one usage string, one struct option table and
 *      int cmd_<name>(int argc, char **argv), returning an EXIT_* code;
 *   2. declare it below and add it to the table in cli/main.c;
 *   3. document it in man/timeline.1 (SYNOPSIS = its --help), the README
 *      and cli/README.md;
 *   4. add tests in tests/check_cli.c that run the built program. */
#ifndef TL_COMMANDS_H
#define TL_COMMANDS_H

#include "usage.h"

int cmd_arm(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_freeze(int argc, char **argv);
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

#endif
