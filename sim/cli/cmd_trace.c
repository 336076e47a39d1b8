/* cmd_trace.c - `pcsim trace-stats` and `pcsim compare`: real kernel traces
 * measured with pcsim's own metrics, and held against a simulation.
 *
 * The metric names are those of `pcsim run` (bios, requests, bios_per_mib,
 * requests_per_mib, avg_bio_kib, avg_request_kib) plus mib_read, so a trace
 * row and a simulated row line up; metadata (rwbs M) is reported apart.
 * When the trace has readahead, page-insert and complete events, the
 * mechanism metrics of include/pcsim/ktrace.h follow (ra_sync .. max_in_flight,
 * inserted_mib_per_thread, device_latency_us_hist), again under the names
 * of `pcsim run`'s JSON, which counts them the same way in the model; each
 * needs only its own events (MetricSource): a trace reduced to no page
 * inserts still gives ra_sync, ra_async and the readahead window note.
 */
#include "cli.h"

#include "pcsim/ktrace.h"
#include "pcsim/policy.h"
#include "pcsim/report.h"
#include "pcsim/seeds.h"
#include "pcsim/sim.h"
#include "pcsim/units.h"

#include <math.h>
#include <string.h>

/* What every metric is derived from, for a trace and for a run alike. */
typedef struct {
  double bios, requests, mib, threads, mib_before_large;
  double ra_sync, ra_async, inserts, inserted_pages, owner_changes_per_mib, contiguous_frames; /* mechanism */
  double device_ms_per_mib, device_mean_us, max_in_flight;                    /* device */
} Measured;

/* Which events of a trace a metric needs: block_bio_queue / block_rq_issue
 * (every trace has them), the readahead events of a data file (RA:
 * PcsKtrace.mech.ra_present, also in a trace reduced to no page inserts),
 * the page-insert events (MECH: PcsKtrace.mech.present), block_rq_complete
 * (DEV: PcsKtrace.dev.present).  A simulation has them all. */
typedef enum { FROM_BLOCK, FROM_RA, FROM_MECH, FROM_DEV } MetricSource;

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
  X(ra_sync, U, RA, "synchronous readahead calls (page_cache_sync_ra)", v->ra_sync)           \
  X(ra_async, U, RA, "asynchronous readahead calls (page_cache_async_ra)", v->ra_async)       \
  X(inserts, U, MECH, "folios inserted (mm_filemap_add_to_page_cache lines, one per folio)", v->inserts) \
  X(inserted_pages, U, MECH, "pages inserted (2^order summed over those lines)", v->inserted_pages) \
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

/* Does trace T have the events metric M is measured from?  The device
 * metrics need a request timed from issue to complete, not only complete
 * events (a blkparse excerpt may hold a C whose D it does not). */
static gboolean trace_has(const PcsKtrace *t, Metric m) {
  if (m == METRIC_mib_before_large_bio) return t->large.seen; /* no bio over 1 MiB: not a measure of scattered memory */
  switch (metrics[m].from) {
  case FROM_RA: return t->mech.ra_present;
  case FROM_MECH: return t->mech.present;
  case FROM_DEV: return t->dev.timed > 0;
  default: return TRUE;
  }
}

/* A metric the trace names but cannot measure: a device metric when it has
 * complete events, none paired with an issue; mib_before_large_bio when no
 * data bio is over 1 MiB.  Printed as n/a (JSON null, an empty CSV cell),
 * never as a measured value. */
static gboolean trace_untimed(const PcsKtrace *t, Metric m) {
  if (m == METRIC_mib_before_large_bio) return !t->large.seen; /* n/a as the table's "none" */
  return metrics[m].from == FROM_DEV && t->dev.present && !t->dev.timed;
}

/* Why a trace has no request times, in its own format's words. */
static char *untimed_why(const PcsKtrace *t) {
  gboolean bp = !strcmp(t->format, "blkparse");
  const char *c = bp ? "C" : "block_rq_complete", *d = bp ? "D" : "block_rq_issue";
  if (!t->dev.present) return g_strdup_printf("not in this trace (no %s events)", c);
  return g_strdup_printf("none timed (%" G_GUINT64_FORMAT " %s event%s, none paired with a %s of the same sector "
                         "and size)", t->dev.unissued_completes, c, t->dev.unissued_completes == 1 ? "" : "s", d);
}

static double trace_metric(const PcsKtrace *t, Metric m) {
  const PcsKtraceMechanism *k = &t->mech;
  const PcsKtraceDevice *d = &t->dev;
  Measured v = {(double)t->c.bios, (double)t->c.requests, sectors_mib(t->c.sectors), (double)t->c.threads,
                sectors_mib(t->large.sectors_before), (double)k->ra_sync, (double)k->ra_async, (double)k->inserts,
                (double)k->inserted_pages, k->owner_changes_per_mib, k->contiguous_frames, d->device_ms_per_mib, d->device_mean_us,
                (double)d->max_in_flight};
  return metric(m, &v);
}

/* Data bios of a simulated run, in submission order (trace callback). */
static void sim_watch(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  (void)t, (void)thread;
  if (kind == PCS_TRACE_SUBMIT && a < PCS_META_FIRST_PAGE) /* a checksum leaf's read is metadata */
    pcs_large_bio_watch(user, b * PCS_SECTORS_PER_PAGE);
}

/* The run's value of M: the same getter as the `pcsim run` column of that name. */
static double sim_metric(const PcsResult *r, const PcsLargeBioWatch *w, Metric m) {
#define COL(name) pcs_report_get(r, PCS_COLUMN_##name)
  Measured v = {(double)r->bios, (double)r->requests, pcs_result_mib_read(r), (double)r->threads,
                sectors_mib(w->sectors_before), COL(ra_sync), COL(ra_async), COL(inserts),
                COL(inserted_pages),
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
  for (Metric m = 0; m < METRIC_COUNT; m++) {
    if (trace_has(t, m)) metric_json(&w, m, trace_metric(t, m));
    else if (trace_untimed(t, m)) pcs_json_double(&w, metrics[m].name, "%.4f", NAN); /* null */
  }
  pcs_json_uint(&w, "meta_bios", t->c.meta_bios);
  pcs_json_uint(&w, "meta_requests", t->c.meta_requests);
  pcs_json_double(&w, "meta_mib", "%.4f", sectors_mib(t->c.meta_sectors));
  pcs_json_hist(&w, "bio_pages_hist", (const uint64_t *)t->bio_pages_hist->data, t->bio_pages_hist->len);
  if (t->mech.present) {
    pcs_json_hist(&w, "inserts_by_order", t->mech.inserts_by_order, G_N_ELEMENTS(t->mech.inserts_by_order));
    pcs_json_begin_array(&w, INSERTED_KEY, PCS_JSON_INLINE);
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++)
      pcs_json_double(&w, NULL, "%.4f", trace_inserted_mib(t, k));
    pcs_json_end(&w);
    pcs_json_begin_array(&w, "inserted_threads", PCS_JSON_INLINE); /* the TASK-PID of each entry */
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++)
      pcs_json_string(&w, NULL, g_array_index(t->mech.inserted_mib_per_thread, PcsKtraceThreadMib, k).task);
    pcs_json_end(&w);
  }
  if (t->dev.present && !t->dev.timed) {
    pcs_json_double(&w, LATENCY_HIST_KEY, "%.0f", NAN); /* null: no request timed */
  } else if (t->dev.present) {
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
    if (metrics[m].from == FROM_BLOCK || !(trace_has(t, m) || trace_untimed(t, m))) continue;
    if (!any) g_string_append_c(out, '\n');
    any = TRUE;
    if (trace_untimed(t, m))
      g_string_append_printf(out, "%-22s %12s\n", metrics[m].name, "n/a");
    else
      g_string_append_printf(out, metrics[m].count ? "%-22s %12.0f\n" : "%-22s %12.4f\n", metrics[m].name,
                             trace_metric(t, m));
  }
  if (t->mech.present) {
    g_string_append(out, "inserts by order (order: folios):");
    for (guint k = 0; k < G_N_ELEMENTS(t->mech.inserts_by_order); k++)
      if (t->mech.inserts_by_order[k]) g_string_append_printf(out, " %u:%" G_GUINT64_FORMAT, k, t->mech.inserts_by_order[k]);
    g_string_append_c(out, '\n');
    g_string_append(out, "inserted MiB per thread:");
    for (guint k = 0; k < t->mech.inserted_mib_per_thread->len; k++) {
      const PcsKtraceThreadMib *e = &g_array_index(t->mech.inserted_mib_per_thread, PcsKtraceThreadMib, k);
      g_string_append_printf(out, " %s:%.1f", e->task, e->mib);
    }
    g_string_append_c(out, '\n');
  }
  if (t->dev.timed) {
    g_string_append(out, "request times (us from: requests):");
    for (guint k = 0; k < PCS_KTRACE_LATENCY_BUCKETS; k++)
      if (t->dev.latency_us_hist[k])
        g_string_append_printf(out, " %u:%" G_GUINT64_FORMAT, k ? 1u << k : 0u, t->dev.latency_us_hist[k]);
    g_string_append_c(out, '\n');
  } else {
    g_autofree char *why = untimed_why(t);
    g_string_append_printf(out, "%srequest times: %s\n", any ? "" : "\n", why);
  }
}

static void stats_print(GString *out, const PcsKtrace *t, PcsFormat fmt) {
  double meta_mib = sectors_mib(t->c.meta_sectors);
  if (fmt == PCS_FORMAT_CSV) {
    g_string_append(out, "trace,format");
    for (Metric m = 0; m < METRIC_COUNT; m++)
      if (trace_has(t, m) || trace_untimed(t, m)) g_string_append_printf(out, ",%s", metrics[m].name);
    g_string_append_printf(out, ",meta_bios,meta_requests,meta_mib\n%s,%s", t->path, t->format);
    for (Metric m = 0; m < METRIC_COUNT; m++) {
      if (trace_has(t, m)) g_string_append_printf(out, metrics[m].count ? ",%.0f" : ",%.4f", trace_metric(t, m));
      else if (trace_untimed(t, m)) g_string_append_c(out, ','); /* n/a: an empty cell */
    }
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
  if (t->large.seen)
    g_string_append_printf(out, "%-18s %12.1f   (MiB before the first bio over 1 MiB)\n", "scattered MiB",
                           trace_metric(t, METRIC_mib_before_large_bio));
  else /* every byte came before a bio that never was: not a measure of scattered memory */
    g_string_append_printf(out, "%-18s %12s   (no bio over 1 MiB)\n", "scattered MiB", "none");
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
      "add ra_sync, ra_async, inserts (folios: one per\n"
      "mm_filemap_add_to_page_cache line, whatever its order), inserted_pages\n"
      "(pages: 2^order summed), inserts_by_order (JSON: {order: folios}),\n"
      "owner_changes_per_mib, contiguous_frames, inserted_mib_per_thread,\n"
      "device_ms_per_mib, device_mean_us, max_in_flight and\n"
      "device_latency_us_hist (bucket 0: under 2 us, bucket k: [2^k, 2^(k+1))\n"
      "us).  A trace without page-insert lines (reduced to its block and\n"
      "readahead events, or captured with --no-page-inserts) still gives\n"
      "ra_sync and ra_async, on the file its readahead lines name.", entries);
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

/* What the trace ran with, where it can be known: the window from its
 * readahead events' ra_pages (the file's f_ra.ra_pages), numjobs, bs and
 * fadvise_hint from the fio job beside it (STEM.fio for STEM.ftrace.txt.gz,
 * as scripts/capture-kernel-trace keeps them), else the tasks that queued
 * data bios for the threads. */
typedef struct {
  uint64_t window;           /* bytes; 0: the trace prints no ra_pages */
  uint64_t threads;          /* 0: unknown */
  const char *threads_from;  /* where THREADS comes from, for the note */
  uint64_t bs;               /* 0: no job beside the trace */
  PcsFadvise fadvise;        /* the job's, when BS is known */
  char *job;                 /* the fio job read, or NULL */
} TraceConditions;

static void trace_conditions(const PcsKtrace *t, TraceConditions *c) {
  memset(c, 0, sizeof *c);
  c->window = t->mech.ra_pages * PCS_PAGE_SIZE;
  g_autofree char *dir = g_path_get_dirname(t->path), *base = g_path_get_basename(t->path);
  base[strcspn(base, ".")] = 0;
  static const char *const ext[] = {".fio", ".job"};
  for (size_t i = 0; i < G_N_ELEMENTS(ext) && !c->job; i++) {
    g_autofree char *name = g_strconcat(base, ext[i], NULL), *path = g_build_filename(dir, name, NULL);
    PcsFioJob job = {0};
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR) && pcs_fio_load(&job, path, NULL)) {
      c->job = g_steal_pointer(&path);
      c->threads = job.numjobs, c->bs = job.bs, c->fadvise = job.fadvise;
    }
    pcs_fio_clear(&job);
  }
  if (c->job) c->threads_from = "numjobs";
  else if (t->c.threads) c->threads = t->c.threads, c->threads_from = "tasks that queued data bios";
}

/* Where the run's conditions differ from the trace's: the readahead
 * window, the threads and the block size first, each with the --set that
 * matches the trace; only when they match, the finer note on how scattered
 * the free memory was (SIM_BEFORE, the simulated mib_before_large_bio, against
 * the trace's; a trace whose window never allows a bio over 1 MiB says nothing about
 * scattered memory). */
static void compare_notes(GString *out, const PcsKtrace *t, const PcsParams *p, double sim_before) {
  TraceConditions c;
  trace_conditions(t, &c);
  g_autoptr(GString) sets = g_string_new(NULL);
  uint64_t window = pcs_params_window_bytes(p);
  if (c.window && c.window != window) {
    PcsParams q; /* the trace's fadvise_hint (its job's, else the scenario's) decides the doubling */
    pcs_params_copy(&q, p); /* a whole copy: initialising Q first would leak its defaults */
    if (c.job) pcs_params_set(&q, pcs_params_find("readahead", "fadvise_hint"), pcs_params_fadvise_name(c.fadvise),
                              "trace", NULL);
    gboolean fadvise_differs = pcs_params_fadvise(&q) != pcs_params_fadvise(p);
    pcs_params_set(&q, pcs_params_find("readahead", "read_ahead_kb"), "4", "trace", NULL);
    uint64_t per_page = pcs_params_window_bytes(&q) / PCS_PAGE_SIZE; /* 2 with POSIX_FADV_SEQUENTIAL */
    pcs_params_clear(&q);
    uint64_t kb = c.window / per_page / PCS_KIB;
    g_string_append_printf(out, "\nnote: the trace's readahead window is %" G_GUINT64_FORMAT " KiB (ra_pages=%"
                           G_GUINT64_FORMAT " in its readahead events), the scenario's is %" G_GUINT64_FORMAT
                           " KiB (readahead.read_ahead_kb=%" G_GUINT64_FORMAT ", fadvise_hint=%s): read_ahead_kb=%"
                           G_GUINT64_FORMAT " in the trace\n", c.window / PCS_KIB, t->mech.ra_pages, window / PCS_KIB,
                           p->readahead_read_ahead_kb, pcs_params_fadvise_name(pcs_params_fadvise(p)), kb);
    g_string_append_printf(sets, " --set readahead.read_ahead_kb=%" G_GUINT64_FORMAT, kb);
    if (fadvise_differs)
      g_string_append_printf(sets, " --set readahead.fadvise_hint=%s", pcs_params_fadvise_name(c.fadvise));
  }
  if (c.threads && c.threads != p->workload_threads) {
    g_string_append_printf(out, "\nnote: the trace ran %" G_GUINT64_FORMAT " threads (%s%s%s), the simulation %"
                           G_GUINT64_FORMAT "\n", c.threads, c.threads_from, c.job ? " in " : "", c.job ? c.job : "",
                           p->workload_threads);
    g_string_append_printf(sets, " --set workload.threads=%" G_GUINT64_FORMAT, c.threads);
  }
  if (c.bs && c.bs != p->workload_block_size) {
    g_string_append_printf(out, "\nnote: the trace read %" G_GUINT64_FORMAT " KiB blocks (bs in %s), the scenario %"
                           G_GUINT64_FORMAT " KiB (workload.block_size)\n", c.bs / PCS_KIB, c.job,
                           p->workload_block_size / PCS_KIB);
    g_string_append_printf(sets, " --set workload.block_size=%" G_GUINT64_FORMAT "k", c.bs / PCS_KIB);
  }
  g_free(c.job);
  if (sets->len) {
    g_string_append_printf(out, "\nnote: the scenario does not run the trace's conditions: compare again with%s "
                           "before reading anything finer from this table\n", sets->str);
    return;
  }
  /* how scattered the free memory was: the trace's MiB before its first bio over 1 MiB against the simulation's */
  uint64_t kib = (t->large.sectors_before / PCS_SECTORS_PER_PAGE) * (PCS_PAGE_SIZE / PCS_KIB); /* whole pages */
  double real = (double)kib / PCS_KIB;
  if (t->large.seen && p->memory_contiguous && !isnan(sim_before) && fabs(real - sim_before) > MAX(1.0, 0.1 * real))
    g_string_append_printf(out, "\nnote: the trace read %.1f MiB before its first bio over 1 MiB, the simulation %.1f "
                           "MiB: the scenario's free memory (%smemory.buddyinfo, memory.pcp_freed) is not the trace's "
                           "machine's; `pcsim calibrate` measures it from a capture's page inserts\n", real, sim_before,
                           p->memory_scattered ? "memory.scattered, " : "");
}

/* The simulated side: one run per seed, with its large-bio watch. */
typedef struct {
  PcsResult *res;
  PcsLargeBioWatch *watch;
  guint n;
  uint64_t first; /* seed of res[0] */
} SimRuns;

/* One row of `compare`: a metric, its value in each trace and each run. */
typedef struct {
  char name[48];
  gboolean count; /* printed as an integer */
  double *real;   /* one per trace */
  double *sim;    /* one per run */
} CompareRow;

static void row_free(gpointer data) {
  CompareRow *row = data;
  g_free(row->real);
  g_free(row->sim);
}

static CompareRow *add_row(GArray *rows, const char *name, gboolean count, guint ntraces, guint nruns) {
  CompareRow row = {.count = count, .real = g_new0(double, ntraces), .sim = g_new0(double, nruns)};
  g_strlcpy(row.name, name, sizeof row.name);
  g_array_append_val(rows, row);
  return &g_array_index(rows, CompareRow, rows->len - 1);
}

/* Every metric all traces have, then the list metrics entry by entry:
 * inserted_mib_per_thread[k] (k-th thread to insert, on each side) and
 * device_latency_us_hist[k] (buckets with requests on any side). */
static GArray *compare_rows(const PcsKtrace *t, guint nt, const SimRuns *s) {
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(CompareRow));
  g_array_set_clear_func(rows, row_free);
  gboolean mech = TRUE, dev = TRUE;
  for (guint i = 0; i < nt; i++) mech = mech && t[i].mech.present, dev = dev && t[i].dev.present;
  for (Metric m = 0; m < METRIC_COUNT; m++) {
    gboolean all = TRUE;
    for (guint i = 0; i < nt; i++) all = all && trace_has(&t[i], m);
    if (!all) continue;
    CompareRow *row = add_row(rows, metrics[m].name, metrics[m].count, nt, s->n);
    for (guint i = 0; i < nt; i++) row->real[i] = trace_metric(&t[i], m);
    for (guint k = 0; k < s->n; k++) row->sim[k] = sim_metric(&s->res[k], &s->watch[k], m);
  }
  char name[48];
  guint len = 0;
  for (guint i = 0; mech && i < nt; i++) len = MAX(len, t[i].mech.inserted_mib_per_thread->len);
  for (guint k = 0; mech && k < s->n; k++) len = MAX(len, s->res[k].insert_threads);
  for (guint e = 0; mech && e < len; e++) {
    g_snprintf(name, sizeof name, INSERTED_KEY "[%u]", e);
    CompareRow *row = add_row(rows, name, FALSE, nt, s->n);
    for (guint i = 0; i < nt; i++) row->real[i] = trace_inserted_mib(&t[i], e);
    for (guint k = 0; k < s->n; k++) row->sim[k] = sim_inserted_mib(&s->res[k], e);
  }
  for (guint b = 0; dev && b < PCS_LATENCY_BUCKETS; b++) {
    gboolean any = FALSE;
    for (guint i = 0; i < nt; i++) any = any || t[i].dev.latency_us_hist[b];
    for (guint k = 0; k < s->n; k++) any = any || s->res[k].latency_us_hist[b];
    if (!any) continue;
    g_snprintf(name, sizeof name, LATENCY_HIST_KEY "[%u]", b);
    CompareRow *row = add_row(rows, name, TRUE, nt, s->n);
    for (guint i = 0; i < nt; i++) row->real[i] = (double)t[i].dev.latency_us_hist[b];
    for (guint k = 0; k < s->n; k++) row->sim[k] = (double)s->res[k].latency_us_hist[b];
  }
  return rows;
}

/* A row's spreads: over the traces and over the runs. */
static void row_spreads(const CompareRow *row, guint nt, guint nruns, PcsSpread *real, PcsSpread *sim) {
  double *v = g_memdup2(row->real, nt * sizeof(double));
  *real = pcs_spread(v, nt);
  g_free(v);
  v = g_memdup2(row->sim, nruns * sizeof(double));
  *sim = pcs_spread(v, nruns);
  g_free(v);
}

/* VALUE as a JSON number of ROW (counts as integers). */
static void row_json(PcsJson *w, const CompareRow *row, const char *key, double v) {
  g_autofree char *text = pcs_report_number(v, row->count);
  pcs_json_raw(w, key, text);
}

static void row_json_list(PcsJson *w, const CompareRow *row, const char *key, const double *v, guint n) {
  pcs_json_begin_array(w, key, PCS_JSON_INLINE);
  for (guint i = 0; i < n; i++) row_json(w, row, NULL, v[i]);
  pcs_json_end(w);
}

/* One trace and one run: real, simulated, ratio.  Several traces or seeds
 * (SPREAD): each side's median, min and max, every value, and the ratio of
 * the medians. */
static void compare_json(GString *out, const PcsKtrace *t, guint nt, const PcsParams *p, const SimRuns *s,
                         const GArray *rows, gboolean spread) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  if (!spread) {
    pcs_json_string(&w, "trace", t->path);
  } else {
    pcs_json_begin_array(&w, "traces", PCS_JSON_INLINE);
    for (guint i = 0; i < nt; i++) pcs_json_string(&w, NULL, t[i].path);
    pcs_json_end(&w);
  }
  pcs_report_json_provenance(&w, p);
  if (spread) {
    pcs_json_begin_array(&w, "seeds", PCS_JSON_INLINE);
    for (guint k = 0; k < s->n; k++) pcs_json_uint(&w, NULL, s->first + k);
    pcs_json_end(&w);
  }
  pcs_json_string(&w, "policy", s->res[0].policy.name);
  pcs_json_begin_array(&w, "metrics", PCS_JSON_LINES);
  for (guint i = 0; i < rows->len; i++) {
    const CompareRow *row = &g_array_index(rows, CompareRow, i);
    PcsSpread real, sim;
    row_spreads(row, nt, s->n, &real, &sim);
    pcs_json_begin_object(&w, NULL, PCS_JSON_INLINE);
    pcs_json_string(&w, "metric", row->name);
    row_json(&w, row, "real", real.median);
    if (spread) {
      row_json(&w, row, "real_min", real.min);
      row_json(&w, row, "real_max", real.max);
      row_json_list(&w, row, "real_each", row->real, nt);
    }
    row_json(&w, row, "simulated", sim.median);
    if (spread) {
      row_json(&w, row, "simulated_min", sim.min);
      row_json(&w, row, "simulated_max", sim.max);
      row_json_list(&w, row, "simulated_each", row->sim, s->n);
    }
    pcs_json_double(&w, "ratio", "%.4f", pcs_per(sim.median, real.median));
    pcs_json_end(&w);
  }
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}

/* "MIN..MAX" of a table cell. */
static char *range_cell(const CompareRow *row, const PcsSpread *sp) {
  g_autofree char *lo = pcs_report_number(sp->min, row->count);
  g_autofree char *hi = pcs_report_number(sp->max, row->count);
  return g_strdup_printf("%s..%s", lo, hi);
}

static void compare_title(GString *out, const PcsKtrace *t, guint nt, const PcsParams *p, const SimRuns *s,
                          gboolean spread) {
  if (nt == 1) {
    g_string_append_printf(out, "real:      %s (%s)\n", t->path, t->format);
  } else {
    g_string_append_printf(out, "real:      %u traces, median and min..max\n", nt);
    for (guint i = 0; i < nt; i++) g_string_append_printf(out, "           %s (%s)\n", t[i].path, t[i].format);
  }
  g_string_append_printf(out, "simulated: %s, policy %s, %" G_GUINT64_FORMAT " thread(s)", p->source ? p->source : "defaults",
                         s->res[0].policy.name, p->workload_threads);
  if (spread && s->n > 1)
    g_string_append_printf(out, ", seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ", median and min..max", s->first,
                           s->first + s->n - 1);
  else if (spread)
    g_string_append_printf(out, ", seed %" G_GUINT64_FORMAT, s->first);
  g_string_append(out, "\n\n");
}

static void compare_print(GString *out, const PcsKtrace *t, guint nt, const PcsParams *p, const SimRuns *s,
                          PcsFormat fmt) {
  g_autoptr(GArray) rows = compare_rows(t, nt, s);
  gboolean spread = nt > 1 || s->n > 1;
  int width = 18; /* the metric column: the longest name */
  for (guint i = 0; i < rows->len; i++) width = MAX(width, (int)strlen(g_array_index(rows, CompareRow, i).name));
  if (fmt == PCS_FORMAT_JSON) {
    compare_json(out, t, nt, p, s, rows, spread);
    return;
  }
  if (fmt == PCS_FORMAT_CSV) {
    pcs_report_csv_provenance(out, p);
    for (guint i = 0; i < nt; i++) g_string_append_printf(out, "# trace %s\n", t[i].path);
    if (spread) g_string_append_printf(out, "# seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "\n", s->first,
                                       s->first + s->n - 1);
    g_string_append_printf(out, "# policy %s\n%s\n", s->res[0].policy.name,
                           spread ? "metric,real,real_min,real_max,simulated,simulated_min,simulated_max,ratio"
                                  : "metric,real,simulated,ratio");
  } else {
    compare_title(out, t, nt, p, s, spread);
    if (spread)
      g_string_append_printf(out, "%-*s %14s %24s %14s %24s %8s\n", width, "metric", "real", "real min..max",
                             "simulated", "simulated min..max", "ratio");
    else
      g_string_append_printf(out, "%-*s %14s %14s %8s\n", width, "metric", "real", "simulated", "ratio");
  }
  double sim_before = NAN; /* the simulated mib_before_large_bio, for the note */
  for (guint i = 0; i < rows->len; i++) {
    const CompareRow *row = &g_array_index(rows, CompareRow, i);
    PcsSpread real, sim;
    row_spreads(row, nt, s->n, &real, &sim);
    if (!strcmp(row->name, metrics[METRIC_mib_before_large_bio].name)) sim_before = sim.median;
    double ratio = pcs_per(sim.median, real.median);
    g_autofree char *rv = pcs_report_number(real.median, row->count);
    g_autofree char *sv = pcs_report_number(sim.median, row->count);
    g_autofree char *rr = range_cell(row, &real);
    g_autofree char *sr = range_cell(row, &sim);
    if (fmt == PCS_FORMAT_CSV && spread) {
      g_autofree char *rlo = pcs_report_number(real.min, row->count), *rhi = pcs_report_number(real.max, row->count);
      g_autofree char *slo = pcs_report_number(sim.min, row->count), *shi = pcs_report_number(sim.max, row->count);
      g_string_append_printf(out, "%s,%s,%s,%s,%s,%s,%s,%.4f\n", row->name, rv, rlo, rhi, sv, slo, shi, ratio);
    } else if (fmt == PCS_FORMAT_CSV) {
      g_string_append_printf(out, "%s,%s,%s,%.4f\n", row->name, rv, sv, ratio);
    } else if (spread) {
      g_string_append_printf(out, "%-*s %14s %24s %14s %24s %8.3f\n", width, row->name, rv, rr, sv, sr, ratio);
    } else {
      g_string_append_printf(out, "%-*s %14s %14s %8.3f\n", width, row->name, rv, sv, ratio);
    }
  }
  if (fmt == PCS_FORMAT_TABLE) compare_notes(out, t, p, sim_before);
}

/* ---- compare: loading the traces and running the seeds ---- */

typedef struct {
  char **paths;
  PcsKtrace *traces;
} TraceLoad;

static gboolean load_slot(void *user, guint i, GError **error) {
  TraceLoad *l = user;
  return pcs_ktrace_load(&l->traces[i], l->paths[i], error);
}

static void watch_prepare(void *user, guint i, PcsRunOptions *opt) {
  SimRuns *s = user;
  opt->trace = sim_watch;
  opt->trace_user = &s->watch[i];
}

typedef struct {
  char *format, *policy, *seed;
  char **sets;
  gint seeds, jobs;
} CompareOpts;

/* TRACE... SCENARIO: the traces (on --jobs threads), then the seeds. */
static gboolean compare_run(const CompareOpts *o, char **paths, guint nt, PcsKtrace *traces, PcsParams *p,
                            SimRuns *s, GError **error) {
  if (o->seeds != G_MININT && (o->seeds < 1 || o->seeds > PCS_CLI_MAX_SEEDS)) { /* G_MININT: not given */
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--seeds %d: expected 1..%d", o->seeds, PCS_CLI_MAX_SEEDS);
    return FALSE;
  }
  if (!pcs_cli_jobs_check(o->jobs, error)) return FALSE;
  guint jobs = pcs_cli_jobs(o->jobs);
  TraceLoad load = {paths, traces};
  if (!pcs_parallel_for(nt, jobs, &pcs_cli_signal, load_slot, &load, error)) return FALSE;
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  char *given[] = {o->policy, NULL}; /* after option parsing: --policy is set now */
  if (!pcs_cli_load_scenario(paths[nt], o->sets, o->seed, p, error) ||
      !pcs_cli_policies(p, o->policy ? given : NULL, pols, error))
    return FALSE;
  g_array_set_size(pols, 1);
  s->n = o->seeds > 1 ? (guint)o->seeds : 1;
  s->first = o->seeds > 1 && !o->seed ? 1 : p->scenario_seed;
  s->res = g_new0(PcsResult, s->n);
  s->watch = g_new0(PcsLargeBioWatch, s->n);
  PcsSeeds seeds = {.base = p, .policies = pols, .first = s->first, .count = s->n, .jobs = jobs,
                    .cancel = &pcs_cli_signal, .prepare = watch_prepare, .prepare_user = s};
  if (!pcs_sim_check_limits(p, &g_array_index(pols, PcsPolicy, 0), error) ||
      !pcs_seeds_run(&seeds, s->res, NULL, error)) {
    s->n = 0;
    return FALSE;
  }
  p->scenario_seed = s->first; /* the provenance names the first seed */
  return TRUE;
}

int pcs_cmd_compare(int argc, char **argv) {
  CompareOpts o = {.seeds = G_MININT, .jobs = PCS_CLI_JOBS_DEFAULT};
  GOptionEntry entries[] = {
    {"policy", 'p', 0, G_OPTION_ARG_STRING, &o.policy, "Policy to simulate (default: the first of scenario.policies)", "P"},
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override one scenario key (repeatable)", "SECTION.KEY=VALUE"},
    {"seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, "Seed of the random streams (with --seeds: the first)", "N"},
    {"seeds", 0, 0, G_OPTION_ARG_INT, &o.seeds,
     "Simulate N seeds (1..N, or from --seed): median and min..max beside the real ones", "N"},
    {"jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "Traces read and seeds run in parallel (default: the number of cores)",
     "N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "Output format: table (default), csv or json", "FMT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("TRACE... SCENARIO - real traces and a simulation side by side",
      "Reads each TRACE as `pcsim trace-stats` does, runs SCENARIO under one policy,\n"
      "and prints each metric real, simulated and their ratio (simulated / real).\n"
      "Data reads only: pcsim does not model metadata.  Counts print as integers.\n\n"
      "Several TRACEs (repeats of one configuration) give each metric's real\n"
      "median and min..max; --seeds N runs seeds 1..N (or from --seed) on --jobs\n"
      "threads and gives the simulated median and min..max; the ratio is then\n"
      "median / median.  One TRACE without --seeds prints one value per side.\n"
      "Output is byte-identical for any --jobs.\n\n"
      "Two rows are the run's conditions rather than results: threads (tasks\n"
      "that queued data bios) and mib_before_large_bio (data read before the\n"
      "first bio over 1 MiB: with BIO_MAX_VECS = 256, a larger bio needs\n"
      "physically contiguous pages, so this is how much was read into\n"
      "scattered free memory).  The table ends with a note and the --set that\n"
      "matches the (first) trace when the scenario differs: first its readahead\n"
      "window (ra_pages of its readahead events), threads and block size (from\n"
      "the fio job beside it, STEM.fio, or the tasks that queued bios); only when\n"
      "those match, memory.scattered.\n\n"
      "A trace with readahead, page-insert and complete events adds their\n"
      "metrics (see trace-stats), then inserted_mib_per_thread[k] (the k-th\n"
      "thread to insert, on each side) and device_latency_us_hist[k] (buckets\n"
      "with requests on either side).", entries);
  GError *error = NULL;
  PcsFormat fmt = PCS_FORMAT_TABLE;
  PcsKtrace *traces = NULL;
  guint nt = 0;
  PcsParams p;
  SimRuns s = {0};
  int rc = 0;
  g_autoptr(GString) out = g_string_new(NULL);
  pcs_params_init(&p);
  if (!pcs_cli_parse(ctx, &argc, &argv, &error) || !pcs_format_parse(o.format, TRACE_FORMATS, &fmt, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc < 3) {
    rc = pcs_cli_usage_error("expected TRACE files and a SCENARIO file");
  } else {
    nt = (guint)argc - 2;
    traces = g_new0(PcsKtrace, nt);
    if (!compare_run(&o, argv + 1, nt, traces, &p, &s, &error)) {
      rc = pcs_cli_fail(error);
    } else {
      compare_print(out, traces, nt, &p, &s, fmt);
      if (!pcs_cli_write_file(NULL, out, &error)) rc = pcs_cli_fail(error);
    }
  }
  for (guint k = 0; k < s.n; k++) pcs_result_clear(&s.res[k]);
  g_free(s.res), g_free(s.watch);
  for (guint i = 0; i < nt; i++) pcs_ktrace_clear(&traces[i]);
  g_free(traces);
  pcs_params_clear(&p);
  g_free(o.format), g_free(o.policy), g_free(o.seed);
  g_strfreev(o.sets);
  return rc;
}
