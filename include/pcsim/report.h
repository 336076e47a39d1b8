/* report.h - results as a table, CSV or JSON.
 *
 * Column names come from PCS_COLUMNS: the CSV header, the JSON keys and the
 * sweep/plot keys are the same strings.
 */
#ifndef PCSIM_REPORT_H
#define PCSIM_REPORT_H

#include "pcsim/sim.h"

#define PCS_FORMATS(X) X(TABLE, "table") X(CSV, "csv") X(JSON, "json") X(FIO_JSON, "fio-json")

typedef enum {
#define X(name, text) PCS_FORMAT_##name,
  PCS_FORMATS(X)
#undef X
} PcsFormat;

/* X(name, kind, doc, label): kind is U (integer), F (derived decimal) or
 * S (text); label (with unit) names the column on plot axes. */
#define PCS_COLUMNS(X)                                                                               \
  X(policy, S, "readpages policy", "policy")                                                         \
  X(threads, U, "reader threads", "reader threads")                                                  \
  X(file_mib, F, "file size in MiB", "file size (MiB)")                                              \
  X(bios, U, "bios submitted", "bios")                                                               \
  X(requests, U, "requests dispatched to the device", "requests")                                    \
  X(pages_read, U, "pages read from the device", "pages read")                                       \
  X(bios_per_mib, F, "bios per MiB read from the device", "bios per MiB read")                       \
  X(requests_per_mib, F, "requests per MiB read from the device", "requests per MiB read")           \
  X(avg_bio_kib, F, "mean bio size in KiB", "mean bio size (KiB)")                                   \
  X(avg_request_kib, F, "mean request size in KiB", "mean request size (KiB)")                       \
  X(eexist, U, "inserts lost to another thread (-EEXIST)", "inserts lost (-EEXIST)")                 \
  X(aggregate_mib_s, F, "bytes returned to all threads / elapsed (fio group_reporting)",             \
    "aggregate throughput (MiB/s)")                                                                  \
  X(device_mib_s, F, "bytes read from the device / elapsed", "device throughput (MiB/s)")            \
  X(sim_time_ns, U, "simulated time until the last thread finished", "simulated time (ns)")          \
  X(events, U, "events handled", "events")                                                           \
  X(ra_sync, U, "synchronous readahead calls", "synchronous readahead calls")                        \
  X(ra_async, U, "asynchronous readahead calls", "asynchronous readahead calls")                     \
  X(fallback_reads, U, "single-page ->readpage() fallbacks", "->readpage() fallbacks")               \
  X(waits, U, "times a thread slept on a locked page", "sleeps on locked pages")

#define PCS_FORMAT_BIT(f) (1u << (f))
#define PCS_FORMATS_ALL (PCS_FORMAT_BIT(PCS_FORMAT_TABLE) | PCS_FORMAT_BIT(PCS_FORMAT_CSV) | \
                         PCS_FORMAT_BIT(PCS_FORMAT_JSON) | PCS_FORMAT_BIT(PCS_FORMAT_FIO_JSON))
/* --format TEXT as one of the ALLOWED formats (a mask of PCS_FORMAT_BIT);
 * TEXT NULL leaves *OUT, the command's default, as it is. */
gboolean pcs_format_parse(const char *text, unsigned allowed, PcsFormat *out, GError **error);

/* Derived value of a numeric column (NAN for text columns). */
double pcs_report_value(const PcsResult *r, const char *column);
/* Column value as printed in CSV and JSON. */
char *pcs_report_cell(const PcsResult *r, const char *column);
const char *const *pcs_report_columns(size_t *n);
/* Axis label of an output column, or NULL. */
const char *pcs_report_column_label(const char *column);

void pcs_report_table(GString *out, const PcsParams *p, const PcsResult *results, size_t n);
void pcs_report_csv_header(GString *out);
void pcs_report_csv_row(GString *out, const PcsResult *r);
/* Every column as "key": value pairs on one line, no braces (sweep rows). */
void pcs_report_json_inline(GString *out, const PcsResult *r);
/* S as a JSON string literal, escaped. */
void pcs_json_string(GString *out, const char *s);
void pcs_report_json_result(GString *out, const PcsResult *r, const char *indent);
/* Provenance: version, seed and every resolved parameter. */
void pcs_report_json_provenance(GString *out, const PcsParams *p, const char *indent);
void pcs_report_csv_provenance(GString *out, const PcsParams *p);
/* fio's --output-format=json layout: one jobs[] entry per policy when the
 * scenario reports as a group (group_reporting, or an INI scenario), else one
 * per thread; read.io_bytes, bw (KiB/s), iops, runtime (ms); pcsim's own
 * provenance under "pcsim". */
void pcs_report_fio_json(GString *out, const PcsParams *p, const PcsResult *results, size_t n);
void pcs_report_json(GString *out, const PcsParams *p, const PcsResult *results, size_t n);
void pcs_report_csv(GString *out, const PcsParams *p, const PcsResult *results, size_t n);

const char *pcs_version(void);

#endif
