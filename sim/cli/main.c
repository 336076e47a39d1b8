/* main.c - the pcsim command line: `pcsim COMMAND [OPTIONS]`.
 *
 * Dispatches to one function per command (sim/cli/cmd_*.c).  Each command
 * parses its options with GOption, does its work into memory and only then
 * writes.  Every error is one line "pcsim COMMAND: MESSAGE" and its exit
 * status comes from one mapping (cli.h): bad input or usage 2, a failed
 * write 1, SIGINT/SIGTERM 130/143; bad input leaves no output.
 */
#include "cli.h"

#include "pcsim/report.h"

#include <string.h>

/* ---- dispatch ---- */

static const PcsCliCommand commands[] = {
  {"run", pcs_cmd_run, "simulate a scenario under one or more policies"},
  {"sweep", pcs_cmd_sweep, "run a scenario over a grid of parameters and policies (CSV/JSON)"},
  {"merge", pcs_cmd_merge, "join the shards of a sweep into the unsharded output"},
  {"plot", pcs_cmd_plot, "plot a result file with gnuplot (PNG, SVG or in the terminal)"},
  {"trace-stats", pcs_cmd_trace_stats, "bios, requests and bio sizes of a real kernel block trace"},
  {"compare", pcs_cmd_compare, "a real trace and a simulated scenario side by side"},
  {"calibrate", pcs_cmd_calibrate, "estimate a scenario's device, costs and memory from real kernel traces"},
  {"params", pcs_cmd_params, "list every scenario key with default, unit and meaning"},
  {"scenarios", pcs_cmd_scenarios, "list the shipped scenarios, or print one to copy and edit"},
  {"replay", pcs_cmd_replay, "replay one interleaving of the step model from a schedule file"},
  {"explore", pcs_cmd_explore, "count the bios of every interleaving of the step model"},
};

const PcsCliCommand *pcs_cli_commands(size_t *n) {
  *n = G_N_ELEMENTS(commands);
  return commands;
}

static void usage(GString *f) {
  g_string_append(f,
                  "Usage: pcsim COMMAND [OPTIONS]\n\n"
                  "pcsim simulates Linux page-cache inserts and bio submission for N threads\n"
                  "reading one file, and counts bios, requests and throughput per readpages policy.\n\n"
                  "Commands:\n");
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    g_string_append_printf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
  g_string_append(f, "\n`pcsim COMMAND --help` explains each command's options; `pcsim --version`\n"
                  "prints the version.  A SCENARIO is an INI file or the name of a scenario\n"
                  "compiled into pcsim (`pcsim scenarios`).\n\n"
                  "Example:\n  pcsim run liubo-2011 --policy immediate --policy pool:16\n\n"
                  "Errors: one line on stderr, 'pcsim COMMAND: FILE:LINE: what was expected'\n"
                  "(or '--option ...:' for an option).  Exit status: 0 success, 1 an output\n"
                  "could not be written, 2 bad input or usage, 130/143 SIGINT/SIGTERM.\n");
}

/* "run, sweep, ..., explore" (help-man, which writes the man page, is not listed) */
static char *command_names(void) {
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", commands[i].name);
  return g_string_free(s, FALSE);
}

int main(int argc, char **argv) {
  g_set_prgname("pcsim");
  g_autofree char *names = command_names();
  if (argc < 2) return pcs_cli_usage_error("expected a COMMAND: %s", names);
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    g_autoptr(GString) s = g_string_new(NULL);
    usage(s);
    return pcs_cli_write_stdout(s) ? PCS_EXIT_OK : PCS_EXIT_IO;
  }
  if (!strcmp(argv[1], "--version")) {
    g_autofree char *v = g_strdup_printf("pcsim %s\n", pcs_version());
    g_autoptr(GString) s = g_string_new(v);
    return pcs_cli_write_stdout(s) ? PCS_EXIT_OK : PCS_EXIT_IO;
  }
  if (!strcmp(argv[1], "help-man")) { /* hidden: the build writes pcsim.1 with it */
    g_set_prgname("pcsim help-man");
    return pcs_cmd_man(argc - 1, argv + 1);
  }
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
    if (strcmp(argv[1], commands[i].name) != 0) continue;
    g_autofree char *prg = g_strdup_printf("pcsim %s", commands[i].name);
    g_set_prgname(prg);
    pcs_cli_signals_install();
    argv[1] = prg;
    return commands[i].fn(argc - 1, argv + 1);
  }
  return pcs_cli_usage_error("unknown command '%s': expected %s", argv[1], names);
}
