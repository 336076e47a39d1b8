/* cli.h - what every `pcsim` command shares: exit codes, error printing,
 * atomic output files, signal handling and scenario loading.
 *
 * Internal to the pcsim binary (sim/cli/main.c and sim/cli/cmd_*.c).
 *
 * The command line's error contract, in one place (pcs_cli_fail()):
 *   - every error is ONE line on stderr, "pcsim COMMAND: MESSAGE"
 *     ("pcsim: MESSAGE" before a command is known);
 *   - MESSAGE starts with where the fault is: "FILE:LINE: " or "FILE: " for
 *     a file (pcs_input_error()), "--option 'value': " for an option, and a
 *     usage error ends with "(see pcsim COMMAND --help)";
 *   - exit status by PcsError code: PCS_EXIT_INPUT (2) for bad input and
 *     limits (PCS_ERROR_INPUT, PCS_ERROR_LIMIT, usage), PCS_EXIT_IO (1) for
 *     a failed read or write of an output (PCS_ERROR_IO and any non-pcsim
 *     GError), 128 + signal when interrupted (PCS_ERROR_CANCELLED).
 */
#ifndef PCSIM_CLI_H
#define PCSIM_CLI_H

#include "pcsim/fio.h"
#include "pcsim/params.h"

#include <stdio.h>

#define PCS_EXIT_OK 0
#define PCS_EXIT_IO 1    /* an output could not be written, or another I/O failure */
#define PCS_EXIT_INPUT 2 /* bad input, over a limit, or a usage error */

/* Set by SIGINT/SIGTERM to the signal number; polled by long work. */
extern volatile int pcs_cli_signal;
void pcs_cli_signals_install(void);

/* The exit status for ERROR, by the mapping above. */
int pcs_cli_exit_status(const GError *error);
/* Prints ERROR as "pcsim COMMAND: MESSAGE", frees it and returns its exit
 * status (pcs_cli_exit_status()). */
int pcs_cli_fail(GError *error);
/* g_option_context_parse() whose errors are usage errors (exit 2); -h,
 * --help and -? print pcs_cli_help() and exit 0; a short option's value
 * may be attached ("-j1", "-pwindow") as getopt() allows.  CTX comes from
 * pcs_cli_context(). */
gboolean pcs_cli_parse(GOptionContext *ctx, int *argc, char ***argv, GError **error);
/* A usage error: prints "pcsim COMMAND: MESSAGE (see pcsim COMMAND --help)"
 * and returns PCS_EXIT_INPUT. */
int pcs_cli_usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* S on stdout; on failure prints "pcsim COMMAND: standard output: ..." and
 * returns FALSE (the caller exits PCS_EXIT_IO).  pcs_cli_write_file(NULL,
 * ...) is the same with a GError instead of the message. */
gboolean pcs_cli_write_stdout(const GString *s);
/* Writes S to PATH.tmp and renames it to PATH; PATH "-" or NULL is stdout.
 * On failure nothing is left behind. */
gboolean pcs_cli_write_file(const char *path, const GString *s, GError **error);
/* The one rule of every output option (--out, --trace, --ftrace,
 * --blktrace, --script): the file PATH (or, with FOLDER, the folder) may be
 * created, its parent folder must exist; a missing parent, or an existing
 * path of the other kind, is bad input naming OPTION and PATH
 * ("--trace /nonexistent/x.tsv: folder /nonexistent does not exist").
 * Commands call it before any work, so a refused run writes nothing.  NULL
 * (standard output) passes. */
gboolean pcs_cli_output_check(const char *option, const char *path, gboolean folder, GError **error);
/* How an output to PATH is written (pcs_cli_output_target()). */
typedef enum {
  PCS_CLI_OUT_ERROR,  /* a symbolic link that loops or cannot be read */
  PCS_CLI_OUT_RENAME, /* a regular file, or a new one: a temporary file beside it, renamed over it */
  PCS_CLI_OUT_COPY,   /* a device or a FIFO: a temporary file, copied to it when complete */
  PCS_CLI_OUT_STDOUT, /* the process's standard output (/dev/stdout, a redirected file named again) */
} PcsCliOutputMode;
/* The kernel's MAXSYMLINKS: links followed at most. */
#define PCS_CLI_MAX_SYMLINKS 40
/* Where an output to PATH goes: a regular file (or a new one) is written
 * under a temporary name beside it and renamed over it when complete, a
 * symbolic link followed to the file it names (*TARGET; the link stays a
 * link); a device or FIFO gets the output copied in when complete; the
 * process's standard output is written through stdout (its position and
 * append mode kept).  *TARGET (RENAME only): g_free it. */
PcsCliOutputMode pcs_cli_output_target(const char *path, char **target, GError **error);
/* An output that exists only under its temporary name until
 * pcs_cli_output_commit() renames or copies it; pcs_cli_output_abort()
 * removes the temporary file, never PATH.  F is the temporary file
 * (seekable, whatever PATH is).  Messages name PATH as the user gave it. */
typedef struct {
  PcsCliOutputMode mode;
  char *path, *target, *tmp;
  FILE *f;
} PcsCliOutput;
gboolean pcs_cli_output_open(PcsCliOutput *o, const char *path, GError **error);
gboolean pcs_cli_output_commit(PcsCliOutput *o, GError **error);
void pcs_cli_output_abort(PcsCliOutput *o);

/* Defaults, then PATH (if any: a file or a shipped scenario's name,
 * pcs_scenario_read()), then each --set, then --seed; validated. */
gboolean pcs_cli_load_scenario(const char *path, char **sets, const char *seed, PcsParams *p, GError **error);
/* The same from TEXT (if any) read already, NAME naming it in messages. */
gboolean pcs_cli_load_scenario_text(const char *name, const char *text, char **sets, const char *seed, PcsParams *p,
                                    GError **error);
/* The scenario a fio job runs on without --model (Linux 6.18 on btrfs,
 * shipped with pcsim): a shipped scenario's name, pcs_scenario_read().  g_free it.
 * `calibrate` bases a 6.x trace's scenario on it too. */
char *pcs_cli_default_model(void);
/* The fio job PATH (a file or shipped name), read already by
 * pcs_scenario_read() as NAME and TEXT (read once: PATH may be a pipe), on
 * MODEL (NULL: the default scenario for fio jobs, named on stderr), as
 * `pcsim run JOB.fio` loads it, into P (which records what the outputs
 * report of the job).  Then pcs_cli_load_scenario_text(NAME, NULL, ...). */
gboolean pcs_cli_fio_scenario(PcsParams *p, const char *model, const char *path, const char *name, const char *text,
                              GError **error);
/* --policy values (each may be a comma list), or scenario.policies. */
gboolean pcs_cli_policies(const PcsParams *p, char **given, GArray *out, GError **error);
/* A GOption context for one command: PARAMETERS "SYNOPSIS - summary"
 * ("SCENARIO|JOB.fio - simulate ..."), --help DESCRIPTION. */
GOptionContext *pcs_cli_context(const char *parameters, const char *description, const GOptionEntry *entries);
/* The --help text of CTX: "Usage:\n  pcsim COMMAND SYNOPSIS [OPTION...]\n\nSummary.\n",
 * then GLib's option lists and DESCRIPTION.  g_free it. */
char *pcs_cli_help(GOptionContext *ctx);

/* --seeds N: at most this many seeds. */
#define PCS_CLI_MAX_SEEDS 10000
/* --jobs not given: the number of cores. */
#define PCS_CLI_JOBS_DEFAULT G_MININT
/* --jobs N: 1..1024, or PCS_CLI_JOBS_DEFAULT (not given). */
gboolean pcs_cli_jobs_check(gint jobs, GError **error);
/* Worker threads for --jobs JOBS: JOBS, or the number of cores when not given. */
guint pcs_cli_jobs(gint jobs);

/* --stats: "stats: wall_s=X events=N events_per_s=Y peak_rss_kib=Z" on stderr. */
void pcs_cli_print_stats(double wall, uint64_t events);
/* The same line for `pcsim run`, with how it was simulated: FOLDED copy
 * steps folded into one event (--no-fold: 0), REDONE runs redone unfolded
 * (PcsResult.folded_steps, fold_redone). */
void pcs_cli_print_run_stats(double wall, uint64_t events, uint64_t folded, uint64_t redone);

/* One command of `pcsim COMMAND`: main.c's table, which the man page
 * (cmd_man.c) documents from each command's own --help. */
typedef struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} PcsCliCommand;
const PcsCliCommand *pcs_cli_commands(size_t *n);

int pcs_cmd_run(int argc, char **argv);
int pcs_cmd_params(int argc, char **argv);
int pcs_cmd_replay(int argc, char **argv);
int pcs_cmd_explore(int argc, char **argv);
int pcs_cmd_sweep(int argc, char **argv);
int pcs_cmd_merge(int argc, char **argv);
int pcs_cmd_plot(int argc, char **argv);
int pcs_cmd_trace_stats(int argc, char **argv);
int pcs_cmd_compare(int argc, char **argv);
int pcs_cmd_calibrate(int argc, char **argv);
int pcs_cmd_scenarios(int argc, char **argv);
int pcs_cmd_man(int argc, char **argv);

#endif
