/* cmd_trace.c - `pcsim trace-stats` and `pcsim compare`: real kernel traces
 * measured with pcsim's own metrics, and held against a simulation.
 *
 * The metric names are those of `pcsim run` (bios, requests, bios_per_mib,
 * requests_per_mib, avg_bio_kib, avg_request_kib) plus mib_read, so a trace
 * row and a simulated row line up; metadata (rwbs M) is reported apart.
 * When the trace has readahead, page-insert and complete events, the
 * mechanism metrics of include/pcsim/ktrace.h follow (ra_sync .. max_in_flight,
 * inserted_mib_per_thread, device_latency_us_hist), again under the names
 * of `pcsim run`'s JSON, which counts them the same way in the model.
 */
#include "cli.h"

#include "pcsim/ktrace.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/sim.h"
#include "pcsim/units.h"

#include <math.h>
#include <string.h>

/* What every metric is derived from, for a trace and for a run alike. */
typedef struct {
  double bios, requests, mib, threads, mib_before_large;
  double ra_sync, ra_async, inserts, owner_changes_per_mib, contiguous_frames; /* mechanism */
  double device_ms_per_mib, device_mean_us, max_in_flight;                    /* device */
} Measured;

/* Which events of a trace a metric needs: block_bio_queue / block_rq_issue
 * (every trace has them), the readahead and page-insert events (MECH:
 * PcsKtrace.mech.present), block_rq_complete (DEV: PcsKtrace.dev.present).
 * A simulation has them all. */
typedef enum { FROM_BLOCK, FROM_MECH, FROM_DEV } MetricSource;

/* X(name, kind, from, doc, get): metrics shared by the trace and the
 * simulation, defined as include/pcsim/ktrace.h defines them; kind U is a
 * count (printed as an integer), F a decimal; from is the MetricSource
 * without its prefix; get is the value, an expression of `const Measured *v`. */
#define PCS_TRACE_METRICS(X)                                                                  \
  X(bios, U, BLOCK, "data bios (block_bio_queue / Q)", v->bios)                               \
  X(requests, U, BLOCK, "data requests (block_rq_issue / D)", v->requests)                    \
  X(mib_read, F, BLOCK, "MiB of data read", v->mib)                                           \
  X(bios_per_mib, F, BLOCK, "data bios per MiB read", pcs_per(v->bios, v->mib))               \
  X(requests_per_mib, F, BLOCK, "data requests per MiB read", pcs_per(v->requests, v->mib))   \
  X(avg_bio_kib, F, BLOCK, "mean data bio size in KiB", pcs_per(v->mib * PCS_KIB, v->bios))   \
  X(avg_request_kib, F, BLOCK, "mean data request size in KiB", pcs_per(v->mib * PCS_KIB, v->requests)) \
  X(threads, U, BLOCK, "tasks that queued data bios (workload.threads)", v->threads)          \
  X(mib_before_large_bio, F, BLOCK, "MiB read before the first data bio over 1 MiB (memory.scattered)", \
    v->mib_before_large)                                                                      \
  X(ra_sync, U, MECH, "synchronous readahead calls (page_cache_sync_ra)", v->ra_sync)         \
  X(ra_async, U, MECH, "asynchronous readahead calls (page_cache_async_ra)", v->ra_async)     \
  X(inserts, U, MECH, "pages inserted (mm_filemap_add_to_page_cache)", v->inserts)            \
  X(owner_changes_per_mib, F, MECH, "file pages i, i+1 inserted by different threads, per MiB of file", \
    v->owner_changes_per_mib)                                                                 \
  X(contiguous_frames, F, MECH, "share of consecutive file pages in consecutive frames (pfn)", \
    v->contiguous_frames)                                                                     \
  X(device_ms_per_mib, F, DEV, "request time issue -> complete, summed, in ms per MiB", v->device_ms_per_mib) \
  X(device_mean_us, F, DEV, "mean request time issue -> complete in us", v->device_mean_us)   \
  X(max_in_flight, U, DEV, "most requests issued and not completed at once", v->max_in_flight)

typedef enum {
#define X(name, kind, from, doc, get) METRIC_##name,
  PCS_TRACE_METRICS(X)
#undef X
  METRIC_COUNT
} Metric;

static const struct {
  const char *name;
  gboolean count;
  MetricSource from;
} metrics[] = {
#define X(name, kind, from, doc, get) {#name, #kind[0] == 'U', FROM_##from},
  PCS_TRACE_METRICS(X)
#undef X
};

static double metric(Metric m, const Measured *v) {
  switch (m) {
#define X(name, kind, from, doc, get) \
  case METRIC_##name: return get;
    PCS_TRACE_METRICS(X)
#undef X
  default: g_assert_not_reached();
  }
}

G_STATIC_ASSERT(PCS_LATENCY_BUCKETS == PCS_KTRACE_LATENCY_BUCKETS);
#define LATENCY_HIST_KEY "device_latency_us_hist"
#define INSERTED_KEY "inserted_mib_per_thread"

static double sectors_mib(uint64_t sectors) { return (double)sectors * PCS_SECTOR_SIZE / PCS_MIB; }

/* Does trace T have the events metric M is measured from? */
static gboolean trace_has(const PcsKtrace *t, Metric m) {
  switch (metrics[m].from) {
  case FROM_MECH: return t->mech.present;
  case FROM_DEV: return t->dev.present;
  default: return TRUE;
  }
}

static double trace_metric(const PcsKtrace *t, Metric m) {
  const PcsKtraceMechanism *k = &t->mech;
  const PcsKtraceDevice *d = &t->dev;
  Measured v = {(double)t->c.bios, (double)t->c.requests, sectors_mib(t->c.sectors), (double)t->c.threads,
                sectors_mib(t->large.sectors_before), (double)k->ra_sync, (double)k->ra_async, (double)k->inserts,
                k->owner_changes_per_mib, k->contiguous_frames, d->device_ms_per_mib, d->device_mean_us,
                (double)d->max_in_flight};
  return metric(m, &v);
}

/* Data bios of a simulated run, in submission order (trace callback). */
static void sim_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  (void)t, (void)thread, (void)a;
  if (kind == PCS_TRACE_SUBMIT) pcs_large_bio_watch(user, b * PCS_SECTORS_PER_PAGE);
}

/* The run's value of M: the same getter as the `pcsim run` column of that name. */
static double sim_metric(const PcsResult *r, const PcsLargeBioWatch *w, Metric m) {
#define COL(name) pcs_report_get(r, PCS_COLUMN_##name)
  Measured v = {(double)r->bios, (double)r->requests, pcs_result_mib_read(r), (double)r->threads,
                sectors_mib(w->sectors_before), COL(ra_sync), COL(ra_async), COL(inserts),
                COL(owner_changes_per_mib), COL(contiguous_frames), COL(device_ms_per_mib), COL(device_mean_us),
                COL(max_in_flight)};
#undef COL
  return metric(m, &v);
}

/* Entry K of the list metrics, 0 past a list's end. */
static double trace_inserted_mib(const PcsKtrace *t, guint k) {
  GArray *a = t->mech.inserted_mib_per_thread;
  return a && k < a->len ? g_array_index(a, PcsKtraceThreadMib, k).mib : 0.0;
}

static double sim_inserted_mib(const PcsResult *r, guint k) {
  return k < r->insert_threads ? pcs_result_inserted_mib(r, k) : 0.0;
}

/* A metric as a CSV cell or JSON number. */
static void metric_json(PcsJson *w, Metric m, double v) {
  pcs_json_double(w, metrics[m].name, metrics[m].count ? "%.0f" : "%.4f", v);
}

/* ---- trace-stats ---- */

static void stats_json(GString *out, const PcsKtrace *t) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_json_string(&w, "trace", t->path);
  pcs_json_string(&w, "format", t->format);
  for (Metric m = 0; m < METRIC_COUNT; m++)
    if (trace_has(t, m)) metric_json(&w, m, trace_metric(t, m));
  pcs_json_uint(&w, "meta_bios", t->c.meta_bios);
  pcs_json_uint(&w, "meta_requests", t->c.meta_requests);
  pcs_json_double(&w, "meta_mib", "%.4f", sectors_mib(t->c.meta_sectors));
  pcs_json_hist(&w, "bio_pages_hist", (const uint64_t *)t->bio_pages_hist->data, t->bio_pages_hist->len);
  if (t->mech.present) {
    pcs_json_begin_array(&w, INSERTED_KEY, PCS_JSON_INLINE);
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++)
      pcs_json_double(&w, NULL, "%.4f", trace_inserted_mib(t, k));
    pcs_json_end(&w);
    pcs_json_begin_array(&w, "inserted_threads", PCS_JSON_INLINE); /* the TASK-PID of each entry */
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++)
      pcs_json_string(&w, NULL, g_array_index(t->mech.inserted_mib_per_thread, PcsKtraceThreadMib, k).task);
    pcs_json_end(&w);
  }
  if (t->dev.present) {
    pcs_json_begin_array(&w, LATENCY_HIST_KEY, PCS_JSON_INLINE);
    for (guint k = 0; k < PCS_KTRACE_LATENCY_BUCKETS; k++) pcs_json_uint(&w, NULL, t->dev.latency_us_hist[k]);
    pcs_json_end(&w);
  }
  pcs_json_end_document(&w);
}

/* The readahead, insert and device metrics of the table, when the trace has them. */
static void stats_mechanism_table(GString *out, const PcsKtrace *t) {
  gboolean any = FALSE;
  for (Metric m = 0; m < METRIC_COUNT; m++) {
    if (metrics[m].from == FROM_BLOCK || !trace_has(t, m)) continue;
    if (!any) g_string_append_c(out, '\n');
    any = TRUE;
    g_string_append_printf(out, metrics[m].count ? "%-22s %12.0f\n" : "%-22s %12.4f\n", metrics[m].name,
                           trace_metric(t, m));
  }
  if (t->mech.present) {
    g_string_append(out, "inserted MiB per thread:");
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++) {
      const PcsKtraceThreadMib *e = &g_array_index(t->mech.inserted_mib_per_thread, PcsKtraceThreadMib, k);
      g_string_append_printf(out, " %s:%.1f", e->task, e->mib);
    }
    g_string_append_c(out, '\n');
  }
  if (t->dev.present) {
    g_string_append(out, "request times (us from: requests):");
    for (guint k = 0; k < PCS_KTRACE_LATENCY_BUCKETS; k++)
      if (t->dev.latency_us_hist[k])
        g_string_append_printf(out, " %u:%" G_GUINT64_FORMAT, k ? 1u << k : 0u, t->dev.latency_us_hist[k]);
    g_string_append_c(out, '\n');
  }
}

static void stats_print(GString *out, const PcsKtrace *t, PcsFormat fmt) {
  double meta_mib = sectors_mib(t->c.meta_sectors);
  if (fmt == PCS_FORMAT_CSV) {
    g_string_append(out, "trace,format");
    for (Metric m = 0; m < METRIC_COUNT; m++)
      if (trace_has(t, m)) g_string_append_printf(out, ",%s", metrics[m].name);
    g_string_append_printf(out, ",meta_bios,meta_requests,meta_mib\n%s,%s", t->path, t->format);
    for (Metric m = 0; m < METRIC_COUNT; m++)
      if (trace_has(t, m)) g_string_append_printf(out, metrics[m].count ? ",%.0f" : ",%.4f", trace_metric(t, m));
    g_string_append_printf(out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.4f\n", t->c.meta_bios,
                           t->c.meta_requests, meta_mib);
    return;
  }
  if (fmt == PCS_FORMAT_JSON) {
    stats_json(out, t);
    return;
  }
  g_string_append_printf(out, "trace %s (%s), reads\n\n%-18s %12s %12s\n", t->path, t->format, "", "data",
                         "metadata");
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n", "bios", t->c.bios,
                         t->c.meta_bios);
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n", "requests", t->c.requests,
                         t->c.meta_requests);
  g_string_append_printf(out, "%-18s %12.1f %12.1f\n", "MiB read", trace_metric(t, METRIC_mib_read), meta_mib);
  g_string_append_printf(out, "%-18s %12.4f\n%-18s %12.4f\n%-18s %12.1f\n%-18s %12.1f\n", "bios/MiB",
                         trace_metric(t, METRIC_bios_per_mib), "requests/MiB", trace_metric(t, METRIC_requests_per_mib),
                         "avg bio KiB", trace_metric(t, METRIC_avg_bio_kib), "avg request KiB",
                         trace_metric(t, METRIC_avg_request_kib));
  g_string_append_printf(out, "%-18s %12" G_GUINT64_FORMAT "\n", "threads", t->c.threads);
  g_string_append_printf(out, "%-18s %12.1f   (MiB before the first bio over 1 MiB)\n", "scattered MiB",
                         trace_metric(t, METRIC_mib_before_large_bio));
  g_string_append(out, "\ndata bio sizes (KiB: bios):");
  for (guint k = 0; k < t->bio_pages_hist->len; k++)
    if (g_array_index(t->bio_pages_hist, guint64, k))
      g_string_append_printf(out, " %u:%" G_GUINT64_FORMAT, k * 4, g_array_index(t->bio_pages_hist, guint64, k));
  g_string_append_c(out, '\n');
  stats_mechanism_table(out, t);
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
      "scattered memory of the scenario key memory.scattered).\n\n"
      "When the trace has them (ftrace text of capture-kernel-trace), the\n"
      "readahead, page-insert and request-complete events of the data file\n"
      "add ra_sync, ra_async, inserts, owner_changes_per_mib,\n"
      "contiguous_frames, inserted_mib_per_thread, device_ms_per_mib,\n"
      "device_mean_us, max_in_flight and device_latency_us_hist (bucket 0:\n"
      "under 2 us, bucket k: [2^k, 2^(k+1)) us).", entries);
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
  uint64_t kib = (t->large.sectors_before / PCS_SECTORS_PER_PAGE) * (PCS_PAGE_SIZE / PCS_KIB); /* whole pages */
  double real = (double)kib / PCS_KIB, assumed = (double)p->memory_scattered / PCS_MIB;
  if (p->memory_contiguous && fabs(real - assumed) > MAX(1.0, 0.1 * real))
    g_string_append_printf(out, "\nnote: the trace read %.1f MiB before its first bio over 1 MiB, the scenario's "
                           "memory.scattered is %.1f MiB (--set memory.scattered=%" G_GUINT64_FORMAT "k simulates "
                           "the trace's memory)\n", real, assumed, kib);
}

/* One row of `compare`: a metric, real and simulated. */
typedef struct {
  char name[48];
  double real, sim;
} CompareRow;

static void add_row(GArray *rows, const char *name, double real, double sim) {
  CompareRow row = {.real = real, .sim = sim};
  g_strlcpy(row.name, name, sizeof row.name);
  g_array_append_val(rows, row);
}

/* Every metric the trace has, then the list metrics entry by entry:
 * inserted_mib_per_thread[k] (k-th thread to insert, on each side) and
 * device_latency_us_hist[k] (buckets with requests on either side). */
static GArray *compare_rows(const PcsKtrace *t, const PcsResult *r, const PcsLargeBioWatch *w) {
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(CompareRow));
  for (Metric m = 0; m < METRIC_COUNT; m++)
    if (trace_has(t, m)) add_row(rows, metrics[m].name, trace_metric(t, m), sim_metric(r, w, m));
  char name[48];
  if (t->mech.present)
    for (guint k = 0; k < MAX(t->mech.inserted_mib_per_thread->len, r->insert_threads); k++) {
      g_snprintf(name, sizeof name, INSERTED_KEY "[%u]", k);
      add_row(rows, name, trace_inserted_mib(t, k), sim_inserted_mib(r, k));
    }
  if (t->dev.present)
    for (guint k = 0; k < PCS_LATENCY_BUCKETS; k++) {
      if (!t->dev.latency_us_hist[k] && !r->latency_us_hist[k]) continue;
      g_snprintf(name, sizeof name, LATENCY_HIST_KEY "[%u]", k);
      add_row(rows, name, (double)t->dev.latency_us_hist[k], (double)r->latency_us_hist[k]);
    }
  return rows;
}

static void compare_json(GString *out, const PcsKtrace *t, const PcsParams *p, const PcsResult *r,
                         const GArray *rows) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_json_string(&w, "trace", t->path);
  pcs_report_json_provenance(&w, p);
  pcs_json_string(&w, "policy", r->policy.name);
  pcs_json_begin_array(&w, "metrics", PCS_JSON_LINES);
  for (guint i = 0; i < rows->len; i++) {
    const CompareRow *row = &g_array_index(rows, CompareRow, i);
    pcs_json_begin_object(&w, NULL, PCS_JSON_INLINE);
    pcs_json_string(&w, "metric", row->name);
    pcs_json_double(&w, "real", "%.4f", row->real);
    pcs_json_double(&w, "simulated", "%.4f", row->sim);
    pcs_json_double(&w, "ratio", "%.4f", pcs_per(row->sim, row->real));
    pcs_json_end(&w);
  }
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}

static void compare_print(GString *out, const PcsKtrace *t, const PcsParams *p, const PcsResult *r,
                          const PcsLargeBioWatch *w, PcsFormat fmt) {
  g_autoptr(GArray) rows = compare_rows(t, r, w);
  int width = 18; /* the metric column: the longest name */
  for (guint i = 0; i < rows->len; i++) width = MAX(width, (int)strlen(g_array_index(rows, CompareRow, i).name));
  if (fmt == PCS_FORMAT_JSON) {
    compare_json(out, t, p, r, rows);
    return;
  }
  if (fmt == PCS_FORMAT_CSV) {
    pcs_report_csv_provenance(out, p);
    g_string_append_printf(out, "# trace %s\n# policy %s\nmetric,real,simulated,ratio\n", t->path, r->policy.name);
  } else {
    g_string_append_printf(out, "real:      %s (%s)\nsimulated: %s, policy %s, %" G_GUINT64_FORMAT " thread(s)\n\n"
                           "%-*s %14s %14s %8s\n", t->path, t->format, p->source ? p->source : "defaults",
                           r->policy.name, p->workload_threads, width, "metric", "real", "simulated", "ratio");
  }
  for (guint i = 0; i < rows->len; i++) {
    const CompareRow *row = &g_array_index(rows, CompareRow, i);
    double ratio = pcs_per(row->sim, row->real);
    if (fmt == PCS_FORMAT_CSV)
      g_string_append_printf(out, "%s,%.4f,%.4f,%.4f\n", row->name, row->real, row->sim, ratio);
    else
      g_string_append_printf(out, "%-*s %14.4f %14.4f %8.3f\n", width, row->name, row->real, row->sim, ratio);
  }
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
      "memory.scattered).\n\n"
      "A trace with readahead, page-insert and complete events adds their\n"
      "metrics (see trace-stats), then inserted_mib_per_thread[k] (the k-th\n"
      "thread to insert, on each side) and device_latency_us_hist[k] (buckets\n"
      "with requests on either side).", entries);
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
