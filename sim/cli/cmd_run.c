/* cmd_run.c - `pcsim run` and `pcsim params`.
 *
 * `run` simulates one scenario under each policy and prints the seed's
 * before/after table (or CSV, JSON), optionally a --timeline of the
 * interleaving and a --trace of every model action.  The scenario comes
 * from an INI file or, with --scenario-from, from the provenance of a
 * result file.  Everything is computed into memory first and written at
 * the end, so an error or a signal leaves no partial output.
 */
#include "cli.h"

#include "pcsim/blktrace.h"
#include "pcsim/fio.h"
#include "pcsim/fiojson.h"
#include "pcsim/ftrace.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/results.h"
#include "pcsim/scenario.h"
#include "pcsim/seeds.h"
#include "pcsim/sim.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char **policies;
  char **sets;
  char *seed;
  char *format;
  gboolean stats;
  char *trace;
  gboolean timeline;
  char *pages;
  char *scenario_from;
  gint row;
  gboolean fio;
  char *model;
  char *blktrace;
  char *ftrace;
  gint seeds; /* RUN_NOT_GIVEN: not given */
  gint jobs;  /* PCS_CLI_JOBS_DEFAULT: not given */
  gboolean progress;
  gboolean no_fold;
} RunOpts;

/* An integer option left out (--seeds, --row): any value a user can give is
 * checked, 0 and negatives included. */
#define RUN_NOT_GIVEN G_MININT

static void run_opts_clear(RunOpts *o) {
  g_strfreev(o->policies);
  g_strfreev(o->sets);
  g_free(o->seed);
  g_free(o->format);
  g_free(o->trace);
  g_free(o->pages);
  g_free(o->scenario_from);
  g_free(o->model);
  g_free(o->blktrace);
  g_free(o->ftrace);
}

/* ---- --trace FILE: every model action as TSV ---- */

typedef struct {
  FILE *f;
  const char *policy;
} TraceSink;

static void trace_tsv(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  TraceSink *sink = user;
  if (thread == PCS_NO_THREAD)
    fprintf(sink->f, "%s\t%" G_GUINT64_FORMAT "\t-\t%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\n",
            sink->policy, t, pcs_trace_kind_name(kind), a, b);
  else
    fprintf(sink->f, "%s\t%" G_GUINT64_FORMAT "\t%u\t%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\n",
            sink->policy, t, thread, pcs_trace_kind_name(kind), a, b);
}

/* ---- --timeline: the seed's diagram for one page range ---- */

typedef struct {
  PcsTime t;
  uint32_t thread;
  PcsTraceKind kind;
  uint64_t a, b;
} TimelineRow;

typedef struct {
  uint64_t first, last; /* page range, inclusive */
  GArray *rows;
} Timeline;

static void timeline_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Timeline *tl = user;
  uint64_t lo = a, hi = kind == PCS_TRACE_SUBMIT ? a + b - 1 : a;
  gboolean shown = kind == PCS_TRACE_INSERT || kind == PCS_TRACE_READ || kind == PCS_TRACE_SUBMIT;
  if (!shown || thread == PCS_NO_THREAD || hi < tl->first || lo > tl->last) return;
  TimelineRow r = {t, thread, kind, a, b};
  g_array_append_val(tl->rows, r);
}

static void trim_line(GString *out) {
  while (out->len && out->str[out->len - 1] == ' ') g_string_truncate(out, out->len - 1);
  g_string_append_c(out, '\n');
}

static void timeline_print(GString *out, const Timeline *tl, const char *policy, uint32_t threads) {
  g_string_append_printf(out, "\ntimeline %s, pages %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "\n%12s", policy,
                         tl->first, tl->last, "time_us");
  for (uint32_t t = 1; t <= threads; t++) {
    g_autofree char *h = g_strdup_printf("thread %u", t);
    g_string_append_printf(out, "  %-20s", h);
  }
  trim_line(out);
  for (guint i = 0; i < tl->rows->len; i++) {
    TimelineRow *r = &g_array_index(tl->rows, TimelineRow, i);
    g_autofree char *cell = r->kind == PCS_TRACE_INSERT ? g_strdup_printf("add Page %" G_GUINT64_FORMAT, r->a)
                          : r->kind == PCS_TRACE_READ   ? g_strdup_printf("read Page %" G_GUINT64_FORMAT, r->a)
                          : g_strdup_printf("submit bio %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, r->a, r->a + r->b - 1);
    g_string_append_printf(out, "%12.3f", (double)r->t / PCS_NS_PER_US);
    for (uint32_t t = 1; t <= threads; t++) g_string_append_printf(out, "  %-20s", t == r->thread ? cell : "");
    trim_line(out);
  }
}

static gboolean timeline_range(const PcsParams *p, const char *spec, Timeline *tl, GError **error) {
  uint64_t npages = p->workload_file_size / PCS_PAGE_SIZE;
  if (!spec) {
    tl->first = pcs_sim_first_window_pages(p);
    tl->last = tl->first + 31;
  } else {
    g_auto(GStrv) ab = g_strsplit(spec, "-", 2);
    if (!ab[0] || !ab[1] || !pcs_parse_u64(ab[0], &tl->first) || !pcs_parse_u64(ab[1], &tl->last) ||
        tl->first > tl->last) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--pages '%s': expected A-B with A <= B, e.g. 16-47", spec);
      return FALSE;
    }
  }
  if (tl->first >= npages) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "--pages: page %" G_GUINT64_FORMAT " is past the end of the file (%" G_GUINT64_FORMAT " pages)",
                tl->first, npages);
    return FALSE;
  }
  tl->last = MIN(tl->last, npages - 1);
  return TRUE;
}

/* ---- running ---- */

typedef struct {
  PcsParams p;
  GArray *policies; /* PcsPolicy */
  PcsFormat format;
  PcsCliOutput trace;
  TraceSink sink;
  Timeline tl;
  GArray *blktraces; /* PcsBlktrace per policy, with --blktrace */
  PcsCliOutput ftrace_out; /* --ftrace FILE, streamed under its temporary name */
  PcsFtrace ftrace;
  PcsRunOptions ropt;
  /* The seeds to run: --seeds N, or those a --scenario-from file of
   * --seeds records (seeds_recorded: from its first seed, p's); 1 or
   * RUN_NOT_GIVEN: one run */
  gint seeds;
  gboolean seeds_recorded;
  /* progress of a long run (see run_estimate()) */
  gboolean show_progress, progress_lines; /* lines (not \r) when stderr is no terminal */
  gint64 progress_start, progress_last, progress_every_us;
  uint64_t progress_estimate;             /* events estimated for all policies */
  uint64_t progress_before;               /* events of the policies already run */
  const char *progress_policy;
  uint64_t folded, redone; /* --stats: PcsResult.folded_steps and fold_redone, summed */
} RunJob;

/* The rate a run's estimate is turned into minutes with: events per second
 * measured on the development machine (2 shared cores, RelWithDebInfo:
 * `pcsim run workloads/liubo-2011.ini --stats` gave 20.3 M events/s before the
 * hot-path work of issue 17; 25-35 M now, so the estimate errs long).
 * A documented constant, not a calibration: the estimate of events itself
 * is an overestimate by design (pcs_sim_estimate()). */
#define RUN_EVENTS_PER_S 20e6
#define RUN_ANNOUNCE_S 10.0 /* estimate above this: say so, and show progress on a terminal */

/* Called by the event loop every 4096 events: a line every few seconds. */
static void run_progress(void *user, uint64_t events, PcsTime now) {
  RunJob *j = user;
  gint64 t = g_get_monotonic_time();
  if (t - j->progress_last < j->progress_every_us) return;
  j->progress_last = t;
  uint64_t done = j->progress_before + events;
  double secs = (double)(t - j->progress_start) / G_USEC_PER_SEC;
  double pct = j->progress_estimate ? 100.0 * (double)done / (double)j->progress_estimate : 0;
  fprintf(stderr, "%sprogress: policy %s: %" G_GUINT64_FORMAT " events (%.1f%% of the estimate), simulated %.3f s, "
          "wall %.0f s%s", j->progress_lines ? "" : "\r", j->progress_policy, done, MIN(pct, 100.0),
          (double)now / PCS_NS_PER_S, secs, j->progress_lines ? "\n" : " ");
}

/* Before the run: the estimated work on stderr when it will take more than
 * ~10 s (or with --progress), and progress from then on. */
static void run_estimate(RunJob *j, const RunOpts *o) {
  uint64_t events = 0;
  for (guint i = 0; i < j->policies->len; i++) events += pcs_sim_estimate(&j->p, &g_array_index(j->policies, PcsPolicy, i)).events;
  double secs = (double)events / RUN_EVENTS_PER_S;
  gboolean tty = isatty(STDERR_FILENO);
  if (secs < RUN_ANNOUNCE_S && !o->progress) return;
  fprintf(stderr, "%s: estimated work: %u polic%s, at most %.3g events, about %.1f min at %.0f M events/s (a "
          "documented rate, not measured on this machine)\n", g_get_prgname(), j->policies->len,
          j->policies->len == 1 ? "y" : "ies", (double)events, secs / 60, RUN_EVENTS_PER_S / 1e6);
  j->show_progress = o->progress || tty;
  j->progress_lines = !tty;
  j->progress_estimate = events;
  j->progress_start = j->progress_last = g_get_monotonic_time();
  const char *ms = g_getenv("PCSIM_PROGRESS_MS"); /* tests: a tiny interval */
  j->progress_every_us = ms ? g_ascii_strtoll(ms, NULL, 10) * 1000 : tty ? 1000000 : 5000000;
}

/* Every model action goes to each output that asked for it. */
static void run_trace(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  RunJob *j = user;
  if (j->sink.f) trace_tsv(&j->sink, t, thread, kind, a, b);
  if (j->tl.rows) timeline_watch(&j->tl, t, thread, kind, a, b);
  if (j->blktraces && j->blktraces->len)
    pcs_blktrace_event(&g_array_index(j->blktraces, PcsBlktrace, j->blktraces->len - 1), t, thread, kind, a, b);
  if (j->ftrace.f) pcs_ftrace_event(&j->ftrace, t, thread, kind, a, b);
}

static void blktraces_free(GArray *a) {
  for (guint i = 0; a && i < a->len; i++) pcs_blktrace_clear(&g_array_index(a, PcsBlktrace, i));
  if (a) g_array_free(a, TRUE);
}

/* --ftrace FILE: one policy's run, as the kernel's ftrace text. */
static gboolean ftrace_open(RunJob *j, const char *path, GError **error) {
  if (j->policies->len != 1) {
    g_autoptr(GString) names = g_string_new(NULL);
    for (guint i = 0; i < j->policies->len; i++)
      g_string_append_printf(names, "%s%s", i ? ", " : "", g_array_index(j->policies, PcsPolicy, i).name);
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "--ftrace %s: a trace holds one policy's run, this run has %u (%s): pick one with --policy", path,
                j->policies->len, names->str);
    return FALSE;
  }
  if (!pcs_cli_output_open(&j->ftrace_out, path, error)) return FALSE;
  pcs_ftrace_init(&j->ftrace, j->ftrace_out.f, &j->p);
  return TRUE;
}

static gboolean run_job_outputs(RunJob *j, const RunOpts *o, GError **error) {
  if (o->timeline) {
    if (j->format != PCS_FORMAT_TABLE) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--timeline draws a table: use it with --format table");
      return FALSE;
    }
    if (!timeline_range(&j->p, o->pages, &j->tl, error)) return FALSE;
  }
  if (o->trace) {
    if (!pcs_cli_output_open(&j->trace, o->trace, error)) return FALSE;
    j->sink.f = j->trace.f;
    fputs("policy\ttime_ns\tthread\tkind\ta\tb\n", j->sink.f);
  }
  if (o->timeline) j->tl.rows = g_array_new(FALSE, FALSE, sizeof(TimelineRow));
  if (o->blktrace) j->blktraces = g_array_new(FALSE, TRUE, sizeof(PcsBlktrace)); /* the folder: pcs_cli_output_check() */
  if (o->ftrace && !ftrace_open(j, o->ftrace, error)) return FALSE;
  if (o->trace || o->timeline || o->blktrace || o->ftrace) {
    j->ropt.trace = run_trace;
    j->ropt.trace_user = j;
  }
  return TRUE;
}

/* Every policy in turn, results into RESULTS and timelines into TIMELINES. */
static gboolean run_policies(RunJob *j, GArray *results, GString *timelines, uint64_t *events, GError **error) {
  j->ropt.cancel = &pcs_cli_signal;
  j->ropt.thread_latency = j->format == PCS_FORMAT_FIO_JSON; /* per-thread clat for jobs without group_reporting */
  for (guint i = 0; i < j->policies->len; i++) {
    PcsResult r;
    j->sink.policy = g_array_index(j->policies, PcsPolicy, i).name;
    if (j->blktraces) {
      g_array_set_size(j->blktraces, j->blktraces->len + 1);
      pcs_blktrace_init(&g_array_index(j->blktraces, PcsBlktrace, j->blktraces->len - 1), (uint32_t)j->p.cpu_count,
                        (uint32_t)j->p.workload_threads);
    }
    j->progress_policy = g_array_index(j->policies, PcsPolicy, i).name;
    if (j->show_progress) j->ropt.progress = run_progress, j->ropt.progress_user = j;
    if (!pcs_sim_run(&j->p, &g_array_index(j->policies, PcsPolicy, i), &j->ropt, &r, error)) return FALSE;
    *events += r.events;
    j->folded += r.folded_steps;
    j->redone += r.fold_redone;
    j->progress_before = *events;
    g_array_append_val(results, r);
    if (j->tl.rows) {
      timeline_print(timelines, &j->tl, j->sink.policy, r.threads);
      g_array_set_size(j->tl.rows, 0);
    }
  }
  return TRUE;
}

static void run_report(GString *s, const RunJob *j, const GArray *results) {
  const PcsResult *res = (const PcsResult *)results->data;
  switch (j->format) {
  case PCS_FORMAT_TABLE: pcs_report_table(s, &j->p, res, results->len); break;
  case PCS_FORMAT_CSV: pcs_report_csv(s, &j->p, res, results->len); break;
  case PCS_FORMAT_JSON: pcs_report_json(s, &j->p, res, results->len); break;
  case PCS_FORMAT_FIO_JSON: pcs_fio_json(s, &j->p, res, results->len); break;
  }
}

/* --trace, --ftrace and --blktrace files, then the report on stdout. */
static gboolean run_write(RunJob *j, const RunOpts *o, const GString *report, GError **error) {
  if (j->trace.f && !pcs_cli_output_commit(&j->trace, error)) return FALSE;
  if (j->ftrace.f && !(pcs_ftrace_finish(&j->ftrace, o->ftrace, error) && pcs_cli_output_commit(&j->ftrace_out, error)))
    return FALSE;
  gboolean existed = o->blktrace && g_file_test(o->blktrace, G_FILE_TEST_IS_DIR);
  for (guint i = 0; j->blktraces && i < j->blktraces->len; i++) {
    g_autofree char *name = pcs_blktrace_name(g_array_index(j->policies, PcsPolicy, i).name);
    if (pcs_blktrace_write(&g_array_index(j->blktraces, PcsBlktrace, i), o->blktrace, name, error)) continue;
    for (guint k = 0; k < i; k++) { /* the policies written before: none or all */
      g_autofree char *done = pcs_blktrace_name(g_array_index(j->policies, PcsPolicy, k).name);
      pcs_blktrace_remove(&g_array_index(j->blktraces, PcsBlktrace, k), o->blktrace, done);
    }
    if (!existed) g_rmdir(o->blktrace);
    return FALSE;
  }
  return pcs_cli_write_file(NULL, report, error);
}

/* Runs every policy into memory, then writes the outputs and the report. */
static gboolean run_job(RunJob *j, const RunOpts *o, GError **error) {
  g_autoptr(GArray) results = g_array_new(FALSE, TRUE, sizeof(PcsResult));
  g_autoptr(GString) timelines = g_string_new(NULL);
  g_autoptr(GString) report = g_string_new(NULL);
  gint64 t0 = g_get_monotonic_time();
  uint64_t events = 0;
  run_estimate(j, o);
  j->ropt.no_fold = o->no_fold;
  gboolean ok = run_policies(j, results, timelines, &events, error);
  if (j->show_progress && !j->progress_lines) fputc('\n', stderr);
  double wall = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
  if (ok) {
    run_report(report, j, results);
    g_string_append_len(report, timelines->str, (gssize)timelines->len);
    ok = run_write(j, o, report, error);
  }
  for (guint i = 0; i < results->len; i++) pcs_result_clear(&g_array_index(results, PcsResult, i));
  if (ok && o->stats) pcs_cli_print_run_stats(wall, events, j->folded, j->redone);
  return ok;
}

/* --seeds N (N > 1): every (seed, policy) on --jobs threads, then the
 * per-seed rows and each policy's median, min and max. */
static gboolean run_seeds(RunJob *j, const RunOpts *o, GError **error) {
  guint np = j->policies->len, n = (guint)j->seeds * np;
  PcsSeeds s = {.base = &j->p, .policies = j->policies, .first = o->seed || j->seeds_recorded ? j->p.scenario_seed : 1,
                .count = (guint)j->seeds, .jobs = pcs_cli_jobs(o->jobs), .cancel = &pcs_cli_signal,
                .no_fold = o->no_fold};
  PcsResult *res = g_new0(PcsResult, n);
  g_autoptr(GString) report = g_string_new(NULL);
  gint64 t0 = g_get_monotonic_time();
  uint64_t events = 0;
  gboolean ok = pcs_seeds_run(&s, res, &events, error);
  double wall = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
  for (guint i = 0; ok && i < n; i++) j->folded += res[i].folded_steps, j->redone += res[i].fold_redone;
  if (ok) {
    PcsSeedResults sr = {res, np, s.first, s.count};
    j->p.scenario_seed = s.first; /* the provenance names the first seed */
    switch (j->format) {
    case PCS_FORMAT_CSV: pcs_report_seeds_csv(report, &j->p, &sr); break;
    case PCS_FORMAT_JSON: pcs_report_seeds_json(report, &j->p, &sr); break;
    default: pcs_report_seeds_table(report, &j->p, &sr); break;
    }
    for (guint i = 0; i < n; i++) pcs_result_clear(&res[i]);
    ok = pcs_cli_write_file(NULL, report, error);
  }
  g_free(res);
  if (ok && o->stats) pcs_cli_print_run_stats(wall, events, j->folded, j->redone);
  return ok;
}

/* --seeds N runs whole reports; the per-run outputs hold one run. */
static gboolean seeds_check(const RunJob *j, const RunOpts *o, GError **error) {
  if (o->seeds != RUN_NOT_GIVEN && (o->seeds < 1 || o->seeds > PCS_CLI_MAX_SEEDS)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--seeds %d: expected 1..%d", o->seeds, PCS_CLI_MAX_SEEDS);
    return FALSE;
  }
  if (j->seeds <= 1) return TRUE; /* 1: a plain run; not given: RUN_NOT_GIVEN */
  const char *one = o->trace ? "--trace" : o->timeline ? "--timeline" : o->blktrace ? "--blktrace"
                  : o->ftrace ? "--ftrace" : j->format == PCS_FORMAT_FIO_JSON ? "--format fio-json" : NULL;
  if (one && j->seeds_recorded) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s shows one run: %s records %d seeds (--seeds %d); add --seeds 1 "
                "to rerun its first seed alone", one, o->scenario_from, j->seeds, j->seeds);
    return FALSE;
  }
  if (one) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s shows one run: not with --seeds %d (use --seed S)", one,
                j->seeds);
    return FALSE;
  }
  return TRUE;
}

/* --scenario-from RESULTS [--row N]: the recorded scenario and policies. */
static gboolean scenario_from(RunJob *j, const RunOpts *o, GError **error) {
  PcsResults r;
  gboolean ok = pcs_results_load(&r, o->scenario_from, error);
  guint row = G_MAXUINT;
  if (ok && o->row != RUN_NOT_GIVEN) {
    row = (guint)o->row - 1;
    if (row >= r.rows->len) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--row %d: %s holds %u rows", o->row, o->scenario_from, r.rows->len);
      ok = FALSE;
    }
  } else if (ok && r.varied->len && r.rows->len > 1) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s is a sweep of %u rows: pick one with --row N",
                o->scenario_from, r.rows->len);
    ok = FALSE;
  }
  int pc = ok ? pcs_results_column(&r, "policy") : -1;
  if (ok) ok = pcs_results_params(&r, row, &j->p, error);
  for (guint i = 0; ok && !(o->policies && *o->policies) && pc >= 0 && i < r.rows->len; i++) {
    if (row != G_MAXUINT && i != row) continue;
    const char *name = ((char **)g_ptr_array_index(r.rows, i))[pc];
    gboolean seen = FALSE; /* a --seeds file has a row per seed and the median, min and max rows */
    for (guint k = 0; k < j->policies->len; k++) seen = seen || !strcmp(g_array_index(j->policies, PcsPolicy, k).name, name);
    if (!seen) ok = pcs_policy_parse_list(name, j->policies, error);
  }
  if (ok && o->seeds == RUN_NOT_GIVEN && o->row == RUN_NOT_GIVEN && r.nseeds > 1) { /* a --seeds file: its seeds */
    j->seeds = r.nseeds > PCS_CLI_MAX_SEEDS ? 0 : (gint)r.nseeds;
    j->seeds_recorded = TRUE;
    if (!j->seeds)
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s records %u seeds: --seeds takes at most %d", o->scenario_from,
                  r.nseeds, PCS_CLI_MAX_SEEDS);
    ok = j->seeds && seeds_check(j, o, error);
    if (ok && r.first_seed != j->p.scenario_seed) { /* --seeds S..: scenario.seed is S (pcs_seeds_run()) */
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                  "%s: its seeds start at %" G_GUINT64_FORMAT " but its scenario.seed is %" G_GUINT64_FORMAT
                  ": a --seeds file's first seed is its scenario.seed (was it edited?)",
                  o->scenario_from, r.first_seed, (guint64)j->p.scenario_seed);
      ok = FALSE;
    }
  }
  if (ok && j->format == PCS_FORMAT_FIO_JSON && j->p.fio_model && !j->p.fio_global_options) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "%s: a fio job's result without its job sections (fio_sections, which older pcsim did not write): "
                "--format fio-json would not name the jobs and options as the job did; rerun the job file, or "
                "use --format json or csv", o->scenario_from);
    ok = FALSE;
  }
  if (ok && r.version && strcmp(r.version, pcs_version()) != 0)
    fprintf(stderr, "%s: note: %s was written by pcsim %s; this is pcsim %s\n", g_get_prgname(), o->scenario_from,
            r.version, pcs_version());
  pcs_results_clear(&r);
  return ok;
}

/* The scenario a fio job runs on without --model: the shipped one compiled
 * into the binary (scenario.h), wherever the binary is and whatever the
 * working directory.  Linux 6.18 on btrfs: what a fio user runs today. */
#define FIO_DEFAULT_MODEL "linux-6.18-btrfs"

char *pcs_cli_default_model(void) { return g_strdup(FIO_DEFAULT_MODEL); }

/* The job at PATH (a file or a shipped job's name, pcs_scenario_read()):
 * the --model scenario (a file or a shipped name; without one the shipped
 * default, named on stderr), then what the job sets, into P (which keeps
 * what the outputs report of the job: fio_sections, ...).  `sweep` loads
 * fio jobs through this too. */
gboolean pcs_cli_fio_scenario(PcsParams *p, const char *given_model, const char *path, const char *job_name,
                              const char *job_text, GError **error) {
  PcsFioJob loaded = {0}, *job = &loaded;
  g_autofree char *model = NULL, *model_text = NULL;
  guint kinds = PCS_SCENARIO_INI | (given_model ? 0 : PCS_SCENARIO_SHIPPED_ONLY);
  if (!pcs_scenario_read(given_model ? given_model : FIO_DEFAULT_MODEL, kinds, &model, &model_text, NULL, error) ||
      !pcs_params_load_text(p, model, model_text, strlen(model_text), error))
    return FALSE;
  g_autofree char *model_name = g_strdup(p->scenario_name);
  gboolean ok =
      pcs_fio_load_text(job, job_name, job_text, strlen(job_text), error) && pcs_fio_apply(job, p, error);
  if (ok) {
    for (guint i = 0; i < job->notes->len; i++) /* what fio says and runs on */
      fprintf(stderr, "%s: note: %s\n", g_get_prgname(), (const char *)g_ptr_array_index(job->notes, i));
  }
  if (ok) { /* the model names the scenario, not fio's job section */
    g_free(p->scenario_name);
    p->scenario_name = g_steal_pointer(&model_name);
    g_free(p->fio_model);
    p->fio_model = g_strdup(model);
    if (!given_model) /* after the job loaded: a bad job gets its one error line */
      fprintf(stderr,
              "%s: note: %s: no --model given; using the shipped scenario %s (--model NAME or FILE.ini picks "
              "another; `pcsim scenarios` lists them)\n",
              g_get_prgname(), path, FIO_DEFAULT_MODEL);
  }
  pcs_fio_clear(job);
  return ok;
}

static gboolean run_prepare(RunJob *j, const RunOpts *o, const char *path, GError **error) {
  g_autofree char *name = NULL, *text = NULL; /* PATH: a file, or a shipped scenario or job by name */
  if (path && !pcs_scenario_read(path, PCS_SCENARIO_INI | PCS_SCENARIO_FIO, &name, &text, NULL, error)) return FALSE;
  gboolean fio = path && (o->fio || pcs_fio_is_job_file(name));
  j->seeds = o->seeds;
  if (!pcs_format_parse(o->format, PCS_FORMATS_ALL, &j->format, error) || !seeds_check(j, o, error) ||
      !pcs_cli_jobs_check(o->jobs, error) || !pcs_cli_output_check("--trace", o->trace, FALSE, error) ||
      !pcs_cli_output_check("--ftrace", o->ftrace, FALSE, error) ||
      !pcs_cli_output_check("--blktrace", o->blktrace, TRUE, error))
    return FALSE;
  const char *streams[][2] = {{"--trace", o->trace}, {"--ftrace", o->ftrace}};
  for (size_t i = 0; i < G_N_ELEMENTS(streams); i++) { /* "-", /dev/stdout, the redirected file named again */
    g_autofree char *target = NULL;
    if (streams[i][1] && (!strcmp(streams[i][1], "-") ||
                          pcs_cli_output_target(streams[i][1], &target, NULL) == PCS_CLI_OUT_STDOUT)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s: standard output holds the results; name a file",
                  streams[i][0], streams[i][1]);
      return FALSE;
    }
  }
  if (o->row != RUN_NOT_GIVEN && (!o->scenario_from || o->row < 1)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, o->scenario_from ? "--row %d: expected a row number from 1"
                                                                    : "--row %d goes with --scenario-from RESULTS", o->row);
    return FALSE;
  }
  if (o->pages && !o->timeline) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--pages %s goes with --timeline (the page range it draws)", o->pages);
    return FALSE;
  }
  if (o->model && !fio) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--model goes with a fio job file (JOB.fio or --fio)");
    return FALSE;
  }
  if (o->scenario_from && !scenario_from(j, o, error)) return FALSE;
  if (fio && !pcs_cli_fio_scenario(&j->p, o->model, path, name, text, error)) return FALSE;
  if (!pcs_cli_load_scenario_text(name, fio ? NULL : text, o->sets, o->seed, &j->p, error)) return FALSE;
  if (!j->policies->len && !pcs_cli_policies(&j->p, o->policies, j->policies, error)) return FALSE;
  for (guint i = 0; i < j->policies->len; i++)
    if (!pcs_sim_check_limits(&j->p, &g_array_index(j->policies, PcsPolicy, i), error)) return FALSE;
  return run_job_outputs(j, o, error);
}

static const char run_description[] =
    "Runs SCENARIO (an INI file, see `pcsim params`, or a fio job file; or the\n"
    "name of a shipped one, see `pcsim scenarios`) once per\n"
    "policy and prints throughput, bios and requests.  With two or more policies\n"
    "the table shows\n"
    "each policy's change in aggregate throughput against the first.\n"
    "\n"
    "Policies: immediate | pool:N | pool-contig:N | window  (default: scenario.policies)\n"
    "--scenario-from RESULTS reruns the scenario recorded in a CSV or JSON result\n"
    "file of `pcsim run` or `pcsim sweep` (with --row N for one sweep row), or in\n"
    "the output of `pcsim run --format fio-json`, reading no scenario or job file:\n"
    "a `pcsim run` file rerun in its own format prints the same bytes (a --seeds\n"
    "file reruns its seeds; --seeds 1 its first seed alone).\n"
    "A fio job file (JOB.fio, JOB.job or --fio) sets workload.threads (numjobs),\n"
    "block_size (bs), file_size (size), loops, runtime and time_based;\n"
    "--model SCENARIO supplies the rest (a file or a shipped scenario's name;\n"
    "default: the shipped linux-6.18-btrfs, named on stderr).\n"
    "Options that would change the result but are not modelled are refused.\n"
    "--ftrace FILE writes one policy's run as the kernel's ftrace text, which\n"
    "`pcsim trace-stats FILE` reads back with the run's own metrics; it also\n"
    "holds the scheduler's sched_switch, sched_waking and sched_wakeup, which\n"
    "`pcsim-trace reader-time-split` reads; a run of several policies\n"
    "is refused: pick one with --policy.\n"
    "--seeds N runs seeds 1..N (or N seeds from --seed S) under each policy on\n"
    "--jobs threads and prints every seed's row, then each policy's median,\n"
    "min and max of every metric (docs/seeds.md); --seeds 1 is a plain run.\n"
    "Output is byte-identical for the same scenario, options and seed, and for\n"
    "any --jobs.\n"
    "Exit status: 0 ok, 1 an output could not be written, 2 bad input (one line\n"
    "'pcsim run: FILE:LINE: ...' naming the key), 130/143 interrupted by\n"
    "SIGINT/SIGTERM (nothing written).";

int pcs_cmd_run(int argc, char **argv) {
  RunOpts o = {.seeds = RUN_NOT_GIVEN, .row = RUN_NOT_GIVEN, .jobs = PCS_CLI_JOBS_DEFAULT};
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o.policies,
     "Readpages policy to run (repeatable, or comma separated): immediate, pool:N, pool-contig:N, window", "P"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o.sets,
     "Override one scenario key, e.g. --set workload.threads=8 (repeatable)", "SECTION.KEY=VALUE"},
    {"seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, "Seed of the random streams (overrides scenario.seed)", "N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "Output format: table (default), csv, json or fio-json (the layout of fio --output-format=json)", "FMT"},
    {"scenario-from", 0, 0, G_OPTION_ARG_FILENAME, &o.scenario_from,
     "Rerun the scenario recorded in a pcsim CSV/JSON result file instead of SCENARIO", "RESULTS"},
    {"fio", 0, 0, G_OPTION_ARG_NONE, &o.fio, "SCENARIO is a fio job file (implied by a .fio or .job name)", NULL},
    {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o.model,
     "With a fio job file: the scenario (an INI file or a shipped name, `pcsim scenarios`) for what fio cannot say "
     "(device, costs, policies; default: linux-6.18-btrfs)", "SCENARIO"},
    {"row", 0, 0, G_OPTION_ARG_INT, &o.row, "With --scenario-from: the sweep row to rerun (1 = first data row)", "N"},
    {"trace", 0, 0, G_OPTION_ARG_FILENAME, &o.trace,
     "Write every simulator event as TSV (policy, time_ns, thread, kind, a, b) to FILE", "FILE"},
    {"blktrace", 0, 0, G_OPTION_ARG_FILENAME, &o.blktrace,
     "Write blktrace files DIR/POLICY.blktrace.CPU (Q, M/F, G, I, D, C) for blkparse and btt; DIR is created, its "
     "parent must exist", "DIR"},
    {"ftrace", 0, 0, G_OPTION_ARG_FILENAME, &o.ftrace,
     "Write the run as the kernel's ftrace text (block_bio_queue, block_rq_issue/complete, readahead, "
     "page-cache insert and scheduler events) for pcsim trace-stats; one policy only", "FILE"},
    {"timeline", 0, 0, G_OPTION_ARG_NONE, &o.timeline,
     "After the table, draw each policy's interleaving (add/read/submit per thread) for a page range", NULL},
    {"pages", 0, 0, G_OPTION_ARG_STRING, &o.pages,
     "Page range A-B for --timeline (default: the 32 pages after the first readahead window)", "A-B"},
    {"stats", 0, 0, G_OPTION_ARG_NONE, &o.stats,
     "Print 'stats: wall_s=X events=N events_per_s=Y peak_rss_kib=Z folded=F redone=R' on stderr (F: copy steps "
     "folded into one event; R: runs redone unfolded, docs/performance.md)", NULL},
    {"seeds", 0, 0, G_OPTION_ARG_INT, &o.seeds,
     "Run N seeds (1..N, or from --seed) and add each metric's median and min..max", "N"},
    {"progress", 0, 0, G_OPTION_ARG_NONE, &o.progress,
     "Print the estimated work and a progress line every few seconds on stderr, also when it is not a terminal "
     "(logs, CI); without it, only runs estimated over ~10 s do, and progress only on a terminal", NULL},
    {"jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "With --seeds: runs in parallel (default: the number of cores)", "N"},
    {"no-fold", 0, 0, G_OPTION_ARG_NONE, &o.no_fold,
     "Run every CPU step as an event of its own, no copies folded into one (docs/performance.md): the same output, "
     "slower; to check that, or to time the difference", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("SCENARIO|JOB.fio - simulate one scenario or fio job under each policy",
      run_description, entries);
  GError *error = NULL;
  int rc = 0;
  RunJob j = {.format = PCS_FORMAT_TABLE};
  pcs_params_init(&j.p);
  j.policies = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != (o.scenario_from ? 1 : 2)) {
    rc = pcs_cli_usage_error(o.scenario_from ? "--scenario-from replaces SCENARIO: give one or the other"
                                             : "expected one SCENARIO file");
  } else if (!run_prepare(&j, &o, o.scenario_from ? NULL : argv[1], &error) ||
             !(j.seeds > 1 ? run_seeds(&j, &o, &error) : run_job(&j, &o, &error))) {
    pcs_cli_output_abort(&j.trace);
    pcs_cli_output_abort(&j.ftrace_out);
    rc = pcs_cli_fail(error);
  }
  if (j.tl.rows) g_array_free(j.tl.rows, TRUE);
  blktraces_free(j.blktraces);
  pcs_ftrace_clear(&j.ftrace);
  g_array_free(j.policies, TRUE);
  pcs_params_clear(&j.p);
  run_opts_clear(&o);
  return rc;
}

/* ---- pcsim params ---- */

int pcs_cmd_params(int argc, char **argv) {
  gboolean markdown = FALSE;
  GOptionEntry entries[] = {
    {"markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, "Print a Markdown table (docs/params.md is this output)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("- list every scenario key with its default, unit and meaning", NULL, entries);
  GError *error = NULL;
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) return pcs_cli_fail(error);
  if (argc != 1) return pcs_cli_usage_error("takes no arguments, got '%s'", argv[1]);
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  g_autoptr(GString) s = g_string_new(NULL);
  if (markdown) g_string_append(s, "| key | default | unit | meaning |\n|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s.%s", t[i].section, t[i].key);
    if (markdown)
      g_string_append_printf(s, "| `%s` | `%s` | %s | %s |\n", key, t[i].def, pcs_params_kind_unit(t[i].kind), t[i].doc);
    else
      g_string_append_printf(s, "%-24s %-18s %-9s %s\n", key, t[i].def, pcs_params_kind_unit(t[i].kind), t[i].doc);
  }
  const PcsDerivedInfo *d = pcs_params_derived_table(&n); /* shown in provenance, never set */
  g_string_append(s, markdown ? "\nDerived from the keys above (shown under \"derived\" in provenance, never set):\n\n"
                                "| value | unit | meaning |\n|---|---|---|\n" : "\nderived (never set):\n");
  for (size_t i = 0; i < n; i++)
    g_string_append_printf(s, markdown ? "| `%s.%s` | %s | %s |\n" : "%s.%-14s %-28s %s\n", d[i].section, d[i].key,
                           d[i].unit, d[i].doc);
  return pcs_cli_write_stdout(s) ? PCS_EXIT_OK : PCS_EXIT_IO;
}
