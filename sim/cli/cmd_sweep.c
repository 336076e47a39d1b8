/* cmd_sweep.c - `pcsim sweep` and `pcsim merge`.
 *
 * `sweep` runs a scenario over a grid of --vary values and policies on
 * --jobs worker threads and prints one row per (point, policy); `--shard
 * K/N` runs one deterministic slice of the grid, and `merge` joins the
 * slices into the bytes the unsharded sweep prints.  Output goes to stdout
 * or, with --out, to FILE.tmp renamed to FILE when complete.
 */
#include "cli.h"

#include "pcsim/grid.h"
#include "pcsim/merge.h"
#include "pcsim/scenario.h"
#include "pcsim/sweep.h"

#include <unistd.h>

typedef struct {
  char **vary, **policies, **sets;
  char *seed, *format, *shard, *out, *model;
  gint jobs;
  gboolean stats, progress, fio;
} SweepOpts;

static void sweep_opts_clear(SweepOpts *o) {
  g_strfreev(o->vary);
  g_strfreev(o->policies);
  g_strfreev(o->sets);
  g_free(o->seed);
  g_free(o->format);
  g_free(o->shard);
  g_free(o->out);
  g_free(o->model);
}

/* "  37/100 points [#####.....]  12.3 points/s  0:05 left" on a terminal. */
typedef struct {
  gint64 start, last, every_us; /* lines: one every EVERY_US */
  gboolean drawn, lines;        /* LINES: stderr is no terminal (--progress) */
} Progress;

/* A sweep estimated at more than this says so before it starts. */
#define SWEEP_EVENTS_PER_S 20e6 /* the documented rate of `pcsim run` (cmd_run.c), not measured here */
#define SWEEP_ANNOUNCE_S 10.0

static void progress_draw(void *user, uint64_t done, uint64_t total) {
  Progress *pr = user;
  gint64 now = g_get_monotonic_time();
  if (pr->lines && done < total && now - pr->last < pr->every_us) return;
  pr->last = now;
  double secs = (double)(now - pr->start) / 1e6;
  double rate = secs > 0 ? (double)done / secs : 0;
  unsigned left = rate > 0 ? (unsigned)((double)(total - done) / rate + 0.5) : 0;
  char bar[31];
  unsigned fill = total ? (unsigned)(30 * done / total) : 30;
  for (unsigned i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
  bar[30] = 0;
  fprintf(stderr, "%s%6" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " points [%s] %7.1f points/s  %u:%02u left%s",
          pr->lines ? "progress: " : "\r", done, total, bar, rate, left / 60, left % 60, pr->lines ? "\n" : " ");
  pr->drawn = !pr->lines;
}

/* Before a sweep estimated at more than ~10 s (or with --progress): the
 * points, the events at most, and the minutes at the documented rate. */
static void sweep_announce(const PcsSweep *sw, gboolean forced) {
  uint64_t events;
  guint points = pcs_sweep_estimate(sw, &events);
  double secs = (double)events / SWEEP_EVENTS_PER_S / MAX(1, MIN(sw->jobs, g_get_num_processors()));
  if (secs < SWEEP_ANNOUNCE_S && !forced) return;
  fprintf(stderr, "%s: estimated work: %u points x %u polic%s, at most %.3g events, about %.1f min on %u job%s at "
          "%.0f M events/s each (a documented rate, not measured on this machine)\n", g_get_prgname(), points,
          sw->grid->policies->len, sw->grid->policies->len == 1 ? "y" : "ies", (double)events, secs / 60,
          MIN(sw->jobs, g_get_num_processors()), MIN(sw->jobs, g_get_num_processors()) == 1 ? "" : "s",
          SWEEP_EVENTS_PER_S / 1e6);
}

static const char sweep_description[] =
    "Runs SCENARIO (an INI file, or a fio job file as `pcsim run` takes it) at\n"
    "every point of a grid and prints one row per point and\n"
    "policy: the varied keys first, then every column of `pcsim run --format csv`\n"
    "(JSON rows end with the run's bio_pages_hist).\n"
    "\n"
    "--vary KEY=LIST (repeatable).  KEY is a scenario key (see `pcsim params`),\n"
    "'policy' or 'pool'.  LIST is comma separated; an item may be a range:\n"
    "  1,2,4,8        a list\n"
    "  1..8           every integer from 1 to 8\n"
    "  0..100+25      0, 25, 50, 75, 100\n"
    "  1..64*2        1, 2, 4, ... 64 (geometric)\n"
    "  10us..10ms*10  ranges take the key's units; columns print base units (bytes, ns)\n"
    "  64M..256M+64M  so do steps (a bare step is bytes or ns); 0.1ms and 1.5G are\n"
    "                 taken as whole numbers of ns or bytes\n"
    "  --vary pool=1..64*2       policies pool:1, pool:2, ... pool:64 (column 'pool')\n"
    "  --vary policy=immediate,pool:16,window\n"
    "Row order: the first --vary is the outermost loop, the policies the innermost,\n"
    "whatever --jobs is: the output is byte-identical for every --jobs.\n"
    "\n"
    "--shard K/N runs points p with p % N == K-1 only; `pcsim merge` joins the N\n"
    "outputs into exactly what the unsharded sweep prints.  Every output records\n"
    "the pcsim version, the seed and every parameter (CSV: '#' lines at the top).\n"
    "A progress bar is drawn on stderr when it is a terminal (--progress: lines\n"
    "every 5 s when it is not); a sweep estimated at over ~10 s says so first.\n"
    "Exit status: 0 ok, 1 the output could not be written, 2 bad input,\n"
    "130/143 interrupted (no output written).";

static gboolean sweep_prepare(PcsSweep *sw, PcsGrid *g, PcsParams *p, const SweepOpts *o, const char *path,
                              GError **error) {
  sw->format = PCS_FORMAT_CSV;
  sw->shard = (PcsShard){1, 1};
  sw->jobs = pcs_cli_jobs(o->jobs);
  if (!pcs_cli_jobs_check(o->jobs, error)) return FALSE;
  if (!pcs_cli_output_check("--out", o->out, FALSE, error)) return FALSE;
  if (!pcs_format_parse(o->format, PCS_FORMAT_BIT(PCS_FORMAT_CSV) | PCS_FORMAT_BIT(PCS_FORMAT_JSON), &sw->format,
                        error))
    return FALSE;
  if (o->shard && !pcs_shard_parse(o->shard, &sw->shard, error)) return FALSE;
  g_autofree char *name = NULL, *text = NULL; /* read once: PATH may be a pipe */
  if (path && !pcs_scenario_read(path, PCS_SCENARIO_INI | PCS_SCENARIO_FIO, &name, &text, NULL, error)) return FALSE;
  gboolean fio = path && (o->fio || pcs_fio_is_job_file(name)); /* as `pcsim run` takes it */
  if (o->model && !fio) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--model goes with a fio job file (JOB.fio or --fio)");
    return FALSE;
  }
  if (fio && !pcs_cli_fio_scenario(p, o->model, path, name, text, error)) return FALSE;
  if (!pcs_cli_load_scenario_text(name, fio ? NULL : text, o->sets, o->seed, p, error)) return FALSE;
  for (char **v = o->vary; v && *v; v++)
    if (!pcs_grid_add(g, *v, error)) return FALSE;
  if (!pcs_grid_finish(g, p, o->policies, error)) return FALSE;
  sw->base = p;
  sw->grid = g;
  sw->cancel = &pcs_cli_signal;
  return pcs_sweep_check(sw, error);
}

int pcs_cmd_sweep(int argc, char **argv) {
  SweepOpts o = {.jobs = PCS_CLI_JOBS_DEFAULT};
  GOptionEntry entries[] = {
    {"vary", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &o.vary, "Vary a key over a list or range (repeatable, see below)", "KEY=LIST"},
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o.policies,
     "Policy for every point (repeatable or comma separated; default: scenario.policies)", "P"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override one scenario key for every point (repeatable)",
     "SECTION.KEY=VALUE"},
    {"seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, "Seed of the random streams (overrides scenario.seed)", "N"},
    {"fio", 0, 0, G_OPTION_ARG_NONE, &o.fio, "SCENARIO is a fio job file (implied by a .fio or .job name)", NULL},
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o.model,
     "With a fio job file: the scenario (an INI file or a shipped name, `pcsim scenarios`) for what fio cannot say, "
     "as in `pcsim run` (default: linux-6.18-btrfs)", "SCENARIO"},
    {"jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "Points run in parallel (default: the number of cores)", "N"},
    {"shard", 0, 0, G_OPTION_ARG_STRING, &o.shard, "Run only the K-th of N deterministic slices of the grid", "K/N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "Output format: csv (default) or json", "FMT"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "Write to FILE (atomically: FILE.tmp, then rename) instead of stdout", "FILE"},
    {"stats", 0, 0, G_OPTION_ARG_NONE, &o.stats,
     "Print 'stats: wall_s=X events=N events_per_s=Y peak_rss_kib=Z' on stderr (all points)", NULL},
    {"progress", 0, 0, G_OPTION_ARG_NONE, &o.progress,
     "Print the work estimate, and progress on stderr even when it is no terminal: a line every 5 s (logs, CI)",
     NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("SCENARIO|JOB.fio - run a scenario or fio job over a grid of parameters and policies",
      sweep_description, entries);
  GError *error = NULL;
  int rc = 0;
  PcsParams p;
  PcsGrid g;
  PcsSweep sw = {0};
  Progress pr = {.start = g_get_monotonic_time()};
  g_autoptr(GString) out = g_string_new(NULL);
  pcs_params_init(&p);
  pcs_grid_init(&g);
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 2) {
    rc = pcs_cli_usage_error("expected one SCENARIO file");
  } else if (!sweep_prepare(&sw, &g, &p, &o, argv[1], &error)) {
    rc = pcs_cli_fail(error);
  } else {
    gboolean tty = isatty(STDERR_FILENO);
    sweep_announce(&sw, o.progress);
    const char *ms = g_getenv("PCSIM_PROGRESS_MS"); /* tests: a tiny interval */
    pr.lines = !tty;
    pr.every_us = ms ? g_ascii_strtoll(ms, NULL, 10) * 1000 : 5000000;
    pr.last = pr.start;
    if (tty || o.progress) sw.progress = progress_draw, sw.progress_user = &pr;
    uint64_t events = 0;
    gint64 t0 = g_get_monotonic_time();
    gboolean ok = pcs_sweep_run(&sw, out, &events, &error);
    if (pr.drawn) fputc('\n', stderr);
    if (ok && o.stats) pcs_cli_print_stats((double)(g_get_monotonic_time() - t0) / 1e6, events);
    if (!ok || !pcs_cli_write_file(o.out, out, &error)) rc = pcs_cli_fail(error);
  }
  pcs_grid_clear(&g);
  pcs_params_clear(&p);
  sweep_opts_clear(&o);
  return rc;
}

int pcs_cmd_merge(int argc, char **argv) {
  char *outpath = NULL;
  GOptionEntry entries[] = {
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &outpath, "Write to FILE (atomically) instead of stdout", "FILE"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("SHARD... - join the outputs of `pcsim sweep --shard K/N`",
      "Takes the N shard files of one sweep (CSV or JSON, any order) and prints\n"
      "exactly the bytes the unsharded sweep prints; JSON shards may have been\n"
      "re-indented (jq).  Refuses shards of different sweeps, missing, duplicate\n"
      "or truncated shards (exit status 2); exit status 1 when the output could\n"
      "not be written.", entries);
  GError *error = NULL;
  int rc = 0;
  g_autoptr(GString) out = g_string_new(NULL);
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc < 2) {
    rc = pcs_cli_usage_error("expected the shard files");
  } else if (!pcs_cli_output_check("--out", outpath, FALSE, &error) || !pcs_merge(argv + 1, out, &error) ||
             !pcs_cli_write_file(outpath, out, &error)) {
    rc = pcs_cli_fail(error);
  }
  g_free(outpath);
  return rc;
}
