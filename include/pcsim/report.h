/* report.h - results as a table, CSV or JSON.
 *
 * Every output column is one PCS_COLUMNS entry (name, kind, doc, label,
 * getter): the CSV header, the JSON keys, the sweep and plot keys are the
 * same strings, and no column can lack a value.  JSON goes through json.h.
 */
#ifndef PCSIM_REPORT_H
#define PCSIM_REPORT_H

#include "pcsim/json.h"
#include "pcsim/sim.h"
#include "pcsim/units.h"

#define PCS_FORMATS(X) X(TABLE, "table") X(CSV, "csv") X(JSON, "json") X(FIO_JSON, "fio-json")

typedef enum {
#define X(name, text) PCS_FORMAT_##name,
  PCS_FORMATS(X)
#undef X
} PcsFormat;

/* Derived quantities the columns share. */
static inline double pcs_result_mib_read(const PcsResult *r) { return (double)r->pages_read * PCS_PAGE_SIZE / PCS_MIB; }
static inline double pcs_result_secs(const PcsResult *r) { return (double)r->sim_time_ns / PCS_NS_PER_S; }
static inline double pcs_result_kib_read(const PcsResult *r) {
  return (double)r->pages_read * (PCS_PAGE_SIZE / PCS_KIB);
}
/* MiB of the file's whole pages: what the trace reader divides owner changes by. */
static inline double pcs_result_file_page_mib(const PcsResult *r) {
  return (double)(r->file_bytes / PCS_PAGE_SIZE) * PCS_PAGE_SIZE / PCS_MIB;
}
/* MiB THREAD-th inserter (in first-insert order) put in the page cache. */
static inline double pcs_result_inserted_mib(const PcsResult *r, uint32_t k) {
  return (double)r->thread_inserts[r->insert_order[k]] * PCS_PAGE_SIZE / PCS_MIB;
}

/* Job J's MiB/s (several jobs): its clones' bytes over its own run, from
 * its first clone's start to its last clone's last byte (fio's bw of the
 * job's clones reported as a group); 0 for a run of no time. */
static inline double pcs_result_job_mib_s(const PcsResult *r, uint32_t j) {
  const PcsJobResult *jr = &r->jobs[j];
  double secs = (double)(jr->done_ns - jr->start_ns) / PCS_NS_PER_S;
  return secs > 0 ? (double)jr->bytes / PCS_MIB / secs : 0;
}

/* The P-th percentile of the run's read() call latencies in us: fio's
 * bucket value (include/pcsim/lathist.h), so it matches fio's clat_ns
 * percentile / 1000. */
static inline double pcs_result_read_lat_us(const PcsResult *r, double p) {
  return (double)pcs_lathist_percentile(&r->read_lat, p) / PCS_NS_PER_US;
}

/* X(name, kind, doc, label, get): one output column.  kind is U (an
 * integer count), F (a derived decimal, printed with 4 decimals) or S
 * (text); label (with unit) names it on plot axes; get is its value, an
 * expression of `const PcsResult *r`.  The CSV header, the JSON keys, the
 * table, sweep rows and plot keys all read this one list. */
#define PCS_COLUMNS(X)                                                                               \
  X(policy, S, "readpages policy", "policy", r->policy.name)                                         \
  X(threads, U, "reader threads", "reader threads", r->threads)                                      \
  X(file_mib, F, "file size in MiB", "file size (MiB)", (double)r->file_bytes / PCS_MIB)             \
  X(bios, U, "bios submitted", "bios", r->bios)                                                      \
  X(requests, U, "requests dispatched to the device", "requests", r->requests)                       \
  X(pages_read, U, "pages read from the device", "pages read", r->pages_read)                        \
  X(bios_per_mib, F, "bios per MiB read from the device", "bios per MiB read",                       \
    pcs_per((double)r->bios, pcs_result_mib_read(r)))                                                \
  X(requests_per_mib, F, "requests per MiB read from the device", "requests per MiB read",           \
    pcs_per((double)r->requests, pcs_result_mib_read(r)))                                            \
  X(avg_bio_kib, F, "mean bio size in KiB", "mean bio size (KiB)",                                   \
    pcs_per(pcs_result_kib_read(r), (double)r->bios))                                                \
  X(avg_request_kib, F, "mean request size in KiB", "mean request size (KiB)",                       \
    pcs_per(pcs_result_kib_read(r), (double)r->requests))                                            \
  X(eexist, U, "inserts lost to another thread (-EEXIST)", "inserts lost (-EEXIST)", r->eexist)      \
  X(aggregate_mib_s, F, "bytes returned to all threads / elapsed (fio group_reporting)",             \
    "aggregate throughput (MiB/s)", pcs_per((double)r->bytes_returned / PCS_MIB, pcs_result_secs(r))) \
  X(device_mib_s, F, "bytes read from the device / elapsed", "device throughput (MiB/s)",            \
    pcs_per(pcs_result_mib_read(r), pcs_result_secs(r)))                                             \
  X(sim_time_ns, U, "simulated time until the last thread finished", "simulated time (ns)",          \
    r->sim_time_ns)                                                                                  \
  X(events, U, "events handled", "events", r->events)                                                \
  X(ra_sync, U, "synchronous readahead calls", "synchronous readahead calls", r->ra_sync)            \
  X(ra_async, U, "asynchronous readahead calls", "asynchronous readahead calls", r->ra_async)        \
  X(fallback_reads, U, "single-page ->readpage() fallbacks", "->readpage() fallbacks",               \
    r->fallback_reads)                                                                               \
  X(waits, U, "times a thread slept on a locked page", "sleeps on locked pages", r->waits)             \
  X(reader_switches, U, "times a reader left its CPU: asleep, slice used up or done (fio's ctx)",    \
    "reader context switches", r->reader_switches)                                                   \
  X(inserts, U, "folios inserted into the page cache (mm_filemap_add_to_page_cache lines; pages with 4 KiB folios)", \
    "folios inserted", r->inserts)                                                                   \
  X(inserted_pages, U, "pages those folios hold (2^order summed)", "pages inserted", r->inserted_pages) \
  X(owner_changes_per_mib, F, "file pages i, i+1 inserted by different threads, per MiB of file",    \
    "owner changes per MiB", pcs_per((double)r->owner_changes, pcs_result_file_page_mib(r)))         \
  X(contiguous_frames, F, "share of consecutive file pages in consecutive physical frames",          \
    "contiguous frames (share)", pcs_per((double)r->contiguous_pairs, (double)r->page_pairs))        \
  X(device_ms_per_mib, F, "device time (dispatch to complete, summed over requests) in ms per MiB",  \
    "device time (ms per MiB)", pcs_per((double)r->device_ns / 1e6, pcs_result_mib_read(r)))         \
  X(device_mean_us, F, "mean request time from dispatch to complete in us", "mean device time (us)", \
    pcs_per((double)r->device_ns / PCS_NS_PER_US, (double)r->requests))                              \
  X(max_in_flight, U, "most requests dispatched and not completed at once", "requests in flight",    \
    r->max_in_flight)                                                                                \
  X(read_lat_us_p50, F, "median read() call latency in us (fio's clat percentile method)",            \
    "read() latency p50 (us)", pcs_result_read_lat_us(r, 50.0))                                      \
  X(read_lat_us_p90, F, "90th percentile read() call latency in us", "read() latency p90 (us)",      \
    pcs_result_read_lat_us(r, 90.0))                                                                 \
  X(read_lat_us_p99, F, "99th percentile read() call latency in us", "read() latency p99 (us)",      \
    pcs_result_read_lat_us(r, 99.0))                                                                 \
  X(read_lat_us_p999, F, "99.9th percentile read() call latency in us", "read() latency p99.9 (us)", \
    pcs_result_read_lat_us(r, 99.9))                                                                 \
  X(csum_reads, U, "checksum leaves read from the device: metadata requests, not in bios or requests (bio.csum_leaf_size)", \
    "checksum leaf reads", r->csum_reads)

typedef enum {
#define X(name, kind, doc, label, get) PCS_COLUMN_##name,
  PCS_COLUMNS(X)
#undef X
  PCS_COLUMN_COUNT
} PcsColumn;

typedef struct {
  const char *name;  /* CSV header cell and JSON key */
  char kind;         /* 'U', 'F' or 'S' */
  const char *doc;
  const char *label; /* plot axis label, with unit */
} PcsColumnInfo;

#define PCS_FORMAT_BIT(f) (1u << (f))
#define PCS_FORMATS_ALL (PCS_FORMAT_BIT(PCS_FORMAT_TABLE) | PCS_FORMAT_BIT(PCS_FORMAT_CSV) | \
                         PCS_FORMAT_BIT(PCS_FORMAT_JSON) | PCS_FORMAT_BIT(PCS_FORMAT_FIO_JSON))
/* --format TEXT as one of the ALLOWED formats (a mask of PCS_FORMAT_BIT);
 * TEXT NULL leaves *OUT, the command's default, as it is. */
gboolean pcs_format_parse(const char *text, unsigned allowed, PcsFormat *out, GError **error);

const PcsColumnInfo *pcs_report_column(PcsColumn c);
/* The column named NAME (its index in *OUT when OUT is not NULL), or NULL. */
const PcsColumnInfo *pcs_report_column_find(const char *name, PcsColumn *out);
/* Value of numeric column C (NAN for text columns). */
double pcs_report_get(const PcsResult *r, PcsColumn c);
/* The same by name: NAN for text and unknown columns. */
double pcs_report_value(const PcsResult *r, const char *column);
/* Column value as printed in CSV and JSON (newly allocated). */
char *pcs_report_cell(const PcsResult *r, PcsColumn c);
/* Axis label of an output column, or NULL. */
const char *pcs_report_column_label(const char *column);

void pcs_report_table(GString *out, const PcsParams *p, const PcsResult *results, size_t n);
void pcs_report_csv_header(GString *out);
void pcs_report_csv_row(GString *out, const PcsResult *r);
/* Every column of R as members of the open object of W, in column order. */
void pcs_report_json_columns(PcsJson *w, const PcsResult *r);
/* R as one object of W: its columns, then "bio_pages_hist",
 * "inserted_mib_per_thread" (an array, first-insert order) and
 * "device_latency_us_hist" (an array of PCS_LATENCY_BUCKETS counts). */
void pcs_report_json_result(PcsJson *w, const PcsResult *r, PcsJsonLayout layout);
/* Provenance as members of the open object of W: pcsim_version, seed,
 * source, a fio job's fio_model, fio_accepted (when set),
 * fio_global_options and fio_sections, every resolved parameter
 * ("scenario"), several jobs' "scenario_jobs" and "derived".  CSV: the same
 * as "# " lines ("# fio model", "# fio accepted", "# fio global", one "# fio
 * section" per section, "# section.key=value", "# job", "# derived").
 * results.c reads back all but "derived". */
void pcs_report_json_provenance(PcsJson *w, const PcsParams *p);
void pcs_report_csv_provenance(GString *out, const PcsParams *p);
void pcs_report_json(GString *out, const PcsParams *p, const PcsResult *results, size_t n);
void pcs_report_csv(GString *out, const PcsParams *p, const PcsResult *results, size_t n);

/* ---- several seeds (`pcsim run --seeds N`, `pcsim compare --seeds N`) ---- */

/* Median (the mean of the two middle values for an even count), min and
 * max of a metric over runs. */
typedef struct {
  double median, min, max;
} PcsSpread;
/* The spread of V[0..N-1] (N >= 1); sorts V. */
PcsSpread pcs_spread(double *v, size_t n);
/* Runs of several seeds under several policies. */
typedef struct {
  const PcsResult *res; /* res[k * npolicies + j]: seed first + k, policy j */
  size_t npolicies;
  uint64_t first;       /* the first seed */
  size_t nseeds;
} PcsSeedResults;
/* Column C's spread over the runs of policy J. */
PcsSpread pcs_report_seed_spread(const PcsSeedResults *s, size_t j, PcsColumn c);
/* A value as every format prints it: a count (COUNT) as an integer, or
 * with one decimal when it is a median halfway between two counts; any
 * other value with 4 decimals (newly allocated). */
char *pcs_report_number(double v, gboolean count);
/* BYTES in the largest binary unit that holds it whole ("128 KiB",
 * "1 TiB", "1000 MiB"); one decimal when no unit does ("1.5 KiB"). */
char *pcs_report_bytes(uint64_t bytes);

/* Per-seed rows, grouped by policy, then each policy's median, min and max
 * rows.  Table: a "seed" column; CSV: a first column "seed" holding the
 * seed or median/min/max, after a "# seeds FIRST..LAST" line; JSON: the
 * provenance, "seeds" (the list), "results" (the first seed's objects,
 * exactly as without --seeds), "per_seed" ([{"seed", "results"}]) and
 * "summary" ([{"policy", "runs", COLUMN: {"median", "min", "max"}}], numbers).
 * docs/seeds.md describes them. */
void pcs_report_seeds_table(GString *out, const PcsParams *p, const PcsSeedResults *s);
void pcs_report_seeds_csv(GString *out, const PcsParams *p, const PcsSeedResults *s);
void pcs_report_seeds_json(GString *out, const PcsParams *p, const PcsSeedResults *s);

const char *pcs_version(void);

#endif
