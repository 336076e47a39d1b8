/* cmd_trace.c - `pcsim trace-stats` and `pcsim compare`: real kernel traces
 * measured with pcsim's own metrics, and held against a simulation.
 *
 * The metric names are those of `pcsim run` (bios, requests, bios_per_mib,
 * requests_per_mib, avg_bio_kib, avg_request_kib) plus mib_read, so a trace
 * row and a simulated row line up; metadata (rwbs M) is reported apart.
 */
#include "cli.h"

#include "pcsim/ktrace.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/sim.h"

#include <math.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* X(name, doc): metrics shared by the trace and the simulation. */
#define PCS_TRACE_METRICS(X)                                                        \
  X(bios, "data bios (block_bio_queue / Q)")                                        \
  X(requests, "data requests (block_rq_issue / D)")                                 \
  X(mib_read, "MiB of data read")                                                   \
  X(bios_per_mib, "data bios per MiB read")                                         \
  X(requests_per_mib, "data requests per MiB read")                                 \
  X(avg_bio_kib, "mean data bio size in KiB")                                       \
  X(avg_request_kib, "mean data request size in KiB")                               \
  X(threads, "tasks that queued data bios (workload.threads)")                      \
  X(mib_before_large_bio, "MiB read before the first data bio over 1 MiB (memory.scattered)")

static const char *const metric_names[] = {
#define X(name, doc) #name,
  PCS_TRACE_METRICS(X)
#undef X
};

/* What every metric is derived from, for a trace and for a run alike. */
typedef struct {
  double bios, requests, mib, threads, mib_before_large;
} Measured;

static double per(double a, double b) { return b > 0 ? a / b : 0.0; }

static double metric(const char *m, const Measured *v) {
  if (!strcmp(m, "bios")) return v->bios;
  if (!strcmp(m, "requests")) return v->requests;
  if (!strcmp(m, "mib_read")) return v->mib;
  if (!strcmp(m, "bios_per_mib")) return per(v->bios, v->mib);
  if (!strcmp(m, "requests_per_mib")) return per(v->requests, v->mib);
  if (!strcmp(m, "avg_bio_kib")) return per(v->mib * 1024.0, v->bios);
  if (!strcmp(m, "avg_request_kib")) return per(v->mib * 1024.0, v->requests);
  if (!strcmp(m, "threads")) return v->threads;
  if (!strcmp(m, "mib_before_large_bio")) return v->mib_before_large;
  g_assert_not_reached();
}

static double trace_metric(const PcsKtrace *t, const char *m) {
  Measured v = {(double)t->c.bios, (double)t->c.requests, (double)t->c.sectors * 512.0 / MIB, (double)t->c.threads,
                (double)t->large.sectors_before * 512.0 / MIB};
  return metric(m, &v);
}

/* Data bios of a simulated run, in submission order (trace callback). */
static void sim_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  (void)t, (void)thread, (void)a;
  if (kind == PCS_TRACE_SUBMIT) pcs_large_bio_watch(user, b * (PCS_PAGE_SIZE / PCS_SECTOR_SIZE));
}

static double sim_metric(const PcsResult *r, const PcsLargeBioWatch *w, const char *m) {
  Measured v = {(double)r->bios, (double)r->requests, (double)r->pages_read * PCS_PAGE_SIZE / MIB, (double)r->threads,
                (double)w->sectors_before * 512.0 / MIB};
  return metric(m, &v);
}

static gboolean is_count(const char *m) {
  return !strcmp(m, "bios") || !strcmp(m, "requests") || !strcmp(m, "threads");
}

static void hist_json(GString *out, const GArray *h) {
  g_string_append(out, "{");
  gboolean first = TRUE;
  for (guint k = 0; k < h->len; k++) {
    if (!g_array_index(h, guint64, k)) continue;
    g_string_append_printf(out, "%s\"%u\": %" G_GUINT64_FORMAT, first ? "" : ", ", k, g_array_index(h, guint64, k));
    first = FALSE;
  }
  g_string_append(out, "}");
}

/* ---- trace-stats ---- */

static void stats_print(GString *out, const PcsKtrace *t, PcsFormat fmt) {
  double meta_mib = (double)t->c.meta_sectors * 512.0 / MIB;
  if (fmt == PCS_FORMAT_CSV) {
    g_string_append(out, "trace,format");
    for (size_t i = 0; i < G_N_ELEMENTS(metric_names); i++) g_string_append_printf(out, ",%s", metric_names[i]);
    g_string_append_printf(out, ",meta_bios,meta_requests,meta_mib\n%s,%s", t->path, t->format);
    for (size_t i = 0; i < G_N_ELEMENTS(metric_names); i++)
      g_string_append_printf(out, is_count(metric_names[i]) ? ",%.0f" : ",%.4f", trace_metric(t, metric_names[i]));
    g_string_append_printf(out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.4f\n", t->c.meta_bios,
                           t->c.meta_requests, meta_mib);
    return;
  }
  if (fmt == PCS_FORMAT_JSON) {
    g_string_append(out, "{\n  \"trace\": ");
    pcs_json_string(out, t->path);
    g_string_append_printf(out, ",\n  \"format\": \"%s\"", t->format);
    for (size_t i = 0; i < G_N_ELEMENTS(metric_names); i++)
      g_string_append_printf(out, is_count(metric_names[i]) ? ",\n  \"%s\": %.0f" : ",\n  \"%s\": %.4f",
                             metric_names[i], trace_metric(t, metric_names[i]));
    g_string_append_printf(out, ",\n  \"meta_bios\": %" G_GUINT64_FORMAT ",\n  \"meta_requests\": %" G_GUINT64_FORMAT
                           ",\n  \"meta_mib\": %.4f,\n  \"bio_pages_hist\": ", t->c.meta_bios, t->c.meta_requests,
                           meta_mib);
    hist_json(out, t->bio_pages_hist);
    g_string_append(out, "\n}\n");
    return;
  }
  g_string_append_printf(out, "trace %s (%s), reads\n\n%-18s %12s %12s\n", t->path, t->format, "", "data",
                         "metadata");
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n", "bios", t->c.bios,
                         t->c.meta_bios);
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n", "requests", t->c.requests,
                         t->c.meta_requests);
  g_string_append_printf(out, "%-18s %12.1f %12.1f\n", "MiB read", trace_metric(t, "mib_read"), meta_mib);
  g_string_append_printf(out, "%-18s %12.4f\n%-18s %12.4f\n%-18s %12.1f\n%-18s %12.1f\n", "bios/MiB",
                         trace_metric(t, "bios_per_mib"), "requests/MiB", trace_metric(t, "requests_per_mib"),
                         "avg bio KiB", trace_metric(t, "avg_bio_kib"), "avg request KiB",
                         trace_metric(t, "avg_request_kib"));
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT "\n", "threads", t->c.threads);
  g_string_append_printf(out, "%-18s %12.1f   (MiB before the first bio over 1 MiB)\n", "scattered MiB",
                         trace_metric(t, "mib_before_large_bio"));
  g_string_append(out, "\ndata bio sizes (KiB: bios):");
  for (guint k = 0; k < t->bio_pages_hist->len; k++)
    if (g_array_index(t->bio_pages_hist, guint64, k))
      g_string_append_printf(out, " %u:%" G_GUINT64_FORMAT, k * 4, g_array_index(t->bio_pages_hist, guint64, k));
  g_string_append_c(out, '\n');
}

#define TRACE_FORMATS \
  (PCS_FORMAT_BIT(PCS_FORMAT_TABLE) | PCS_FORMAT_BIT(PCS_FORMAT_CSV) | PCS_FORMAT_BIT(PCS_FORMAT_JSON))

int pcs_cmd_trace_stats(int argc, char **argv) {
  char *format = NULL;
  GOptionEntry entries[] = {
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default), csv or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("TRACE - bios, requests and bio sizes of a real block trace",
      "TRACE is ftrace text (block_bio_queue and block_rq_issue events, as\n"
      "`cat /sys/kernel/tracing/trace` prints them) or blkparse's default output\n"
      "(Q and D actions), plain or gzip.  Reads only; metadata (rwbs M) apart.\n"
      "Metrics are named as in `pcsim run`: bios, requests, mib_read,\n"
      "bios_per_mib, requests_per_mib, avg_bio_kib, avg_request_kib; and two\n"
      "about the run: threads (tasks that queued data bios) and\n"
      "mib_before_large_bio (data read before the first bio over 1 MiB, the\n"
      "scattered memory of the scenario key memory.scattered).", entries);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  PcsKtrace t = {0};
  int rc = 0;
  g_autoptr(GString) out = g_string_new(NULL);
  if (!pcs_cli_parse(ctx, &argc, &argv, &error) || !pcs_format_parse(format, TRACE_FORMATS, &fmt, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 2) {
    rc = pcs_cli_usage_error("expected one TRACE file");
  } else if (!pcs_ktrace_load(&t, argv[1], &error)) {
    rc = pcs_cli_fail(error);
  } else {
    stats_print(out, &t, fmt);
    if (!pcs_cli_write_file(NULL, out, &error)) rc = pcs_cli_fail(error);
  }
  pcs_ktrace_clear(&t);
  g_free(format);
  return rc;
}

/* ---- compare ---- */

/* Where the run's conditions differ from the trace's: what to --set. */
static void compare_notes(GString *out, const PcsKtrace *t, const PcsParams *p) {
  if (t->c.threads && t->c.threads != p->workload_threads)
    g_string_append_printf(out, "\nnote: %" G_GUINT64_FORMAT " tasks queued data bios in the trace, the simulation ran %"
                           G_GUINT64_FORMAT " threads (--set workload.threads=%" G_GUINT64_FORMAT ")\n",
                           t->c.threads, p->workload_threads, t->c.threads);
  uint64_t kib = (t->large.sectors_before / 8) * 4; /* whole pages */
  double real = (double)kib / 1024.0, assumed = (double)p->memory_scattered / MIB;
  if (p->memory_contiguous && fabs(real - assumed) > MAX(1.0, 0.1 * real))
    g_string_append_printf(out, "\nnote: the trace read %.1f MiB before its first bio over 1 MiB, the scenario's "
                           "memory.scattered is %.1f MiB (--set memory.scattered=%" G_GUINT64_FORMAT "k simulates "
                           "the trace's memory)\n", real, assumed, kib);
}

static void compare_print(GString *out, const PcsKtrace *t, const PcsParams *p, const PcsResult *r,
                          const PcsLargeBioWatch *w, PcsFormat fmt) {
  if (fmt == PCS_FORMAT_JSON) {
    g_string_append(out, "{\n  \"trace\": ");
    pcs_json_string(out, t->path);
    g_string_append(out, ",\n");
    pcs_report_json_provenance(out, p, "  ");
    g_string_append(out, ",\n  \"policy\": ");
    pcs_json_string(out, r->policy.name);
    g_string_append(out, ",\n  \"metrics\": [\n");
  } else if (fmt == PCS_FORMAT_CSV) {
    pcs_report_csv_provenance(out, p);
    g_string_append_printf(out, "# trace %s\n# policy %s\nmetric,real,simulated,ratio\n", t->path, r->policy.name);
  } else {
    g_string_append_printf(out, "real:      %s (%s)\nsimulated: %s, policy %s, %" G_GUINT64_FORMAT " thread(s)\n\n"
                           "%-18s %14s %14s %8s\n", t->path, t->format, p->source ? p->source : "defaults",
                           r->policy.name, p->workload_threads, "metric", "real", "simulated", "ratio");
  }
  for (size_t i = 0; i < G_N_ELEMENTS(metric_names); i++) {
    const char *m = metric_names[i];
    double real = trace_metric(t, m), sim = sim_metric(r, w, m), ratio = per(sim, real);
    if (fmt == PCS_FORMAT_JSON)
      g_string_append_printf(out, "    {\"metric\": \"%s\", \"real\": %.4f, \"simulated\": %.4f, \"ratio\": %.4f}%s\n",
                             m, real, sim, ratio, i + 1 < G_N_ELEMENTS(metric_names) ? "," : "");
    else if (fmt == PCS_FORMAT_CSV)
      g_string_append_printf(out, "%s,%.4f,%.4f,%.4f\n", m, real, sim, ratio);
    else
      g_string_append_printf(out, "%-18s %14.4f %14.4f %8.3f\n", m, real, sim, ratio);
  }
  if (fmt == PCS_FORMAT_JSON) g_string_append(out, "  ]\n}\n");
  if (fmt == PCS_FORMAT_TABLE) compare_notes(out, t, p);
}

int pcs_cmd_compare(int argc, char **argv) {
  char *format = NULL, *policy = NULL, *seed = NULL;
  char **sets = NULL;
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING, &policy, "Policy to simulate (default: the first of scenario.policies)", "P"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override one scenario key (repeatable)", "SECTION.KEY=VALUE"},
    {"seed", 0, 0, G_OPTION_ARG_STRING, &seed, "Seed of the random streams", "N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default), csv or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("TRACE SCENARIO - a real trace and a simulation side by side",
      "Reads TRACE as `pcsim trace-stats` does, runs SCENARIO under one policy, and\n"
      "prints each metric real, simulated and their ratio (simulated / real).\n"
      "Data reads only: pcsim does not model metadata.\n\n"
      "Two rows are the run's conditions rather than results: threads (tasks\n"
      "that queued data bios) and mib_before_large_bio (data read before the\n"
      "first bio over 1 MiB: with BIO_MAX_VECS = 256, a larger bio needs\n"
      "physically contiguous pages, so this is how much was read into\n"
      "scattered free memory).  The table ends with a note and the --set that\n"
      "matches the trace when the scenario differs (workload.threads,\n"
      "memory.scattered).", entries);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  PcsKtrace t = {0};
  PcsParams p;
  PcsResult r = {0};
  PcsLargeBioWatch watch = {0};
  gboolean ran = FALSE;
  int rc = 0;
  g_autoptr(GString) out = g_string_new(NULL);
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  pcs_params_init(&p);
  char *given[] = {policy, NULL};
  if (!pcs_cli_parse(ctx, &argc, &argv, &error) || !pcs_format_parse(format, TRACE_FORMATS, &fmt, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 3) {
    rc = pcs_cli_usage_error("expected a TRACE file and a SCENARIO file");
  } else if (!pcs_ktrace_load(&t, argv[1], &error) || !pcs_cli_load_scenario(argv[2], sets, seed, &p, &error) ||
             !pcs_cli_policies(&p, policy ? given : NULL, pols, &error) ||
             !(ran = pcs_sim_run(&p, &g_array_index(pols, PcsPolicy, 0),
                                 &(PcsRunOptions){.trace = sim_watch, .trace_user = &watch, .cancel = &pcs_cli_signal},
                                 &r, &error))) {
    rc = pcs_cli_fail(error);
  } else {
    compare_print(out, &t, &p, &r, &watch, fmt);
    if (!pcs_cli_write_file(NULL, out, &error)) rc = pcs_cli_fail(error);
  }
  if (ran) pcs_result_clear(&r);
  pcs_ktrace_clear(&t);
  pcs_params_clear(&p);
  g_free(format), g_free(policy), g_free(seed);
  g_strfreev(sets);
  return rc;
}
