/* report.c - printing results: the seed-style table, CSV and JSON.
 *
 * Models nothing; every column's value comes from its getter in
 * PCS_COLUMNS (report.h), so the formats cannot disagree and no column can
 * print a value it lacks.  Numbers are printed with fixed precision and no
 * locale, so output is byte-identical run to run; JSON goes through the one
 * writer (json.c), which escapes every string.
 */
#include "pcsim/report.h"

#include <math.h>
#include <string.h>

#include "pcsim_version.h" /* PCSIM_VERSION: git describe at build time (cmake/version.cmake) */

const char *pcs_version(void) { return PCSIM_VERSION; }

static const char *const format_names[] = {
#define X(name, text) text,
  PCS_FORMATS(X)
#undef X
};

gboolean pcs_format_parse(const char *text, unsigned allowed, PcsFormat *out, GError **error) {
  if (!text) return TRUE;
  for (size_t i = 0; i < G_N_ELEMENTS(format_names); i++)
    if ((allowed & PCS_FORMAT_BIT(i)) && strcmp(text, format_names[i]) == 0) {
      *out = (PcsFormat)i;
      return TRUE;
    }
  g_autoptr(GString) names = g_string_new(NULL);
  guint n = (guint)__builtin_popcount(allowed), k = 0;
  for (size_t i = 0; i < G_N_ELEMENTS(format_names); i++)
    if (allowed & PCS_FORMAT_BIT(i))
      g_string_append_printf(names, "%s%s", k++ == 0 ? "" : k == n ? " or " : ", ", format_names[i]);
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--format '%s': expected %s", text, names->str);
  return FALSE;
}

/* ---- columns ---- */

static const PcsColumnInfo columns[] = {
#define X(name, kind, doc, label, get) {#name, #kind[0], doc, label},
  PCS_COLUMNS(X)
#undef X
};
G_STATIC_ASSERT(G_N_ELEMENTS(columns) == PCS_COLUMN_COUNT);

typedef union {
  uint64_t u;
  double f;
  const char *s;
} Cell;

#define CELL_U(v) ((Cell){.u = (v)})
#define CELL_F(v) ((Cell){.f = (v)})
#define CELL_S(v) ((Cell){.s = (v)})

/* The getters of PCS_COLUMNS, one switch: a column without one does not build. */
static Cell column_cell(const PcsResult *r, PcsColumn c) {
  switch (c) {
#define X(name, kind, doc, label, get) \
  case PCS_COLUMN_##name: return CELL_##kind(get);
    PCS_COLUMNS(X)
#undef X
  default: g_assert_not_reached();
  }
}

const PcsColumnInfo *pcs_report_column(PcsColumn c) {
  g_assert((unsigned)c < PCS_COLUMN_COUNT);
  return &columns[c];
}

const PcsColumnInfo *pcs_report_column_find(const char *name, PcsColumn *out) {
  for (size_t i = 0; i < G_N_ELEMENTS(columns); i++)
    if (!strcmp(columns[i].name, name)) {
      if (out) *out = (PcsColumn)i;
      return &columns[i];
    }
  return NULL;
}

const char *pcs_report_column_label(const char *column) {
  const PcsColumnInfo *c = pcs_report_column_find(column, NULL);
  return c ? c->label : NULL;
}

double pcs_report_get(const PcsResult *r, PcsColumn c) {
  Cell v = column_cell(r, c);
  switch (columns[c].kind) {
  case 'U': return (double)v.u;
  case 'F': return v.f;
  default: return NAN;
  }
}

double pcs_report_value(const PcsResult *r, const char *column) {
  PcsColumn c;
  return pcs_report_column_find(column, &c) ? pcs_report_get(r, c) : NAN;
}

/* Fixed precision for derived decimals in every format. */
#define DECIMAL_FORMAT "%.4f"

char *pcs_report_cell(const PcsResult *r, PcsColumn c) {
  Cell v = column_cell(r, c);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  switch (columns[c].kind) {
  case 'S': return g_strdup(v.s);
  case 'U': return g_strdup_printf("%" G_GUINT64_FORMAT, v.u);
  default: return g_strdup(g_ascii_formatd(buf, sizeof buf, DECIMAL_FORMAT, v.f));
  }
}

/* ---- table ---- */

char *pcs_report_bytes(uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  guint u = 0;
  while (u + 1 < G_N_ELEMENTS(units) && bytes >= (UINT64_C(1) << (10 * (u + 1))) &&
         bytes % (UINT64_C(1) << (10 * (u + 1))) == 0)
    u++;
  if (u == 0 && bytes >= PCS_KIB) { /* no whole unit: one decimal in the largest that fits */
    while (u + 1 < G_N_ELEMENTS(units) && bytes >= (UINT64_C(1) << (10 * (u + 1)))) u++;
    return g_strdup_printf("%.1f %s", (double)bytes / (double)(UINT64_C(1) << (10 * u)), units[u]);
  }
  return g_strdup_printf("%" G_GUINT64_FORMAT " %s", bytes >> (10 * u), units[u]);
}

/* "scenario NAME: 4 thread(s), 128 MiB file, bs 32 KiB, readahead 128 KiB, ";
 * with a file per thread what is read: "8 thread(s), 8 files of 256 MiB
 * (2048 MiB), ...", with several files a thread "files of 250 MiB each,
 * 4 a thread" after it. */
/* What the title lists of each job when several jobs differ in it. */
typedef enum { JOBS_BS, JOBS_SIZE, JOBS_WINDOW, JOBS_LOOPS, JOBS_NRFILES } JobsKey;

static uint64_t jobs_key(const PcsParams *p, JobsKey k) {
  switch (k) {
  case JOBS_BS: return p->workload_block_size;
  case JOBS_SIZE: return p->workload_file_size;
  case JOBS_WINDOW: return pcs_params_window_bytes(p);
  case JOBS_LOOPS: return p->workload_loops;
  case JOBS_NRFILES: return p->workload_nrfiles;
  }
  g_assert_not_reached();
}

/* Several jobs: each job's K, "4 KiB (small), 1 MiB (large)" (loops as a
 * number); NULL when every job's is the run's (bs: listed always, as
 * before the other keys were a job's own). */
static char *jobs_values(const PcsParams *p, JobsKey k) {
  GString *s = g_string_new(NULL);
  gboolean differs = k == JOBS_BS;
  for (uint32_t j = 0; j < p->njobs; j++) {
    PcsParams view;
    if (!pcs_params_job_view(p, j, &view, NULL)) continue; /* validated before the run */
    uint64_t v = jobs_key(&view, k);
    differs |= v != jobs_key(p, k);
    g_autofree char *text = k == JOBS_LOOPS || k == JOBS_NRFILES ? g_strdup_printf("%" G_GUINT64_FORMAT, v) : pcs_report_bytes(v);
    g_string_append_printf(s, "%s%s (%s)", j ? ", " : "", text, p->jobs[j].name);
    pcs_params_clear(&view);
  }
  if (differs) return g_string_free(s, FALSE);
  g_string_free(s, TRUE);
  return NULL;
}

static void table_title(GString *out, const PcsParams *p) {
  g_autofree char *file = pcs_report_bytes(p->workload_file_size);
  g_autofree char *bs = pcs_report_bytes(p->workload_block_size);
  g_autofree char *ra = pcs_report_bytes(pcs_params_window_bytes(p));
  uint64_t n = pcs_params_nfiles(p);
  const char *unit = strchr(file, ' '); /* the sum in the file's unit: 8 x 256 MiB = 2048 MiB */
  g_autofree char *all = strchr(file, '.') ? pcs_report_bytes(p->workload_file_size * n)
                                           : g_strdup_printf("%" G_GUINT64_FORMAT "%s", g_ascii_strtoull(file, NULL, 10) * n, unit);
  g_autofree char *files = n > 1 ? g_strdup_printf("%" G_GUINT64_FORMAT " files of %s (%s)", n, file, all)
                                 : g_strdup_printf("%s file", file);
  g_autofree char *bss = p->jobs ? jobs_values(p, JOBS_BS) : g_strdup(bs);
  g_autofree char *sizes = p->jobs ? jobs_values(p, JOBS_SIZE) : NULL; /* jobs reading their own sizes: "read 8 MiB (a), ..." */
  g_autofree char *windows = p->jobs ? jobs_values(p, JOBS_WINDOW) : NULL;
  g_autofree char *loops = p->jobs ? jobs_values(p, JOBS_LOOPS) : NULL;
  if (sizes) {
    g_free(files);
    files = pcs_params_files(p) == PCS_FILES_PER_THREAD ? g_strdup_printf("a file each, of %s", sizes)
            : n > 1 ? g_strdup_printf("%" G_GUINT64_FORMAT " files, read %s", n, sizes)
                    : g_strdup_printf("one file, read %s", sizes);
  }
  g_string_append_printf(out, "scenario %s: %" G_GUINT64_FORMAT " thread(s), %s, bs %s, readahead %s, ",
                         p->scenario_name, p->workload_threads, files, bss, windows ? windows : ra);
  g_autofree char *nrfiles = p->jobs ? jobs_values(p, JOBS_NRFILES) : NULL;
  if (nrfiles) { /* jobs of their own sets: "files a thread 2 (a), 1 (b)" */
    g_string_append_printf(out, "files a thread %s, ", nrfiles);
  } else if (p->workload_nrfiles > 1) { /* the file service too: "4 files a thread, roundrobin" */
    g_string_append_printf(out, "%" G_GUINT64_FORMAT " files a thread%s, %s, ", p->workload_nrfiles,
                           pcs_params_files(p) == PCS_FILES_SHARED ? " (shared)" : "", p->workload_file_service_type);
    if (p->workload_openfiles && p->workload_openfiles < p->workload_nrfiles)
      g_string_append_printf(out, "openfiles %" G_GUINT64_FORMAT ", ", p->workload_openfiles);
  }
  if (loops) g_string_append_printf(out, "loops %s, ", loops);
  else if (p->workload_loops > 1) g_string_append_printf(out, "loops %" G_GUINT64_FORMAT ", ", p->workload_loops);
  if (p->workload_runtime) { /* in its largest whole unit */
    static const char *const units[] = {"ns", "us", "ms", "s"};
    uint64_t t = p->workload_runtime;
    guint u = 0;
    while (u + 1 < G_N_ELEMENTS(units) && t % 1000 == 0) t /= 1000, u++;
    g_string_append_printf(out, "runtime %" G_GUINT64_FORMAT " %s%s, ", t, units[u],
                           p->workload_time_based ? " (time_based)" : "");
  }
}

/* The table's numbers of one row: a run, or a median, min or max. */
typedef struct {
  double aggr, device, bios, bios_per_mib, avg_kib, requests, eexist, lat_p50, lat_p99;
} TableRow;

static TableRow table_row_of(const PcsResult *r) {
  return (TableRow){pcs_report_get(r, PCS_COLUMN_aggregate_mib_s), pcs_report_get(r, PCS_COLUMN_device_mib_s),
                    (double)r->bios, pcs_report_get(r, PCS_COLUMN_bios_per_mib),
                    pcs_report_get(r, PCS_COLUMN_avg_bio_kib), (double)r->requests, (double)r->eexist,
                    pcs_report_get(r, PCS_COLUMN_read_lat_us_p50), pcs_report_get(r, PCS_COLUMN_read_lat_us_p99)};
}

static void table_header(GString *out, const char *seed) {
  g_string_append_printf(out, "%-16s%s %12s %12s %9s %9s %9s %10s %9s %10s %10s %8s\n", "policy", seed, "aggr MiB/s",
                         "device MiB/s", "bios", "bios/MiB", "avg KiB", "requests", "eexist", "read p50us",
                         "read p99us", "change");
}

/* One line; SEED is "" or the seed column's cell; BASE_AGGR <= 0: no change. */
static void table_line(GString *out, const char *policy, const char *seed, const TableRow *v, double base_aggr) {
  double pct = base_aggr > 0 ? 100.0 * (v->aggr / base_aggr - 1.0) : 0.0;
  if (fabs(pct) < 0.05) pct = 0.0; /* rounds to 0.0: "+0.0%", never "-0.0%" */
  g_autofree char *change = base_aggr > 0 ? g_strdup_printf("%+.1f%%", pct) : g_strdup("-");
  g_autofree char *bios = pcs_report_number(v->bios, TRUE);
  g_autofree char *requests = pcs_report_number(v->requests, TRUE);
  g_autofree char *eexist = pcs_report_number(v->eexist, TRUE);
  g_string_append_printf(out, "%-16s%s %12.1f %12.1f %9s %9.2f %9.2f %10s %9s %10.1f %10.1f %8s\n", policy, seed,
                         v->aggr, v->device, bios, v->bios_per_mib, v->avg_kib, requests, eexist, v->lat_p50,
                         v->lat_p99, change);
}

/* Several jobs: under a policy's line (the whole run, fio's group total),
 * a line per job: its name and clones, its own MiB/s and read() latency. */
static void table_jobs(GString *out, const PcsResult *r) {
  for (uint32_t j = 0; j < r->njobs; j++) {
    const PcsJobResult *jr = &r->jobs[j];
    g_autofree char *name = g_strdup_printf("  %s x%u", jr->name, jr->clones);
    double p50 = (double)pcs_lathist_percentile(&r->job_read_lat[j], 50.0) / PCS_NS_PER_US;
    double p99 = (double)pcs_lathist_percentile(&r->job_read_lat[j], 99.0) / PCS_NS_PER_US;
    g_string_append_printf(out, "%-16s %12.1f %12s %9s %9s %9s %10s %9s %10.1f %10.1f %8s\n", name,
                           pcs_result_job_mib_s(r, j), "-", "-", "-", "-", "-", "-", p50, p99, "-");
  }
}

void pcs_report_table(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  table_title(out, p);
  g_string_append_printf(out, "seed %" G_GUINT64_FORMAT "\n\n", p->scenario_seed);
  table_header(out, "");
  double base = n ? pcs_report_get(&res[0], PCS_COLUMN_aggregate_mib_s) : 0;
  for (size_t i = 0; i < n; i++) {
    TableRow v = table_row_of(&res[i]);
    table_line(out, res[i].policy.name, "", &v, i == 0 ? 0 : base);
    table_jobs(out, &res[i]);
  }
}

/* ---- CSV ---- */

static void csv_header_cells(GString *out) {
  for (size_t i = 0; i < G_N_ELEMENTS(columns); i++)
    g_string_append_printf(out, "%s%s", i ? "," : "", columns[i].name);
}

void pcs_report_csv_header(GString *out) {
  csv_header_cells(out);
  g_string_append_c(out, '\n');
}

static void csv_cells(GString *out, const PcsResult *r) {
  for (size_t i = 0; i < G_N_ELEMENTS(columns); i++) {
    g_autofree char *cell = pcs_report_cell(r, (PcsColumn)i);
    g_string_append_printf(out, "%s%s", i ? "," : "", cell);
  }
}

void pcs_report_csv_row(GString *out, const PcsResult *r) {
  csv_cells(out, r);
  g_string_append_c(out, '\n');
}

/* Several jobs (PcsParams.jobs): after PCS_COLUMNS, the columns that tell
 * a job's row from the run's (job: the job's name, URI-escaped as in its
 * "# job" line; empty on the run's row, a name fio never leaves empty)
 * and each job's figures as --format json's "jobs" names them. */
static const char *const csv_job_columns[] = {"job", "group", "bytes", "read_calls", "start_ns", "done_ns"};

static void csv_decimal(GString *out, double v) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append(out, g_ascii_formatd(buf, sizeof buf, DECIMAL_FORMAT, v));
}

/* Job J of R as a row: the columns it has a figure of (policy, threads
 * its clones, aggregate_mib_s its mib_s, sim_time_ns its run from its
 * first clone's start to its last clone's end, its read() latencies),
 * the run's others empty, then its own columns. */
static void csv_job_row(GString *out, const PcsResult *r, uint32_t j) {
  const PcsJobResult *jr = &r->jobs[j];
  static const double pcts[] = {50.0, 90.0, 99.0, 99.9};
  for (size_t i = 0; i < G_N_ELEMENTS(columns); i++) {
    if (i) g_string_append_c(out, ',');
    PcsColumn c = (PcsColumn)i;
    if (c == PCS_COLUMN_policy) g_string_append(out, r->policy.name);
    else if (c == PCS_COLUMN_threads) g_string_append_printf(out, "%u", jr->clones);
    else if (c == PCS_COLUMN_aggregate_mib_s) csv_decimal(out, pcs_result_job_mib_s(r, j));
    else if (c == PCS_COLUMN_sim_time_ns) g_string_append_printf(out, "%" G_GUINT64_FORMAT, jr->done_ns - jr->start_ns);
    else if (c >= PCS_COLUMN_read_lat_us_p50 && c <= PCS_COLUMN_read_lat_us_p999)
      csv_decimal(out, (double)pcs_lathist_percentile(&r->job_read_lat[j], pcts[c - PCS_COLUMN_read_lat_us_p50]) / PCS_NS_PER_US);
  }
  g_autofree char *name = g_uri_escape_string(jr->name, NULL, FALSE);
  g_string_append_printf(out, ",%s,%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
                         name, jr->group, jr->bytes, r->job_read_lat[j].n, jr->start_ns, jr->done_ns);
}

/* The run's row with the job columns: no job, no group, every job's bytes
 * and calls, from 0 to the last thread's end. */
static void csv_total_row(GString *out, const PcsResult *r) {
  csv_cells(out, r);
  g_string_append_printf(out, ",,,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",0,%" G_GUINT64_FORMAT "\n", r->bytes_returned,
                         r->read_lat.n, r->sim_time_ns);
}

void pcs_report_csv_provenance(GString *out, const PcsParams *p) {
  g_string_append_printf(out, "# pcsim %s\n", pcs_version());
  g_string_append_printf(out, "# source %s\n", p->source ? p->source : "(defaults)");
  if (p->fio_model) g_string_append_printf(out, "# fio model %s\n", p->fio_model);
  if (p->fio_accepted && *p->fio_accepted) { /* one word each: a blank in one is %20, a '%' %25 */
    g_string_append(out, "# fio accepted");
    for (char **a = p->fio_accepted; *a; a++) {
      g_string_append_c(out, ' ');
      for (const char *c = *a; *c; c++)
        if (*c == ' ') g_string_append(out, "%20");
        else if (*c == '%') g_string_append(out, "%25");
        else g_string_append_c(out, *c);
    }
    g_string_append_c(out, '\n');
  }
  if (p->fio_global_options) { /* a fio job's names and options, for --format fio-json: read back by results.c */
    g_autofree char *global = pcs_params_fio_options_text(p->fio_global_options);
    g_string_append_printf(out, "# fio global%s%s\n", *global ? " " : "", global);
  }
  for (uint32_t i = 0; i < p->fio_nsections; i++) {
    g_autofree char *section = pcs_params_fio_section_text(&p->fio_sections[i]);
    g_string_append_printf(out, "# fio section %s\n", section);
  }
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    if (!pcs_params_listed(p, &t[i])) continue;
    g_autofree char *v = pcs_params_format(p, &t[i]);
    g_string_append_printf(out, "# %s.%s=%s\n", t[i].section, t[i].key, v);
  }
  for (uint32_t j = 0; j < p->njobs; j++) { /* several jobs: read back by results.c */
    g_autofree char *job = pcs_params_job_text(&p->jobs[j]);
    g_string_append_printf(out, "# job %s\n", job);
  }
  const PcsDerivedInfo *d = pcs_params_derived_table(&n);
  for (size_t i = 0; i < n; i++) /* "derived": not read back as a key */
    g_string_append_printf(out, "# derived %s.%s=%" G_GUINT64_FORMAT "\n", d[i].section, d[i].key, d[i].value(p));
}

void pcs_report_csv(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  pcs_report_csv_provenance(out, p);
  if (!p->njobs) { /* one job: the columns and rows as ever */
    pcs_report_csv_header(out);
    for (size_t i = 0; i < n; i++) pcs_report_csv_row(out, &res[i]);
    return;
  }
  csv_header_cells(out);
  for (size_t k = 0; k < G_N_ELEMENTS(csv_job_columns); k++) g_string_append_printf(out, ",%s", csv_job_columns[k]);
  g_string_append_c(out, '\n');
  for (size_t i = 0; i < n; i++) { /* each policy's run, then a row per job, as the table prints them */
    csv_total_row(out, &res[i]);
    for (uint32_t j = 0; j < res[i].njobs; j++) csv_job_row(out, &res[i], j);
  }
}

/* ---- JSON ---- */

void pcs_report_json_columns(PcsJson *w, const PcsResult *r) {
  for (size_t i = 0; i < G_N_ELEMENTS(columns); i++) {
    Cell v = column_cell(r, (PcsColumn)i);
    switch (columns[i].kind) {
    case 'S': pcs_json_string(w, columns[i].name, v.s); break;
    case 'U': pcs_json_uint(w, columns[i].name, v.u); break;
    default: pcs_json_double(w, columns[i].name, DECIMAL_FORMAT, v.f);
    }
  }
}

/* Several jobs: "jobs", each job's own figures (the entry around it is
 * the whole run: aggregate_mib_s is every job's bytes over the run). */
static void json_jobs(PcsJson *w, const PcsResult *r) {
  if (!r->njobs) return;
  static const double pcts[] = {50.0, 90.0, 99.0, 99.9};
  static const char *const keys[] = {"read_lat_us_p50", "read_lat_us_p90", "read_lat_us_p99", "read_lat_us_p999"};
  pcs_json_begin_array(w, "jobs", PCS_JSON_LINES);
  for (uint32_t j = 0; j < r->njobs; j++) {
    const PcsJobResult *jr = &r->jobs[j];
    pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
    pcs_json_string(w, "name", jr->name);
    pcs_json_uint(w, "clones", jr->clones);
    pcs_json_uint(w, "group", jr->group);
    pcs_json_uint(w, "bytes", jr->bytes);
    pcs_json_uint(w, "read_calls", r->job_read_lat[j].n);
    pcs_json_uint(w, "start_ns", jr->start_ns);
    pcs_json_uint(w, "done_ns", jr->done_ns);
    pcs_json_double(w, "mib_s", DECIMAL_FORMAT, pcs_result_job_mib_s(r, j));
    for (size_t k = 0; k < G_N_ELEMENTS(pcts); k++)
      pcs_json_double(w, keys[k], DECIMAL_FORMAT,
                      (double)pcs_lathist_percentile(&r->job_read_lat[j], pcts[k]) / PCS_NS_PER_US);
    pcs_json_end(w);
  }
  pcs_json_end(w);
}

void pcs_report_json_result(PcsJson *w, const PcsResult *r, PcsJsonLayout layout) {
  pcs_json_begin_object(w, NULL, layout);
  pcs_report_json_columns(w, r);
  pcs_json_hist(w, "bio_pages_hist", r->bio_pages_hist, r->hist_len);
  pcs_json_begin_array(w, "inserted_mib_per_thread", PCS_JSON_INLINE);
  for (uint32_t k = 0; k < r->insert_threads; k++) pcs_json_double(w, NULL, DECIMAL_FORMAT, pcs_result_inserted_mib(r, k));
  pcs_json_end(w);
  pcs_json_begin_array(w, "device_latency_us_hist", PCS_JSON_INLINE);
  for (uint32_t k = 0; k < PCS_LATENCY_BUCKETS; k++) pcs_json_uint(w, NULL, r->latency_us_hist[k]);
  pcs_json_end(w);
  json_jobs(w, r);
  pcs_json_end(w);
}

/* A scenario value for JSON: TEXT as it is; a time as its count of ns; a
 * fraction in the fewest digits that read back to the same double (0.2,
 * not 0.20000000000000001); other kinds their integer. */
static char *scenario_value(const PcsParams *p, const PcsParamInfo *info) {
  const void *field = (const char *)p + info->offset;
  if (info->kind == PCS_KIND_TIME) return g_strdup_printf("%" G_GUINT64_FORMAT, *(const uint64_t *)field);
  if (info->kind == PCS_KIND_FRAC) {
    double d = *(const double *)field;
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    for (int digits = 1; digits <= 17; digits++) {
      char fmt[8];
      g_snprintf(fmt, sizeof fmt, "%%.%dg", digits);
      g_ascii_formatd(buf, sizeof buf, fmt, d);
      if (g_ascii_strtod(buf, NULL) == d) break;
    }
    return g_strdup(buf);
  }
  return pcs_params_format(p, info);
}

void pcs_report_json_provenance(PcsJson *w, const PcsParams *p) {
  pcs_json_string(w, "pcsim_version", pcs_version());
  pcs_json_uint(w, "seed", p->scenario_seed);
  pcs_json_string(w, "source", p->source ? p->source : "");
  if (p->fio_model) pcs_json_string(w, "fio_model", p->fio_model);
  if (p->fio_accepted && *p->fio_accepted) {
    pcs_json_begin_array(w, "fio_accepted", PCS_JSON_INLINE);
    for (char **a = p->fio_accepted; *a; a++) pcs_json_string(w, NULL, *a);
    pcs_json_end(w);
  }
  if (p->fio_global_options) { /* a fio job's names and options, for --format fio-json: read back by results.c */
    pcs_json_string_pairs(w, "fio_global_options", p->fio_global_options, PCS_JSON_INLINE);
    pcs_json_begin_array(w, "fio_sections", PCS_JSON_LINES);
    for (uint32_t i = 0; i < p->fio_nsections; i++) {
      const PcsFioSection *sec = &p->fio_sections[i];
      pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
      pcs_json_string(w, "name", sec->name);
      pcs_json_uint(w, "numjobs", sec->numjobs);
      pcs_json_uint(w, "group", sec->group);
      pcs_json_string_pairs(w, "options", sec->options, PCS_JSON_INLINE);
      pcs_json_end(w);
    }
    pcs_json_end(w);
  }
  pcs_json_begin_object(w, "scenario", PCS_JSON_LINES);
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    if (!pcs_params_listed(p, &t[i])) continue;
    g_autofree char *key = g_strdup_printf("%s.%s", t[i].section, t[i].key);
    g_autofree char *v = scenario_value(p, &t[i]);
    if (t[i].kind == PCS_KIND_TEXT)
      pcs_json_string(w, key, v);
    else
      pcs_json_raw(w, key, v); /* a number: counts and sizes in bytes, times in ns, fractions as written */
  }
  pcs_json_end(w);
  if (p->jobs) { /* several jobs: read back by results.c */
    pcs_json_begin_array(w, "scenario_jobs", PCS_JSON_LINES);
    for (uint32_t j = 0; j < p->njobs; j++) {
      g_autofree char *job = pcs_params_job_text(&p->jobs[j]);
      pcs_json_string(w, NULL, job);
    }
    pcs_json_end(w);
  }
  const PcsDerivedInfo *d = pcs_params_derived_table(&n);
  pcs_json_begin_object(w, "derived", PCS_JSON_INLINE); /* from the keys above, not read back */
  for (size_t i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s.%s", d[i].section, d[i].key);
    g_autofree char *v = g_strdup_printf("%" G_GUINT64_FORMAT, d[i].value(p));
    pcs_json_string(w, key, v);
  }
  pcs_json_end(w);
}

void pcs_report_json(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_report_json_provenance(&w, p);
  pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
  for (size_t i = 0; i < n; i++) pcs_report_json_result(&w, &res[i], PCS_JSON_LINES);
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}

/* ---- several seeds ---- */

PcsSpread pcs_spread(double *v, size_t n) {
  g_assert(n > 0);
  for (size_t i = 1; i < n; i++) /* insertion sort: a few dozen seeds at most */
    for (size_t k = i; k > 0 && v[k - 1] > v[k]; k--) {
      double t = v[k];
      v[k] = v[k - 1], v[k - 1] = t;
    }
  double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return (PcsSpread){median, v[0], v[n - 1]};
}

PcsSpread pcs_report_seed_spread(const PcsSeedResults *s, size_t j, PcsColumn c) {
  double *v = g_new(double, s->nseeds);
  for (size_t k = 0; k < s->nseeds; k++) v[k] = pcs_report_get(&s->res[k * s->npolicies + j], c);
  PcsSpread sp = pcs_spread(v, s->nseeds);
  g_free(v);
  return sp;
}

char *pcs_report_number(double v, gboolean count) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *fmt = !count ? DECIMAL_FORMAT : v == floor(v) ? "%.0f" : "%.1f";
  return g_strdup(g_ascii_formatd(buf, sizeof buf, fmt, v));
}

static const PcsResult *seed_result(const PcsSeedResults *s, size_t k, size_t j) {
  return &s->res[k * s->npolicies + j];
}

/* Policy J's median, min or max (WHICH 0, 1, 2) of every table number. */
static TableRow table_spread_row(const PcsSeedResults *s, size_t j, int which) {
  static const PcsColumn cols[] = {PCS_COLUMN_aggregate_mib_s, PCS_COLUMN_device_mib_s, PCS_COLUMN_bios,
                                   PCS_COLUMN_bios_per_mib, PCS_COLUMN_avg_bio_kib, PCS_COLUMN_requests,
                                   PCS_COLUMN_eexist, PCS_COLUMN_read_lat_us_p50, PCS_COLUMN_read_lat_us_p99};
  double v[G_N_ELEMENTS(cols)];
  for (size_t i = 0; i < G_N_ELEMENTS(cols); i++) {
    PcsSpread sp = pcs_report_seed_spread(s, j, cols[i]);
    v[i] = which == 0 ? sp.median : which == 1 ? sp.min : sp.max;
  }
  return (TableRow){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
}

static const char *const spread_names[] = {"median", "min", "max"};

/* Several jobs: each job's median MiB/s over the seeds of policy J. */
static void table_seed_jobs(GString *out, const PcsSeedResults *s, size_t j) {
  const PcsResult *first = seed_result(s, 0, j);
  double *v = g_new(double, s->nseeds);
  for (uint32_t job = 0; job < first->njobs; job++) {
    for (size_t k = 0; k < s->nseeds; k++) v[k] = pcs_result_job_mib_s(seed_result(s, k, j), job);
    PcsSpread sp = pcs_spread(v, s->nseeds);
    g_autofree char *name = g_strdup_printf("  %s x%u", first->jobs[job].name, first->jobs[job].clones);
    g_string_append_printf(out, "%-16s %6s %12.1f %12s %9s %9s %9s %10s %9s %10s %10s %8s\n", name, "median",
                           sp.median, "-", "-", "-", "-", "-", "-", "-", "-", "-");
  }
  g_free(v);
}

void pcs_report_seeds_table(GString *out, const PcsParams *p, const PcsSeedResults *s) {
  table_title(out, p);
  g_string_append_printf(out, "seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "\n\n", s->first,
                         s->first + s->nseeds - 1);
  table_header(out, "   seed");
  TableRow base_median = table_spread_row(s, 0, 0);
  for (size_t j = 0; j < s->npolicies; j++) {
    const char *name = seed_result(s, 0, j)->policy.name;
    for (size_t k = 0; k < s->nseeds; k++) { /* change: against the first policy under the same seed */
      TableRow v = table_row_of(seed_result(s, k, j));
      g_autofree char *seed = g_strdup_printf(" %6" G_GUINT64_FORMAT, s->first + k);
      table_line(out, name, seed, &v, j ? pcs_report_get(seed_result(s, k, 0), PCS_COLUMN_aggregate_mib_s) : 0);
    }
    for (int w = 0; w < 3; w++) {
      TableRow v = table_spread_row(s, j, w);
      g_autofree char *label = g_strdup_printf(" %6s", spread_names[w]);
      table_line(out, name, label, &v, j && w == 0 ? base_median.aggr : 0);
    }
    table_seed_jobs(out, s, j);
  }
}

void pcs_report_seeds_csv(GString *out, const PcsParams *p, const PcsSeedResults *s) {
  pcs_report_csv_provenance(out, p);
  g_string_append_printf(out, "# seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "\nseed,", s->first,
                         s->first + s->nseeds - 1);
  pcs_report_csv_header(out);
  for (size_t j = 0; j < s->npolicies; j++) {
    for (size_t k = 0; k < s->nseeds; k++) {
      g_string_append_printf(out, "%" G_GUINT64_FORMAT ",", s->first + k);
      pcs_report_csv_row(out, seed_result(s, k, j));
    }
    for (int w = 0; w < 3; w++) {
      g_string_append(out, spread_names[w]);
      for (size_t i = 0; i < G_N_ELEMENTS(columns); i++) {
        g_autofree char *cell = NULL;
        if (columns[i].kind == 'S') {
          cell = pcs_report_cell(seed_result(s, 0, j), (PcsColumn)i);
        } else {
          PcsSpread sp = pcs_report_seed_spread(s, j, (PcsColumn)i);
          cell = pcs_report_number(w == 0 ? sp.median : w == 1 ? sp.min : sp.max, columns[i].kind == 'U');
        }
        g_string_append_printf(out, ",%s", cell);
      }
      g_string_append_c(out, '\n');
    }
  }
}

static void json_number(PcsJson *w, const char *key, double v, gboolean count) {
  g_autofree char *text = pcs_report_number(v, count);
  pcs_json_raw(w, key, text);
}

/* Several jobs: each job's MiB/s over the seeds of policy J. */
static void json_seed_jobs(PcsJson *w, const PcsSeedResults *s, size_t j) {
  const PcsResult *first = seed_result(s, 0, j);
  if (!first->njobs) return;
  pcs_json_begin_array(w, "jobs", PCS_JSON_LINES);
  double *v = g_new(double, s->nseeds);
  for (uint32_t job = 0; job < first->njobs; job++) {
    for (size_t k = 0; k < s->nseeds; k++) v[k] = pcs_result_job_mib_s(seed_result(s, k, j), job);
    PcsSpread sp = pcs_spread(v, s->nseeds);
    pcs_json_begin_object(w, NULL, PCS_JSON_INLINE);
    pcs_json_string(w, "name", first->jobs[job].name);
    pcs_json_uint(w, "clones", first->jobs[job].clones);
    pcs_json_begin_object(w, "mib_s", PCS_JSON_INLINE);
    json_number(w, "median", sp.median, FALSE);
    json_number(w, "min", sp.min, FALSE);
    json_number(w, "max", sp.max, FALSE);
    pcs_json_end(w);
    pcs_json_end(w);
  }
  g_free(v);
  pcs_json_end(w);
}

void pcs_report_seeds_json(GString *out, const PcsParams *p, const PcsSeedResults *s) {
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
  pcs_report_json_provenance(&w, p);
  pcs_json_begin_array(&w, "seeds", PCS_JSON_INLINE);
  for (size_t k = 0; k < s->nseeds; k++) pcs_json_uint(&w, NULL, s->first + k);
  pcs_json_end(&w);
  pcs_json_begin_array(&w, "results", PCS_JSON_LINES); /* the first seed, as without --seeds */
  for (size_t j = 0; j < s->npolicies; j++) pcs_report_json_result(&w, seed_result(s, 0, j), PCS_JSON_LINES);
  pcs_json_end(&w);
  pcs_json_begin_array(&w, "per_seed", PCS_JSON_LINES);
  for (size_t k = 0; k < s->nseeds; k++) {
    pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
    pcs_json_uint(&w, "seed", s->first + k);
    pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
    for (size_t j = 0; j < s->npolicies; j++) pcs_report_json_result(&w, seed_result(s, k, j), PCS_JSON_LINES);
    pcs_json_end(&w);
    pcs_json_end(&w);
  }
  pcs_json_end(&w);
  pcs_json_begin_array(&w, "summary", PCS_JSON_LINES);
  for (size_t j = 0; j < s->npolicies; j++) {
    pcs_json_begin_object(&w, NULL, PCS_JSON_LINES);
    pcs_json_string(&w, "policy", seed_result(s, 0, j)->policy.name);
    pcs_json_uint(&w, "runs", s->nseeds);
    for (size_t i = 0; i < G_N_ELEMENTS(columns); i++) {
      if (columns[i].kind == 'S') continue;
      PcsSpread sp = pcs_report_seed_spread(s, j, (PcsColumn)i);
      gboolean count = columns[i].kind == 'U';
      pcs_json_begin_object(&w, columns[i].name, PCS_JSON_INLINE);
      json_number(&w, "median", sp.median, count);
      json_number(&w, "min", sp.min, count);
      json_number(&w, "max", sp.max, count);
      pcs_json_end(&w);
    }
    json_seed_jobs(&w, s, j);
    pcs_json_end(&w);
  }
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}
