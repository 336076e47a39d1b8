/* main.c - the pcsim command line: `pcsim COMMAND [OPTIONS]`.
 *
 * Dispatches to one function per command (sim/cmd_*.c).  Each command
 * parses its options with GOption, does its work into memory and only then
 * writes: bad input exits 2 with one "pcsim: FILE:LINE: ..." message and
 * leaves no output; SIGINT and SIGTERM stop it with 130 or 143.
 */
#include "cli.h"

#include "pcsim/report.h"

#include <string.h>

/* ---- dispatch ---- */

typedef struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} Command;

static const Command commands[] = {
  {"run", pcs_cmd_run, "simulate a scenario under one or more policies"},
  {"sweep", pcs_cmd_sweep, "run a scenario over a grid of parameters and policies (CSV/JSON)"},
  {"merge", pcs_cmd_merge, "join the shards of a sweep into the unsharded output"},
  {"plot", pcs_cmd_plot, "plot a result file with gnuplot (PNG, SVG or in the terminal)"},
  {"trace-stats", pcs_cmd_trace_stats, "bios, requests and bio sizes of a real kernel block trace"},
  {"compare", pcs_cmd_compare, "a real trace and a simulated scenario side by side"},
  {"params", pcs_cmd_params, "list every scenario key with default, unit and meaning"},
  {"replay", pcs_cmd_replay, "replay one interleaving of the step model from a schedule file"},
  {"explore", pcs_cmd_explore, "count the bios of every interleaving of the step model"},
};

static void usage(FILE *f) {
  fprintf(f,
          "Usage: pcsim COMMAND [OPTIONS]\n\n"
          "pcsim simulates Linux page-cache inserts and bio submission for N threads\n"
          "reading one file, and counts bios, requests and throughput per readpages policy.\n\n"
          "Commands:\n");
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n`pcsim COMMAND --help` explains each command's options.\n"
             "Example: pcsim run workloads/liubo-2011.ini --policy immediate --policy pool:16\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return PCS_EXIT_INPUT;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("pcsim %s\n", pcs_version());
    return 0;
  }
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
    if (strcmp(argv[1], commands[i].name) != 0) continue;
    g_autofree char *prg = g_strdup_printf("pcsim %s", commands[i].name);
    g_set_prgname(prg);
    pcs_cli_signals_install();
    argv[1] = prg;
    return commands[i].fn(argc - 1, argv + 1);
  }
  fprintf(stderr, "pcsim: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return PCS_EXIT_INPUT;
}
