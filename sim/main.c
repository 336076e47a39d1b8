/* main.c - the pcsim command line: `pcsim COMMAND [OPTIONS]`.
 *
 * Each command parses its options with GOption, does its work into memory,
 * and only then writes: bad input exits 2 with one FILE:LINE: message and
 * leaves stdout empty.
 */
#include "pcsim/params.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/sim.h"
#include "pcsim/steps.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define EXIT_INPUT 2

static int fail(GError *error) {
  fprintf(stderr, "pcsim: %s\n", error->message);
  int code = error->domain == PCS_ERROR ? EXIT_INPUT : 1;
  g_error_free(error);
  return code;
}

static gboolean write_stdout(const GString *s) {
  return fwrite(s->str, 1, s->len, stdout) == s->len && fflush(stdout) == 0;
}

/* ---- scenario + --set + --seed + --policy, shared by commands ---- */

typedef struct {
  char **policies;
  char **sets;
  char *seed;
  char *format;
  gboolean stats;
  char *trace;
  gboolean timeline;
  char *pages;
} RunOpts;

/* --trace FILE: every model action as TSV, written to FILE.tmp then renamed. */
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

/* --timeline: the seed's diagram for one page range, one column per thread. */
typedef struct {
  PcsTime t;
  uint32_t thread;
  PcsTraceKind kind;
  uint64_t a, b;
} TimelineRow;

typedef struct {
  uint64_t first, last; /* page range, inclusive */
  GArray *rows;
  TraceSink *tsv;       /* also --trace, if given */
} Timeline;

static void timeline_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Timeline *tl = user;
  if (tl->tsv) trace_tsv(tl->tsv, t, thread, kind, a, b);
  uint64_t lo = a, hi = kind == PCS_TRACE_SUBMIT ? a + b - 1 : a;
  gboolean shown = kind == PCS_TRACE_INSERT || kind == PCS_TRACE_READ || kind == PCS_TRACE_SUBMIT;
  if (!shown || thread == PCS_NO_THREAD || hi < tl->first || lo > tl->last) return;
  TimelineRow r = {t, thread, kind, a, b};
  g_array_append_val(tl->rows, r);
}

static void timeline_print(GString *out, const Timeline *tl, const char *policy, uint32_t threads) {
  g_string_append_printf(out, "\ntimeline %s, pages %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "\n%12s",
                         policy, tl->first, tl->last, "time_us");
  for (uint32_t t = 1; t <= threads; t++) {
    g_autofree char *h = g_strdup_printf("thread %u", t);
    g_string_append_printf(out, "  %-20s", h);
  }
  while (out->len && out->str[out->len - 1] == ' ') g_string_truncate(out, out->len - 1);
  g_string_append_c(out, '\n');
  for (guint i = 0; i < tl->rows->len; i++) {
    TimelineRow *r = &g_array_index(tl->rows, TimelineRow, i);
    g_autofree char *cell = r->kind == PCS_TRACE_INSERT ? g_strdup_printf("add Page %" G_GUINT64_FORMAT, r->a)
                          : r->kind == PCS_TRACE_READ   ? g_strdup_printf("read Page %" G_GUINT64_FORMAT, r->a)
                          : g_strdup_printf("submit bio %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, r->a, r->a + r->b - 1);
    g_string_append_printf(out, "%12.3f", (double)r->t / 1000.0);
    for (uint32_t t = 1; t <= threads; t++) g_string_append_printf(out, "  %-20s", t == r->thread ? cell : "");
    while (out->len && out->str[out->len - 1] == ' ') g_string_truncate(out, out->len - 1);
    g_string_append_c(out, '\n');
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
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--pages: page %" G_GUINT64_FORMAT
                " is past the end of the file (%" G_GUINT64_FORMAT " pages)", tl->first, npages);
    return FALSE;
  }
  tl->last = MIN(tl->last, npages - 1);
  return TRUE;
}


static gboolean load_scenario(const char *path, char **sets, const char *seed, PcsParams *p,
                              GError **error) {
  pcs_params_init(p);
  if (path && !pcs_params_load(p, path, error)) return FALSE;
  for (char **s = sets; s && *s; s++)
    if (!pcs_params_set_assignment(p, *s, error)) return FALSE;
  if (seed && !pcs_params_set(p, pcs_params_find("scenario", "seed"), seed, "--seed", error))
    return FALSE;
  return pcs_params_validate(p, error);
}

static gboolean resolve_policies(const PcsParams *p, char **given, GArray *out, GError **error) {
  if (given && *given) {
    for (char **s = given; *s; s++)
      if (!pcs_policy_parse_list(*s, out, error)) return FALSE;
    return TRUE;
  }
  if (!pcs_policy_parse_list(p->scenario_policies, out, error)) {
    g_prefix_error(error, "%s: scenario.policies: ", p->source ? p->source : "scenario");
    return FALSE;
  }
  return TRUE;
}

/* ---- pcsim run ---- */

static const char run_description[] =
    "Runs SCENARIO (an INI file, see `pcsim params`) once per policy and prints\n"
    "throughput, bios and requests.  With two or more policies the table shows\n"
    "each policy's change in aggregate throughput against the first.\n"
    "\n"
    "Policies: immediate | pool:N | pool-contig:N | window  (default: scenario.policies)\n"
    "Output is byte-identical for the same scenario, options and seed.\n"
    "Exit status: 0 ok, 2 bad input (the message names file, line and key).";

/* Runs every policy, then writes the report (and --trace) in one go. */
static int run_policies(const PcsParams *pp, GArray *policies, const RunOpts *po, PcsFormat format,
                        GArray *results) {
  const PcsParams *p_ = pp;
  GError *error = NULL;
  int rc = 0;
  g_autoptr(GString) s = g_string_new(NULL);
  g_autofree char *trace_tmp = po->trace ? g_strdup_printf("%s.tmp", po->trace) : NULL;
  TraceSink sink = {0};
  PcsRunOptions ropt = {0};
  if (po->trace) {
    sink.f = fopen(trace_tmp, "w");
    if (!sink.f) {
      fprintf(stderr, "pcsim: %s: cannot write: %s\n", trace_tmp, g_strerror(errno));
      rc = EXIT_INPUT;
      return rc;
    }
    fputs("policy\ttime_ns\tthread\tkind\ta\tb\n", sink.f);
    ropt.trace = trace_tsv;
    ropt.trace_user = &sink;
  }
  Timeline tl = {0};
  if (po->timeline) {
    if (format != PCS_FORMAT_TABLE) {
      g_set_error(&error, PCS_ERROR, PCS_ERROR_INPUT, "--timeline draws a table: use it with --format table");
    } else if (timeline_range(p_, po->pages, &tl, &error)) {
      tl.rows = g_array_new(FALSE, FALSE, sizeof(TimelineRow));
      tl.tsv = sink.f ? &sink : NULL;
      ropt.trace = timeline_watch;
      ropt.trace_user = &tl;
    }
    if (error) {
      if (sink.f) fclose(sink.f), unlink(trace_tmp);
      return fail(error);
    }
  }
  g_autoptr(GString) timelines = g_string_new(NULL);
  gint64 t0 = g_get_monotonic_time();
  uint64_t events = 0;
  for (guint i = 0; i < policies->len; i++) {
    PcsResult r;
    sink.policy = g_array_index(policies, PcsPolicy, i).name;
    if (!pcs_sim_run(p_, &g_array_index(policies, PcsPolicy, i), &ropt, &r, &error)) {
      if (sink.f) fclose(sink.f), unlink(trace_tmp);
      rc = fail(error);
      return rc;
    }
    events += r.events;
    g_array_append_val(results, r);
    if (tl.rows) {
      timeline_print(timelines, &tl, sink.policy, r.threads);
      g_array_set_size(tl.rows, 0);
    }
  }
  if (tl.rows) g_array_free(tl.rows, TRUE);
  double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (sink.f && (fclose(sink.f) != 0 || rename(trace_tmp, po->trace) != 0)) {
    fprintf(stderr, "pcsim: %s: cannot write: %s\n", po->trace, g_strerror(errno));
    unlink(trace_tmp);
    rc = 1;
    return rc;
  }

  PcsResult *res = (PcsResult *)results->data;
  switch (format) {
  case PCS_FORMAT_TABLE: pcs_report_table(s, p_, res, results->len); break;
  case PCS_FORMAT_CSV: pcs_report_csv(s, p_, res, results->len); break;
  case PCS_FORMAT_JSON: pcs_report_json(s, p_, res, results->len); break;
  }
  g_string_append_len(s, timelines->str, (gssize)timelines->len);
  if (!write_stdout(s)) rc = 1;
  if (po->stats) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "stats: wall_s=%.3f events=%" G_GUINT64_FORMAT " events_per_s=%.0f peak_rss_kib=%ld\n",
            wall, events, wall > 0 ? (double)events / wall : 0.0, ru.ru_maxrss);
  }
  return rc;
}

static int cmd_run(int argc, char **argv) {
  RunOpts o = {0};
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o.policies,
     "Readpages policy to run (repeatable, or comma separated): immediate, pool:N, pool-contig:N, window", "P"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o.sets,
     "Override one scenario key, e.g. --set workload.threads=8 (repeatable)", "SECTION.KEY=VALUE"},
    {"seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, "Seed of the random streams (overrides scenario.seed)", "N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "Output format: table (default), csv or json", "FMT"},
    {"trace", 0, 0, G_OPTION_ARG_FILENAME, &o.trace,
     "Write every simulator event as TSV (policy, time_ns, thread, kind, a, b) to FILE", "FILE"},
    {"timeline", 0, 0, G_OPTION_ARG_NONE, &o.timeline,
     "After the table, draw each policy's interleaving (add/read/submit per thread) for a page range", NULL},
    {"pages", 0, 0, G_OPTION_ARG_STRING, &o.pages,
     "Page range A-B for --timeline (default: the 32 pages after the first readahead window)", "A-B"},
    {"stats", 0, 0, G_OPTION_ARG_NONE, &o.stats,
     "Print 'stats: wall_s=X events=N events_per_s=Y peak_rss_kib=Z' on stderr", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO - simulate one scenario under each policy");
  g_option_context_set_description(ctx, run_description);
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *error = NULL;
  int rc = 0;
  PcsParams p;
  pcs_params_init(&p);
  g_autoptr(GArray) policies = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g_autoptr(GArray) results = g_array_new(FALSE, TRUE, sizeof(PcsResult));
  PcsFormat format = PCS_FORMAT_TABLE;

  if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
    g_prefix_error(&error, "run: ");
    error->domain = PCS_ERROR;
    rc = fail(error);
    goto out;
  }
  if (argc != 2) {
    fprintf(stderr, "pcsim: run: expected one SCENARIO file (see pcsim run --help)\n");
    rc = EXIT_INPUT;
    goto out;
  }
  pcs_params_clear(&p);
  if ((o.format && !pcs_format_parse(o.format, &format, &error)) ||
      !load_scenario(argv[1], o.sets, o.seed, &p, &error) ||
      !resolve_policies(&p, o.policies, policies, &error)) {
    rc = fail(error);
    goto out;
  }
  for (guint i = 0; i < policies->len; i++)
    if (!pcs_sim_check_limits(&p, &g_array_index(policies, PcsPolicy, i), &error)) {
      rc = fail(error);
      goto out;
    }

  rc = run_policies(&p, policies, &o, format, results);
out:
  for (guint i = 0; i < results->len; i++) pcs_result_clear(&g_array_index(results, PcsResult, i));
  pcs_params_clear(&p);
  g_strfreev(o.policies);
  g_strfreev(o.sets);
  g_free(o.seed);
  g_free(o.format);
  g_free(o.trace);
  g_free(o.pages);
  return rc;
}

/* ---- pcsim params ---- */

static int cmd_params(int argc, char **argv) {
  gboolean markdown = FALSE;
  GOptionEntry entries[] = {
    {"markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, "Print a Markdown table (as in the README)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = g_option_context_new("- list every scenario key with its default, unit and meaning");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
    error->domain = PCS_ERROR;
    return fail(error);
  }
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
  return write_stdout(s) ? 0 : 1;
}


/* ---- pcsim replay / explore (the step model) ---- */

static const char default_step_policies[] = "immediate,pool:16,pool-contig:16,window";

static gboolean step_policies(char **given, const char *def, GArray *out, GError **error) {
  if (given && *given) {
    for (char **s = given; *s; s++)
      if (!pcs_policy_parse_list(*s, out, error)) return FALSE;
    return TRUE;
  }
  return pcs_policy_parse_list(def, out, error);
}

static gboolean parse_cmd(GOptionContext *ctx, int *argc, char ***argv, GError **error) {
  if (g_option_context_parse(ctx, argc, argv, error)) return TRUE;
  (*error)->domain = PCS_ERROR;
  return FALSE;
}

static int cmd_replay(int argc, char **argv) {
  char **policies = NULL, *format = NULL;
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &policies,
     "Policy to replay under (repeatable; default: immediate). A schedule fits one policy's program: a step naming a finished thread is an error", "P"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default) or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = g_option_context_new("SCHEDULE - replay one interleaving of INSERT/READ steps");
  g_option_context_set_description(ctx,
      "SCHEDULE is a text file ('#' starts a comment):\n"
      "  threads 4\n  pages 4\n  steps 1 1 2 2 2 3 3 3 3 4 4 4 4 4\n"
      "Each step lets that thread (1-based) take its next atomic step (INSERT p or READ p).\n"
      "When the steps run out, unfinished threads run to completion, thread 1 first.\n"
      "Prints every bio in submission order (thread, first_page, pages) and total_bios.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  PcsSchedule sched = {0};
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g_autoptr(GString) out = g_string_new(NULL);
  int rc = 0;
  if (!parse_cmd(ctx, &argc, &argv, &error) || (format && !pcs_format_parse(format, &fmt, &error)) ||
      !step_policies(policies, "immediate", pols, &error)) {
    rc = fail(error);
  } else if (argc != 2 || fmt == PCS_FORMAT_CSV) {
    fprintf(stderr, "pcsim: replay: expected one SCHEDULE file and --format table or json\n");
    rc = EXIT_INPUT;
  } else if (!pcs_schedule_load(&sched, argv[1], &error)) {
    rc = fail(error);
  } else {
    if (fmt == PCS_FORMAT_JSON) g_string_append(out, "{\n  \"results\": [\n");
    for (guint i = 0; i < pols->len && !rc; i++) {
      const PcsPolicy *pol = &g_array_index(pols, PcsPolicy, i);
      g_autoptr(GArray) bios = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
      if (!pcs_steps_replay(&sched, pol, bios, argv[1], &error)) {
        rc = fail(error);
        break;
      }
      if (fmt == PCS_FORMAT_JSON) {
        g_string_append_printf(out, "    {\"policy\": \"%s\", \"total_bios\": %u, \"bios\": [", pol->name, bios->len);
        for (guint b = 0; b < bios->len; b++) {
          PcsStepBio *x = &g_array_index(bios, PcsStepBio, b);
          g_string_append_printf(out, "%s{\"thread\": %u, \"first_page\": %u, \"pages\": %u}", b ? ", " : "",
                                 x->thread, x->first_page, x->pages);
        }
        g_string_append_printf(out, "]}%s\n", i + 1 < pols->len ? "," : "");
      } else {
        g_string_append_printf(out, "%spolicy %s: total_bios %u\n  %-8s %-11s %s\n", i ? "\n" : "", pol->name,
                               bios->len, "thread", "first_page", "pages");
        for (guint b = 0; b < bios->len; b++) {
          PcsStepBio *x = &g_array_index(bios, PcsStepBio, b);
          g_string_append_printf(out, "  %-8u %-11u %u\n", x->thread, x->first_page, x->pages);
        }
      }
    }
    if (fmt == PCS_FORMAT_JSON) g_string_append(out, "  ]\n}\n");
    if (!rc && !write_stdout(out)) rc = 1;
  }
  pcs_schedule_clear(&sched);
  g_strfreev(policies);
  g_free(format);
  return rc;
}

static void explore_print(GString *out, PcsFormat fmt, const PcsPolicy *pol, uint32_t threads, uint32_t pages,
                          const PcsExplore *e, gboolean last) {
  g_autoptr(GString) hist = g_string_new(NULL);
  for (uint32_t k = 0; k < e->hist_len; k++)
    if (e->histogram[k])
      g_string_append_printf(hist, fmt == PCS_FORMAT_JSON ? "%s\"%u\": %" G_GUINT64_FORMAT : "%s%u:%" G_GUINT64_FORMAT,
                             hist->len ? (fmt == PCS_FORMAT_JSON ? ", " : " ") : "", k, e->histogram[k]);
  if (fmt == PCS_FORMAT_JSON)
    g_string_append_printf(out,
        "    {\"policy\": \"%s\", \"threads\": %u, \"pages\": %u, \"schedules\": %" G_GUINT64_FORMAT
        ", \"min_bios\": %u, \"max_bios\": %u, \"mean_bios\": %.15g, \"histogram\": {%s}, "
        "\"random_expected_bios\": %.15g}%s\n",
        pol->name, threads, pages, e->schedules, e->min_bios, e->max_bios, e->mean_bios, hist->str,
        e->random_expected_bios, last ? "" : ",");
  else
    g_string_append_printf(out, "%-16s %20" G_GUINT64_FORMAT " %8u %8u %18.15g %18.15g  %s\n", pol->name,
                           e->schedules, e->min_bios, e->max_bios, e->mean_bios, e->random_expected_bios, hist->str);
}

static int cmd_explore(int argc, char **argv) {
  char **policies = NULL, *format = NULL;
  gint threads = 0, pages = 0;
  GOptionEntry entries[] = {
    {"threads", 't', 0, G_OPTION_ARG_INT, &threads, "Threads, each handed the page list 0..P-1", "T"},
    {"pages", 'n', 0, G_OPTION_ARG_INT, &pages, "Pages in the list", "P"},
    {"policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &policies,
     "Policy (repeatable; default: immediate, pool:16, pool-contig:16, window)", "P"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default) or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = g_option_context_new("- count the bios of every schedule of the step model");
  g_option_context_set_description(ctx,
      "Enumerates every complete schedule (memoised on state) and reports per policy:\n"
      "schedules, min_bios, max_bios, mean_bios (each schedule counted once), the\n"
      "histogram (total bios -> schedules) and random_expected_bios (a scheduler that\n"
      "picks uniformly among unfinished threads at every step).  Sizes up to\n"
      "threads*pages = 24 (e.g. 2x8, 3x6, 4x4) finish within a second.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g_autoptr(GString) out = g_string_new(NULL);
  int rc = 0;
  if (!parse_cmd(ctx, &argc, &argv, &error) || (format && !pcs_format_parse(format, &fmt, &error)) ||
      !step_policies(policies, default_step_policies, pols, &error)) {
    rc = fail(error);
  } else if (argc != 1 || threads < 1 || pages < 1 || fmt == PCS_FORMAT_CSV) {
    fprintf(stderr, "pcsim: explore: expected --threads T >= 1, --pages P >= 1 and --format table or json\n");
    rc = EXIT_INPUT;
  } else {
    if (fmt == PCS_FORMAT_JSON)
      g_string_append(out, "{\n  \"results\": [\n");
    else
      g_string_append_printf(out, "threads %d, pages %d\n%-16s %20s %8s %8s %18s %18s  %s\n", threads, pages, "policy",
                             "schedules", "min_bios", "max_bios", "mean_bios", "random_expected", "histogram");
    for (guint i = 0; i < pols->len && !rc; i++) {
      PcsExplore e;
      const PcsPolicy *pol = &g_array_index(pols, PcsPolicy, i);
      if (!pcs_steps_explore((uint32_t)threads, (uint32_t)pages, pol, &e, &error)) {
        rc = fail(error);
        break;
      }
      explore_print(out, fmt, pol, (uint32_t)threads, (uint32_t)pages, &e, i + 1 == pols->len);
      pcs_explore_clear(&e);
    }
    if (fmt == PCS_FORMAT_JSON) g_string_append(out, "  ]\n}\n");
    if (!rc && !write_stdout(out)) rc = 1;
  }
  g_strfreev(policies);
  g_free(format);
  return rc;
}

/* ---- dispatch ---- */

typedef struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} Command;

static const Command commands[] = {
  {"run", cmd_run, "simulate a scenario under one or more policies"},
  {"params", cmd_params, "list every scenario key with default, unit and meaning"},
  {"replay", cmd_replay, "replay one interleaving of the step model from a schedule file"},
  {"explore", cmd_explore, "count the bios of every interleaving of the step model"},
};

static void usage(FILE *f) {
  fprintf(f,
          "Usage: pcsim COMMAND [OPTIONS]\n\n"
          "pcsim simulates Linux page-cache inserts and bio submission for N threads\n"
          "reading one file, and counts bios, requests and throughput per readpages policy.\n\n"
          "Commands:\n");
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n`pcsim COMMAND --help` explains each command's options.\n"
             "Example: pcsim run workloads/liubo-2011.ini --policy immediate --policy pool:16\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_INPUT;
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
    argv[1] = prg;
    return commands[i].fn(argc - 1, argv + 1);
  }
  fprintf(stderr, "pcsim: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return EXIT_INPUT;
}
