/* report.c - printing results: the seed-style table, CSV and JSON.
 *
 * Models nothing; derives every metric from the counters of PcsResult so
 * the three formats cannot disagree.  Numbers are printed with fixed
 * precision and no locale, so output is byte-identical run to run.
 */
#include "pcsim/report.h"

#include <math.h>
#include <string.h>

#ifndef PCSIM_VERSION
#define PCSIM_VERSION "unknown"
#endif

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

static const char *const column_names[] = {
#define X(name, kind, doc, label) #name,
  PCS_COLUMNS(X)
#undef X
};
static const char column_kinds[] = {
#define X(name, kind, doc, label) #kind[0],
  PCS_COLUMNS(X)
#undef X
};

static const char *const column_labels[] = {
#define X(name, kind, doc, label) label,
  PCS_COLUMNS(X)
#undef X
};

const char *pcs_report_column_label(const char *column) {
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++)
    if (!strcmp(column_names[i], column)) return column_labels[i];
  return NULL;
}

const char *const *pcs_report_columns(size_t *n) {
  *n = G_N_ELEMENTS(column_names);
  return column_names;
}

#define MIB (1024.0 * 1024.0)

static double mib_read(const PcsResult *r) { return (double)r->pages_read * PCS_PAGE_SIZE / MIB; }
static double per(double a, double b) { return b > 0 ? a / b : 0.0; }
static double secs(const PcsResult *r) { return (double)r->sim_time_ns / 1e9; }

double pcs_report_value(const PcsResult *r, const char *c) {
  if (!strcmp(c, "threads")) return r->threads;
  if (!strcmp(c, "file_mib")) return (double)r->file_bytes / MIB;
  if (!strcmp(c, "bios_per_mib")) return per((double)r->bios, mib_read(r));
  if (!strcmp(c, "requests_per_mib")) return per((double)r->requests, mib_read(r));
  if (!strcmp(c, "avg_bio_kib")) return per((double)r->pages_read * 4.0, (double)r->bios);
  if (!strcmp(c, "avg_request_kib")) return per((double)r->pages_read * 4.0, (double)r->requests);
  if (!strcmp(c, "aggregate_mib_s")) return per((double)r->bytes_returned / MIB, secs(r));
  if (!strcmp(c, "device_mib_s")) return per(mib_read(r), secs(r));
#define X(name, doc) if (!strcmp(c, #name)) return (double)r->name;
  PCS_COUNTERS(X)
#undef X
  return NAN;
}

static uint64_t counter(const PcsResult *r, const char *c) {
#define X(name, doc) if (!strcmp(c, #name)) return r->name;
  PCS_COUNTERS(X)
#undef X
  if (!strcmp(c, "threads")) return r->threads;
  g_assert_not_reached();
}

char *pcs_report_cell(const PcsResult *r, const char *c) {
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++) {
    if (strcmp(column_names[i], c) != 0) continue;
    switch (column_kinds[i]) {
    case 'S': return g_strdup(r->policy.name);
    case 'U': return g_strdup_printf("%" G_GUINT64_FORMAT, counter(r, c));
    default: return g_strdup_printf("%.4f", pcs_report_value(r, c));
    }
  }
  g_assert_not_reached();
}

/* ---- table ---- */

void pcs_report_table(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  g_string_append_printf(out,
      "scenario %s: %" G_GUINT64_FORMAT " thread(s), %.0f MiB file, bs %" G_GUINT64_FORMAT
      " KiB, readahead %" G_GUINT64_FORMAT " KiB, seed %" G_GUINT64_FORMAT "\n\n",
      p->scenario_name, p->workload_threads, (double)p->workload_file_size / MIB,
      p->workload_block_size / 1024, p->readahead_max_window / 1024, p->scenario_seed);
  g_string_append_printf(out, "%-16s %12s %12s %9s %9s %9s %10s %9s %8s\n", "policy", "aggr MiB/s",
                         "device MiB/s", "bios", "bios/MiB", "avg KiB", "requests", "eexist",
                         "change");
  double base = n ? pcs_report_value(&res[0], "aggregate_mib_s") : 0;
  for (size_t i = 0; i < n; i++) {
    const PcsResult *r = &res[i];
    double aggr = pcs_report_value(r, "aggregate_mib_s");
    g_autofree char *change = i == 0 ? g_strdup("-") : g_strdup_printf("%+.1f%%", 100.0 * (aggr / base - 1.0));
    g_string_append_printf(out, "%-16s %12.1f %12.1f %9" G_GUINT64_FORMAT " %9.2f %9.2f %10" G_GUINT64_FORMAT
                           " %9" G_GUINT64_FORMAT " %8s\n",
                           r->policy.name, aggr, pcs_report_value(r, "device_mib_s"), r->bios,
                           pcs_report_value(r, "bios_per_mib"), pcs_report_value(r, "avg_bio_kib"),
                           r->requests, r->eexist, change);
  }
}

/* ---- CSV ---- */

void pcs_report_csv_header(GString *out) {
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++)
    g_string_append_printf(out, "%s%s", i ? "," : "", column_names[i]);
  g_string_append_c(out, '\n');
}

void pcs_report_csv_row(GString *out, const PcsResult *r) {
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++) {
    g_autofree char *cell = pcs_report_cell(r, column_names[i]);
    g_string_append_printf(out, "%s%s", i ? "," : "", cell);
  }
  g_string_append_c(out, '\n');
}

void pcs_report_csv_provenance(GString *out, const PcsParams *p) {
  g_string_append_printf(out, "# pcsim %s\n", pcs_version());
  g_string_append_printf(out, "# source %s\n", p->source ? p->source : "(defaults)");
  if (p->fio_accepted && *p->fio_accepted) {
    g_autofree char *list = g_strjoinv(" ", p->fio_accepted);
    g_string_append_printf(out, "# fio accepted %s\n", list);
  }
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *v = pcs_params_format(p, &t[i]);
    g_string_append_printf(out, "# %s.%s=%s\n", t[i].section, t[i].key, v);
  }
}

void pcs_report_csv(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  pcs_report_csv_provenance(out, p);
  pcs_report_csv_header(out);
  for (size_t i = 0; i < n; i++) pcs_report_csv_row(out, &res[i]);
}

/* ---- JSON ---- */

void pcs_json_string(GString *out, const char *s) {
  g_string_append_c(out, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') g_string_append_c(out, '\\');
    if ((unsigned char)*s < 0x20)
      g_string_append_printf(out, "\\u%04x", *s);
    else
      g_string_append_c(out, *s);
  }
  g_string_append_c(out, '"');
}

void pcs_report_json_result(GString *out, const PcsResult *r, const char *ind) {
  g_string_append_printf(out, "%s{\n", ind);
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++) {
    g_autofree char *cell = pcs_report_cell(r, column_names[i]);
    g_string_append_printf(out, "%s  \"%s\": ", ind, column_names[i]);
    if (column_kinds[i] == 'S')
      pcs_json_string(out, cell);
    else
      g_string_append(out, cell);
    g_string_append(out, ",\n");
  }
  g_string_append_printf(out, "%s  \"bio_pages_hist\": {", ind);
  gboolean first = TRUE;
  for (uint32_t k = 0; k < r->hist_len; k++) {
    if (!r->bio_pages_hist[k]) continue;
    g_string_append_printf(out, "%s\"%u\": %" G_GUINT64_FORMAT, first ? "" : ", ", k, r->bio_pages_hist[k]);
    first = FALSE;
  }
  g_string_append_printf(out, "}\n%s}", ind);
}

void pcs_report_json_inline(GString *out, const PcsResult *r) {
  for (size_t i = 0; i < G_N_ELEMENTS(column_names); i++) {
    g_autofree char *cell = pcs_report_cell(r, column_names[i]);
    g_string_append_printf(out, "%s\"%s\": ", i ? ", " : "", column_names[i]);
    if (column_kinds[i] == 'S')
      pcs_json_string(out, cell);
    else
      g_string_append(out, cell);
  }
}

void pcs_report_json_provenance(GString *out, const PcsParams *p, const char *ind) {
  g_string_append_printf(out, "%s\"pcsim_version\": ", ind);
  pcs_json_string(out, pcs_version());
  g_string_append_printf(out, ",\n%s\"seed\": %" G_GUINT64_FORMAT ",\n%s\"source\": ", ind, p->scenario_seed, ind);
  pcs_json_string(out, p->source ? p->source : "");
  if (p->fio_accepted && *p->fio_accepted) {
    g_string_append_printf(out, ",\n%s\"fio_accepted\": [", ind);
    for (char **a = p->fio_accepted; *a; a++) {
      if (a != p->fio_accepted) g_string_append(out, ", ");
      pcs_json_string(out, *a);
    }
    g_string_append_c(out, ']');
  }
  g_string_append_printf(out, ",\n%s\"scenario\": {", ind);
  size_t n;
  const PcsParamInfo *t = pcs_params_table(&n);
  for (size_t i = 0; i < n; i++) {
    g_autofree char *key = g_strdup_printf("%s.%s", t[i].section, t[i].key);
    g_autofree char *v = pcs_params_format(p, &t[i]);
    g_string_append_printf(out, "%s\n%s  ", i ? "," : "", ind);
    pcs_json_string(out, key);
    g_string_append(out, ": ");
    pcs_json_string(out, v);
  }
  g_string_append_printf(out, "\n%s}", ind);
}

void pcs_report_json(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  g_string_append(out, "{\n");
  pcs_report_json_provenance(out, p, "  ");
  g_string_append(out, ",\n  \"results\": [\n");
  for (size_t i = 0; i < n; i++) {
    pcs_report_json_result(out, &res[i], "    ");
    g_string_append(out, i + 1 < n ? ",\n" : "\n");
  }
  g_string_append(out, "  ]\n}\n");
}

/* ---- fio JSON ---- */

static gboolean group_reporting(const PcsParams *p) {
  if (!p->fio_accepted) return TRUE; /* INI scenarios report like the seed's job */
  for (char **a = p->fio_accepted; *a; a++)
    if (!strcmp(*a, "group_reporting")) return TRUE;
  return FALSE;
}

static void fio_dir(GString *out, const char *name, uint64_t bytes, uint64_t ns, uint64_t bs, gboolean last) {
  uint64_t ios = bs ? bytes / bs : 0;
  uint64_t bw_bytes = ns ? (uint64_t)((double)bytes * 1e9 / (double)ns) : 0;
  g_string_append_printf(out,
      "      \"%s\" : {\n"
      "        \"io_bytes\" : %" G_GUINT64_FORMAT ",\n        \"io_kbytes\" : %" G_GUINT64_FORMAT ",\n"
      "        \"bw_bytes\" : %" G_GUINT64_FORMAT ",\n        \"bw\" : %" G_GUINT64_FORMAT ",\n"
      "        \"iops\" : %.6f,\n        \"runtime\" : %" G_GUINT64_FORMAT ",\n"
      "        \"total_ios\" : %" G_GUINT64_FORMAT ",\n        \"short_ios\" : 0,\n        \"drop_ios\" : 0\n"
      "      }%s\n",
      name, bytes, bytes / 1024, bw_bytes, bw_bytes / 1024, ns ? (double)ios * 1e9 / (double)ns : 0.0,
      bytes ? (ns + 500000) / 1000000 : 0, ios, last ? "" : ",");
}

static void fio_job(GString *out, const PcsParams *p, const PcsResult *r, guint group, uint64_t bytes, uint64_t ns,
                    uint64_t numjobs, gboolean last) {
  g_string_append(out, "    {\n      \"jobname\" : ");
  pcs_json_string(out, p->scenario_name);
  g_string_append_printf(out, ",\n      \"groupid\" : %u,\n      \"error\" : 0,\n      \"job options\" : {\n"
                         "        \"rw\" : \"read\",\n        \"ioengine\" : \"sync\",\n"
                         "        \"bs\" : \"%" G_GUINT64_FORMAT "\",\n        \"size\" : \"%" G_GUINT64_FORMAT "\",\n"
                         "        \"numjobs\" : \"%" G_GUINT64_FORMAT "\",\n        \"pcsim_policy\" : ",
                         group, p->workload_block_size, p->workload_file_size, numjobs);
  pcs_json_string(out, r->policy.name);
  g_string_append(out, "\n      },\n");
  fio_dir(out, "read", bytes, ns, p->workload_block_size, FALSE);
  fio_dir(out, "write", 0, 0, p->workload_block_size, FALSE);
  fio_dir(out, "trim", 0, 0, p->workload_block_size, FALSE);
  g_string_append_printf(out, "      \"job_runtime\" : %" G_GUINT64_FORMAT "\n    }%s\n", (ns + 500000) / 1000000,
                         last ? "" : ",");
}

void pcs_report_fio_json(GString *out, const PcsParams *p, const PcsResult *res, size_t n) {
  g_string_append(out, "{\n  \"fio version\" : ");
  g_autofree char *version = g_strdup_printf("pcsim-%s", pcs_version());
  pcs_json_string(out, version);
  g_string_append(out, ",\n  \"timestamp\" : 0,\n  \"timestamp_ms\" : 0,\n  \"time\" : \"simulated\",\n"
                       "  \"jobs\" : [\n");
  gboolean grouped = group_reporting(p);
  for (size_t i = 0; i < n; i++) {
    const PcsResult *r = &res[i];
    if (grouped) {
      fio_job(out, p, r, (guint)i, r->bytes_returned, r->sim_time_ns, r->threads, i + 1 == n);
      continue;
    }
    for (uint32_t t = 0; t < r->threads; t++)
      fio_job(out, p, r, (guint)i, r->thread_bytes[t], r->thread_done_ns[t], 1, i + 1 == n && t + 1 == r->threads);
  }
  g_string_append(out, "  ],\n  \"pcsim\" : {\n");
  pcs_report_json_provenance(out, p, "    ");
  g_string_append(out, "\n  }\n}\n");
}
