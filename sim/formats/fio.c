/* fio.c - reading fio job files into a scenario.
 *
 * Models nothing of the kernel; mirrors fio's job file parser
 * (init.c __parse_jobs_ini(), parse.c get_mult_bytes()) closely enough that
 * what pcsim accepts, fio accepts with the same numjobs, bs and size (the
 * test runs `fio --parse-only` and `fio --showcmd` on every shipped file):
 *   - a line whose first non-blank is ';' or '#' is a comment, and so is the
 *     rest of a line after a blank and ';' or '#';
 *   - [name] opens a job; a name starting with "global" opens a global
 *     section whose options every later job inherits;
 *   - `include FILE` reads options (no sections) from FILE, relative to the
 *     including file when not found as given;
 *   - ${VAR} is replaced by the environment variable (fio fails to parse an
 *     unset one, so pcsim refuses it);
 *   - sizes: k/m/g/t/p (with or without b) multiply by kb_base (1024 by
 *     default), kib/mib/... by the other base, case-insensitive.
 * Several job sections are one scenario when they read the same file the
 * same way: their numjobs add up.
 *
 * fadvise_hint is modelled: fio calls posix_fadvise() on each file it opens
 * (fio's default "1" is POSIX_FADV_SEQUENTIAL for rw=read), which doubles
 * the file's readahead window, so a job always sets readahead.fadvise_hint,
 * to fio's default when it names none.  Values are matched as fio's option
 * parser matches them (exactly; "noreuse" where fio has POSIX_FADV_NOREUSE).
 */
#include "pcsim/fio.h"
#include "pcsim/text.h"
#include "pcsim/units.h"

#include <stdlib.h>
#include <string.h>

#define FIO_DEFAULT_BS (4 * PCS_KIB) /* fio's bs when the job names none */
#define FIO_DEFAULT_FADVISE PCS_FADVISE_PATTERN /* fio's fadvise_hint default, "1" */
#define FIO_MAX_INCLUDE_DEPTH 16

typedef struct {
  char *key, *value; /* value NULL for a bare flag */
  char *file;        /* the job file or the included file it came from */
  guint line;
} FioOpt;

typedef struct {
  char *name;
  gboolean global;
  GPtrArray *opts; /* FioOpt * */
  char *file;
  guint line;
} FioSection;

static void opt_free(FioOpt *o) {
  g_free(o->key), g_free(o->value), g_free(o->file), g_free(o);
}

static void section_free(FioSection *s) {
  g_free(s->name), g_free(s->file);
  g_ptr_array_unref(s->opts);
  g_free(s);
}

/* ---- sizes ---- */

gboolean pcs_fio_size(const char *text, unsigned kb_base, uint64_t *out) {
  const char *p = text;
  uint64_t v = 0;
  if (!g_ascii_isdigit(*p)) return FALSE;
  for (; g_ascii_isdigit(*p); p++) {
    if (v > (UINT64_MAX - 9) / 10) return FALSE;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  g_autofree char *suffix = g_ascii_strdown(p, -1);
  static const char units[] = "kmgtp";
  uint64_t mult = 1;
  if (*suffix) {
    const char *u = strchr(units, suffix[0]);
    gboolean iec = suffix[1] == 'i' && suffix[2] == 'b' && !suffix[3];
    gboolean si = !suffix[1] || (suffix[1] == 'b' && !suffix[2]);
    if (!u || (!iec && !si)) return FALSE;
    uint64_t base = iec ? (kb_base == 1000 ? 1024 : 1000) : kb_base;
    for (long i = 0; i <= u - units; i++) mult *= base;
  }
  if (mult > 1 && v > UINT64_MAX / mult) return FALSE;
  *out = v * mult;
  return TRUE;
}

/* ---- reading ---- */

/* ${VAR} from the environment. */
static char *expand_env(const char *value, const char *path, guint line, GError **error) {
  GString *out = g_string_new(NULL);
  for (const char *p = value; *p;) {
    const char *open = strstr(p, "${"), *close = open ? strchr(open, '}') : NULL;
    if (!open || !close) {
      g_string_append(out, p);
      break;
    }
    g_string_append_len(out, p, open - p);
    g_autofree char *var = g_strndup(open + 2, (gsize)(close - open - 2));
    const char *v = g_getenv(var);
    if (!v) {
      pcs_input_error(error, path, line, "${%s} is not set in the environment (fio cannot parse '%s' without it)", var,
                      value);
      g_string_free(out, TRUE);
      return NULL;
    }
    g_string_append(out, v);
    p = close + 1;
  }
  return g_string_free(out, FALSE);
}

static void strip_comment(char *line) {
  for (char *p = line; *p; p++)
    if ((*p == '#' || *p == ';') && (p == line || g_ascii_isspace(p[-1]))) {
      *p = 0;
      return;
    }
}

static gboolean parse_text(const char *path, const char *text, gboolean nested, GPtrArray *sections,
                           int depth, GError **error);

static gboolean parse_include(const char *path, guint line, const char *name, GPtrArray *sections, int depth,
                              GError **error) {
  if (depth > FIO_MAX_INCLUDE_DEPTH)
    return pcs_input_error(error, path, line, "includes nested more than %d deep", FIO_MAX_INCLUDE_DEPTH);
  g_autofree char *dir = g_path_get_dirname(path);
  g_autofree char *full = g_file_test(name, G_FILE_TEST_EXISTS) || g_path_is_absolute(name)
                              ? g_strdup(name)
                              : g_build_filename(dir, name, NULL);
  g_autofree char *text = NULL;
  if (!g_file_test(full, G_FILE_TEST_IS_REGULAR))
    return pcs_input_error(error, path, line, "include: %s: no such file", full);
  if (!pcs_text_read(full, PCS_TEXT_PLAIN, &text, NULL, error)) {
    g_prefix_error(error, "%s:%u: include: ", path, line);
    return FALSE;
  }
  return parse_text(full, text, TRUE, sections, depth + 1, error);
}

static gboolean parse_option(FioSection *sec, char *line, const char *path, guint no, GError **error) {
  char *eq = strchr(line, '=');
  FioOpt *o = g_new0(FioOpt, 1);
  o->key = g_strstrip(g_strndup(line, eq ? (gsize)(eq - line) : strlen(line)));
  o->file = g_strdup(path);
  o->line = no;
  g_ptr_array_add(sec->opts, o);
  if (eq) {
    g_autofree char *raw = g_strstrip(g_strdup(eq + 1));
    o->value = expand_env(raw, path, no, error);
    if (!o->value) return FALSE;
  }
  if (!*o->key) return pcs_input_error(error, path, no, "'%s': expected OPTION or OPTION=VALUE", line);
  return TRUE;
}

static gboolean parse_text(const char *path, const char *text, gboolean nested, GPtrArray *sections,
                           int depth, GError **error) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    guint no = i + 1;
    char *line = g_strstrip(lines[i]);
    strip_comment(line);
    g_strstrip(line);
    if (!*line) continue;
    if (*line == '[') {
      char *close = strchr(line, ']');
      if (nested) return pcs_input_error(error, path, no, "no new sections in included files (fio refuses them too)");
      if (!close || close == line + 1) return pcs_input_error(error, path, no, "'%s': expected [name]", line);
      FioSection *s = g_new0(FioSection, 1);
      s->name = g_strndup(line + 1, (gsize)(close - line - 1));
      s->global = g_str_has_prefix(s->name, "global");
      s->opts = g_ptr_array_new_with_free_func((GDestroyNotify)opt_free);
      s->file = g_strdup(path);
      s->line = no;
      g_ptr_array_add(sections, s);
      continue;
    }
    if (!sections->len) return pcs_input_error(error, path, no, "'%s' is outside of a [job] section", line);
    FioSection *cur = g_ptr_array_index(sections, sections->len - 1);
    if (g_str_has_prefix(line, "include") && g_ascii_isspace(line[7])) {
      if (!parse_include(path, no, g_strstrip(line + 8), sections, depth, error)) return FALSE;
      continue;
    }
    if (!parse_option(cur, line, path, no, error)) return FALSE;
  }
  return TRUE;
}

/* ---- meaning ---- */

/* Options that cannot change what pcsim simulates: kept for provenance. */
static const char *const harmless[] = {
  "name", "description", "directory", "filename", "group_reporting", "thread", "per_job_logs",
  "write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec", "disable_lat", "disable_clat",
  "disable_slat", "disable_bw_measurement", "clat_percentiles", "lat_percentiles", "percentile_list",
  "significant_figures", "unified_rw_reporting", "stats", "kb_base", "unit_base", NULL,
};

typedef struct {
  uint64_t numjobs, bs, size;
  PcsFadvise fadvise;
  guint numjobs_line, bs_line, size_line, fadvise_line;
  gboolean has_size;
  char *file;
} Eval;

/* The line of O when it is in the job file itself (not an include). */
static guint own_line(const FioOpt *o, const char *path) {
  return strcmp(o->file, path) == 0 ? o->line : 0;
}

static const FioOpt *last_opt(GPtrArray *opts, const char *key) {
  for (guint i = opts->len; i-- > 0;) {
    FioOpt *o = g_ptr_array_index(opts, i);
    if (!strcmp(o->key, key)) return o;
  }
  return NULL;
}

static gboolean not_modelled(const FioOpt *o, GError **error, const char *why) {
  if (o->value)
    return pcs_input_error(error, o->file, o->line, "fio option '%s=%s' is not modelled by pcsim%s", o->key, o->value,
                           why);
  return pcs_input_error(error, o->file, o->line, "fio option '%s' is not modelled by pcsim%s", o->key, why);
}

static gboolean size_value(const FioOpt *o, unsigned kb_base, uint64_t *out, GError **error) {
  g_autofree char *first = g_strndup(o->value ? o->value : "", strcspn(o->value ? o->value : "", ","));
  if (pcs_fio_size(first, kb_base, out)) return TRUE;
  return pcs_input_error(error, o->file, o->line, "fio option %s = '%s': expected a size such as 32k, 2000M or 1GiB",
                         o->key, o->value ? o->value : "");
}

/* fadvise_hint as fio's parser takes it; "random" turns readahead off
 * (FMODE_RANDOM), which pcsim does not model. */
static gboolean fadvise_value(const FioOpt *o, Eval *e, PcsFioJob *job, GError **error) {
  e->fadvise_line = own_line(o, job->path);
  if (!o->value || !pcs_params_fadvise_parse(o->value, &e->fadvise)) {
    g_autofree char *names = pcs_params_fadvise_names();
    return pcs_input_error(error, o->file, o->line,
                           "fio option fadvise_hint = '%s': expected %s (fio: failed parsing fadvise_hint%s%s)",
                           o->value ? o->value : "", names, o->value ? "=" : "", o->value ? o->value : "");
  }
  if (e->fadvise == PCS_FADVISE_RANDOM)
    return not_modelled(o, error, " (POSIX_FADV_RANDOM turns readahead off; it models readahead of a sequential read)");
  return TRUE;
}

static gboolean eval_option(const FioOpt *o, unsigned kb_base, Eval *e, PcsFioJob *job, GError **error) {
  const char *k = o->key, *v = o->value ? o->value : "";
  if (!strcmp(k, "numjobs")) {
    e->numjobs_line = own_line(o, job->path);
    const PcsParamInfo *threads = pcs_params_find("workload", "threads"); /* numjobs is workload.threads */
    if (!pcs_parse_u64(v, &e->numjobs) || e->numjobs < threads->lo || e->numjobs > threads->hi)
      return pcs_input_error(error, o->file, o->line,
                             "fio option numjobs = '%s': expected an integer from %" G_GUINT64_FORMAT
                             " to %" G_GUINT64_FORMAT, v, threads->lo, threads->hi);
    return TRUE;
  }
  if (!strcmp(k, "bs") || !strcmp(k, "blocksize")) {
    e->bs_line = own_line(o, job->path);
    return size_value(o, kb_base, &e->bs, error);
  }
  if (!strcmp(k, "size")) {
    e->has_size = TRUE;
    e->size_line = own_line(o, job->path);
    return size_value(o, kb_base, &e->size, error);
  }
  if (!strcmp(k, "fadvise_hint")) return fadvise_value(o, e, job, error);
  if (!strcmp(k, "rw") || !strcmp(k, "readwrite"))
    return !strcmp(v, "read") ? TRUE : not_modelled(o, error, " (it models sequential buffered reads: rw=read)");
  if (!strcmp(k, "ioengine"))
    return !strcmp(v, "sync") || !strcmp(v, "psync") ? TRUE
                                                     : not_modelled(o, error, " (it models read(): ioengine=sync)");
  if (!strcmp(k, "invalidate"))
    return !strcmp(v, "1") ? TRUE : not_modelled(o, error, " (it starts with an empty page cache: invalidate=1)");
  if (!strcmp(k, "offset"))
    return !strcmp(v, "0") ? TRUE : not_modelled(o, error, " (threads read the file from offset 0)");
  if (!strcmp(k, "direct"))
    return !strcmp(v, "0") ? TRUE : not_modelled(o, error, " (it models the page cache: direct=0)");
  if (!strcmp(k, "group_reporting")) job->group_reporting = TRUE;
  if (!strcmp(k, "filename") || !strcmp(k, "directory")) {
    g_autofree char *old = e->file;
    e->file = !strcmp(k, "directory") && old ? g_build_filename(v, old, NULL) : g_strdup(v);
  }
  for (const char *const *h = harmless; *h; h++)
    if (!strcmp(k, *h)) {
      g_ptr_array_add(job->accepted, o->value ? g_strdup_printf("%s=%s", k, v) : g_strdup(k));
      return TRUE;
    }
  return not_modelled(o, error, "");
}

/* One job: the globals before it, then its own options; later ones win. */
static gboolean eval_job(GPtrArray *globals, FioSection *s, Eval *e, PcsFioJob *job, GError **error) {
  g_autoptr(GPtrArray) all = g_ptr_array_new();
  for (guint i = 0; i < globals->len; i++) g_ptr_array_add(all, g_ptr_array_index(globals, i));
  for (guint i = 0; i < s->opts->len; i++) g_ptr_array_add(all, g_ptr_array_index(s->opts, i));
  unsigned kb_base = 1024;
  *e = (Eval){.numjobs = 1, .bs = FIO_DEFAULT_BS, .fadvise = FIO_DEFAULT_FADVISE};
  const FioOpt *kb = last_opt(all, "kb_base");
  if (kb) {
    if (!kb->value || (strcmp(kb->value, "1024") && strcmp(kb->value, "1000")))
      return pcs_input_error(error, kb->file, kb->line, "fio option kb_base = '%s': expected 1024 or 1000",
                             kb->value ? kb->value : "");
    kb_base = (unsigned)atoi(kb->value);
  }
  for (guint i = 0; i < all->len; i++)
    if (!eval_option(g_ptr_array_index(all, i), kb_base, e, job, error)) return FALSE;
  if (!e->has_size)
    return pcs_input_error(error, s->file, s->line, "job '%s' has no size= (pcsim needs the file size)", s->name);
  return TRUE;
}

static gboolean resolve(PcsFioJob *job, GPtrArray *sections, GError **error) {
  g_autoptr(GPtrArray) globals = g_ptr_array_new();
  Eval first = {0};
  guint jobs = 0;
  for (guint i = 0; i < sections->len; i++) {
    FioSection *s = g_ptr_array_index(sections, i);
    if (s->global) {
      for (guint j = 0; j < s->opts->len; j++) g_ptr_array_add(globals, g_ptr_array_index(s->opts, j));
      continue;
    }
    Eval e = {0};
    gboolean ok = eval_job(globals, s, &e, job, error);
    if (ok && jobs &&
        (e.bs != first.bs || e.size != first.size || e.fadvise != first.fadvise || g_strcmp0(e.file, first.file)))
      ok = pcs_input_error(error, s->file, s->line, "job '%s' reads differently from job '%s' (bs, size, fadvise_hint or file): "
                           "pcsim models threads reading one file the same way", s->name, job->name);
    if (!ok) {
      g_free(e.file);
      g_free(first.file);
      return FALSE;
    }
    if (!jobs++) {
      first = e;
      job->name = g_strdup(s->name);
      job->numjobs_line = e.numjobs_line, job->bs_line = e.bs_line, job->size_line = e.size_line;
      job->fadvise_line = e.fadvise_line;
    } else {
      g_free(e.file);
    }
    job->numjobs += e.numjobs;
  }
  g_free(first.file);
  if (!jobs) return pcs_input_error(error, job->path, 0, "no job section (only [global] sections)");
  job->bs = first.bs;
  job->size = first.size;
  job->fadvise = first.fadvise;
  return TRUE;
}

gboolean pcs_fio_load_text(PcsFioJob *job, const char *path, const char *data, size_t len, GError **error) {
  memset(job, 0, sizeof *job);
  job->path = g_strdup(path);
  job->accepted = g_ptr_array_new_with_free_func(g_free);
  if (!pcs_text_check(path, data, len, error)) return FALSE;
  g_autofree char *text = g_strndup(data, len);
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func((GDestroyNotify)section_free);
  if (!parse_text(path, text, FALSE, sections, 0, error)) return FALSE;
  return resolve(job, sections, error);
}

gboolean pcs_fio_load(PcsFioJob *job, const char *path, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) {
    memset(job, 0, sizeof *job);
    return FALSE;
  }
  return pcs_fio_load_text(job, path, text, strlen(text), error);
}

void pcs_fio_clear(PcsFioJob *job) {
  g_clear_pointer(&job->path, g_free);
  g_clear_pointer(&job->name, g_free);
  g_clear_pointer(&job->accepted, g_ptr_array_unref);
}

gboolean pcs_fio_apply(const PcsFioJob *job, PcsParams *p, GError **error) {
  g_autofree char *threads = g_strdup_printf("%" G_GUINT64_FORMAT, job->numjobs);
  g_autofree char *bs = g_strdup_printf("%" G_GUINT64_FORMAT, job->bs);
  g_autofree char *size = g_strdup_printf("%" G_GUINT64_FORMAT, job->size);
  g_autofree char *at_n = job->numjobs_line ? g_strdup_printf("%s:%u", job->path, job->numjobs_line) : g_strdup(job->path);
  g_autofree char *at_bs = job->bs_line ? g_strdup_printf("%s:%u", job->path, job->bs_line) : g_strdup(job->path);
  g_autofree char *at_sz = job->size_line ? g_strdup_printf("%s:%u", job->path, job->size_line) : g_strdup(job->path);
  g_autofree char *at_fa =
      job->fadvise_line ? g_strdup_printf("%s:%u", job->path, job->fadvise_line) : g_strdup(job->path);
  if (!pcs_params_set(p, pcs_params_find("workload", "threads"), threads, at_n, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "block_size"), bs, at_bs, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "file_size"), size, at_sz, error) ||
      !pcs_params_set(p, pcs_params_find("readahead", "fadvise_hint"), pcs_params_fadvise_name(job->fadvise), at_fa,
                      error) ||
      !pcs_params_set(p, pcs_params_find("scenario", "name"), job->name, job->path, error))
    return FALSE;
  g_free(p->source);
  p->source = g_strdup(job->path);
  pcs_params_mark(p, "workload.threads", job->numjobs_line);
  pcs_params_mark(p, "workload.block_size", job->bs_line);
  pcs_params_mark(p, "workload.file_size", job->size_line);
  pcs_params_mark(p, "readahead.fadvise_hint", job->fadvise_line);
  g_strfreev(p->fio_accepted);
  g_ptr_array_add(job->accepted, NULL);
  p->fio_accepted = g_strdupv((char **)job->accepted->pdata);
  g_ptr_array_remove_index(job->accepted, job->accepted->len - 1);
  return TRUE;
}

gboolean pcs_fio_is_job_file(const char *path) {
  return g_str_has_suffix(path, ".fio") || g_str_has_suffix(path, ".job");
}
