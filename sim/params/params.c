/* params.c - scenario parameters: defaults, parsing, INI loading.
 *
 * Models nothing in the kernel; it is the user-facing contract.  Every key
 * comes from PCS_PARAMS in include/pcsim/params.h.  Scenario files are read
 * with GKeyFile (its syntax, comments and escapes) and then scanned once more
 * line by line, because GKeyFile keeps no line numbers and silently takes the
 * last of two duplicate keys: every message must say FILE:LINE and a
 * duplicate must be an error.
 *
 * Two kinds of value are not typed in but follow from others:
 *   - [scenario] kernel selects a kernel profile: setting it sets that
 *     kernel's defaults of the keys in kernel_profile[] that nothing has set
 *     yet (line 0), so a scenario's own value wins in either order and
 *     provenance shows the resolved values;
 *   - the readahead window the model uses is derived (PCS_DERIVED) from the
 *     knobs a kernel engineer sets: the bdi's read_ahead_kb and fio's
 *     fadvise_hint, as mm/fadvise.c does (POSIX_FADV_SEQUENTIAL:
 *     file->f_ra.ra_pages = 2 * bdi->ra_pages).
 */
#include "pcsim/params.h"
#include "pcsim/text.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(pcsim-error-quark, pcs_error)

static const PcsParamInfo param_table[] = {
#define X(sec, key, kind, def, lo, hi, doc) \
  {#sec, #key, PCS_KIND_##kind, def, lo, hi, doc, offsetof(PcsParams, sec##_##key)},
  PCS_PARAMS(X)
#undef X
};

static const char *const kernel_names[] = {
#define X(id, name) name,
  PCS_KERNELS(X)
#undef X
};

static const char *const filesystem_names[] = {
#define X(id, name) name,
  PCS_FILESYSTEMS(X)
#undef X
};

static const char *const files_names[] = {
#define X(id, name) name,
  PCS_FILES_MODES(X)
#undef X
};

static const char *const fadvise_names[] = {
#define X(id, name, doubles) name,
  PCS_FADVISE_HINTS(X)
#undef X
};

/* workload.rw and workload.random_generator: fio's words (options.c posval) */
static const char *const rw_names[] = {"read", "randread"};
static const char *const generator_names[] = {"tausworthe", "tausworthe64"};
/* workload.ioengine: the engines whose buffered reads are modelled (engine.c) */
static const char *const ioengine_names[] = {"sync", "libaio", "io_uring"};

static const gboolean fadvise_doubles[] = {
#define X(id, name, doubles) doubles,
  PCS_FADVISE_HINTS(X)
#undef X
};

/* Defaults each kernel sets (the scenario.kernel doc lists them; a test
 * checks that it does), by PcsKernel. */
typedef struct {
  const char *key;
  const char *value[PCS_KERNEL_COUNT];
} KernelDefault;

static const KernelDefault kernel_profile[] = {
  {"block.plug_max", {"16", "32"}},       /* BLK_MAX_REQUEST_COUNT; 32 in blk-mq */
  {"block.plug_flush_size", {"0", "128k"}}, /* BLK_PLUG_FLUSH_SIZE, blk_add_rq_to_plug() */
  {"bio.queue_limited", {"1", "0"}},      /* bio_add_page() vs bio_split_to_limits() */
  {"bio.max_size", {"512k", "16M"}},
  {"memory.contiguous", {"0", "1"}},      /* pages split from large free blocks in frame order */
};

/* Defaults each file system sets (the scenario.filesystem doc lists them),
 * by PcsFilesystem, applied as the kernel's are. */
typedef struct {
  const char *key;
  const char *value[PCS_FS_COUNT];
} FsDefault;

static const FsDefault fs_profile[] = {
  {"readahead.max_folio_order", {"0", "9", "9"}}, /* mapping_set_large_folios(): ext4 and xfs, not btrfs data */
  {"bio.chained", {"0", "1", "1"}}, /* mpage/iomap's bi_end_io runs once, after the last split part */
};

static const PcsDerivedInfo derived_table[] = {
#define X(sec, key, unit, fn, doc) {#sec, #key, unit, doc, fn},
  PCS_DERIVED(X)
#undef X
};

static const char *const kind_units[] = {
#define X(name, unit) unit,
  PCS_PARAM_KINDS(X)
#undef X
};

const PcsParamInfo *pcs_params_table(size_t *n) {
  *n = G_N_ELEMENTS(param_table);
  return param_table;
}

const char *pcs_params_kind_unit(PcsParamKind kind) { return kind_units[kind]; }

const PcsParamInfo *pcs_params_find(const char *section, const char *key) {
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++)
    if (strcmp(param_table[i].section, section) == 0 && strcmp(param_table[i].key, key) == 0)
      return &param_table[i];
  return NULL;
}

/* Levenshtein distance, small strings only. */
static unsigned edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return 99;
  unsigned row[64];
  for (size_t j = 0; j <= lb; j++) row[j] = (unsigned)j;
  for (size_t i = 1; i <= la; i++) {
    unsigned diag = row[0];
    row[0] = (unsigned)i;
    for (size_t j = 1; j <= lb; j++) {
      unsigned up = row[j];
      unsigned best = MIN(row[j] + 1, row[j - 1] + 1);
      row[j] = MIN(best, diag + (a[i - 1] != b[j - 1]));
      diag = up;
    }
  }
  return row[lb];
}

const PcsParamInfo *pcs_params_suggest(const char *section, const char *key) {
  const PcsParamInfo *best = NULL;
  unsigned best_d = 4;
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++) {
    g_autofree char *want = g_strdup_printf("%s.%s", section ? section : "", key);
    g_autofree char *have = g_strdup_printf("%s.%s", param_table[i].section, param_table[i].key);
    unsigned d = edit_distance(want, have);
    if (strcmp(key, param_table[i].key) == 0) d = MIN(d, 1u);
    if (d < best_d) best_d = d, best = &param_table[i];
  }
  return best;
}

/* ---- value parsing ------------------------------------------------------ */

gboolean pcs_parse_u64(const char *s, uint64_t *out) {
  if (!s || !g_ascii_isdigit(*s)) return FALSE;
  errno = 0;
  char *end;
  guint64 v = g_ascii_strtoull(s, &end, 10);
  if (errno || *end) return FALSE;
  *out = v;
  return TRUE;
}

/* NUMBER followed by a suffix from TABLE; returns FALSE on overflow.  A
 * decimal NUMBER ("0.1ms", "1.5G") is taken when it is a whole number of the
 * base unit (100000 ns, 1536 MiB), exactly: FALSE otherwise ("0.5" bytes). */
typedef struct { const char *suffix; uint64_t mult; } Suffix;

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

static gboolean parse_scaled(const char *s, const Suffix *table, uint64_t *out) {
  if (!s || !g_ascii_isdigit(*s)) return FALSE;
  errno = 0;
  char *end;
  guint64 v = g_ascii_strtoull(s, &end, 10);
  if (errno) return FALSE;
  uint64_t frac = 0, den = 1; /* the decimal part: FRAC / DEN */
  if (*end == '.') {
    end++;
    if (!g_ascii_isdigit(*end)) return FALSE;
    for (; g_ascii_isdigit(*end); end++) {
      if (den >= UINT64_MAX / 10) return FALSE; /* more than 18 decimals */
      frac = frac * 10 + (uint64_t)(*end - '0'), den *= 10;
    }
  }
  for (const Suffix *x = table; x->suffix; x++) {
    if (g_ascii_strcasecmp(end, x->suffix) != 0) continue;
    if (x->mult && v > UINT64_MAX / x->mult) return FALSE;
    uint64_t part = 0; /* frac * mult / den, whole or refused; f < d, so part < mult */
    if (frac) {
      uint64_t g = gcd_u64(frac, den), f = frac / g, d = den / g;
      if (x->mult % d) return FALSE;
      part = f * (x->mult / d);
    }
    if (v * x->mult > UINT64_MAX - part) return FALSE;
    *out = v * x->mult + part;
    return TRUE;
  }
  return FALSE;
}

#define KI ((uint64_t)PCS_KIB)
static const Suffix size_suffixes[] = {
  {"", 1}, {"b", 1}, {"k", KI}, {"kb", KI}, {"kib", KI},
  {"m", KI * KI}, {"mb", KI * KI}, {"mib", KI * KI},
  {"g", KI * KI * KI}, {"gb", KI * KI * KI}, {"gib", KI * KI * KI},
  {"t", KI * KI * KI * KI}, {"tb", KI * KI * KI * KI}, {"tib", KI * KI * KI * KI},
  {NULL, 0}};
#undef KI

static const Suffix time_suffixes[] = {
  {"ns", 1}, {"us", PCS_NS_PER_US}, {"ms", PCS_NS_PER_US * 1000u}, {"s", (uint64_t)PCS_NS_PER_S}, {NULL, 0}};

gboolean pcs_parse_size(const char *s, uint64_t *out) { return parse_scaled(s, size_suffixes, out); }
gboolean pcs_parse_time(const char *s, uint64_t *out) {
  if (s && strcmp(s, "0") == 0) { /* zero needs no unit */
    *out = 0;
    return TRUE;
  }
  return parse_scaled(s, time_suffixes, out);
}

static gboolean parse_rate(const char *s, uint64_t *out) {
  g_autofree char *copy = g_strdup(s);
  size_t n = strlen(copy);
  if (n > 2 && g_ascii_strcasecmp(copy + n - 2, "/s") == 0) copy[n - 2] = 0;
  return pcs_parse_size(copy, out);
}

/* A FRAC key's hi is 1 when 1 itself is valid ([0, 1]), else 0 ([0, 1)). */
static gboolean parse_frac(const char *s, gboolean closed, double *out) {
  if (!s || !*s) return FALSE;
  char *end;
  double v = g_ascii_strtod(s, &end);
  if (*end || !(v >= 0.0 && (closed ? v <= 1.0 : v < 1.0))) return FALSE;
  *out = v;
  return TRUE;
}

static const char *kind_expectation(const PcsParamInfo *info) {
  switch (info->kind) {
  case PCS_KIND_COUNT: return "an unsigned integer";
  case PCS_KIND_SIZE: return "a size such as 4096, 32k, 128K, 2000M or 1G (base 1024)";
  case PCS_KIND_TIME: return "a time with unit ns, us, ms or s, such as 100us";
  case PCS_KIND_RATE: return "a rate in bytes per second such as 250M or 3G";
  case PCS_KIND_FRAC: return info->hi == 1 ? "a fraction in [0, 1], such as 0.5" : "a fraction in [0, 1), such as 0.1";
  case PCS_KIND_TEXT: return "text";
  }
  g_assert_not_reached();
}

char *pcs_params_expectation(const PcsParamInfo *info, const char *value) {
  gboolean integer = info->kind == PCS_KIND_SIZE || info->kind == PCS_KIND_TIME || info->kind == PCS_KIND_RATE;
  if (integer && value && g_ascii_isdigit(*value) && strchr(value, '.'))
    return g_strdup_printf("a whole number of %s, such as %s", pcs_params_kind_unit(info->kind),
                           info->kind == PCS_KIND_TIME ? "0.1ms (100000 ns)" : "1.5G (1536M)");
  if (info->kind == PCS_KIND_TIME && value && *value && strspn(value, "0123456789") == strlen(value))
    return g_strdup("a time with a unit, ns, us, ms or s (missing unit: 100us, not 100)");
  return g_strdup(kind_expectation(info));
}

/* ---- kernels and fadvise ------------------------------------------------ */

static int name_index(const char *const *names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return (int)i;
  return -1;
}

uint64_t pcs_params_job_nrfiles(const PcsParams *p, uint32_t j) {
  uint64_t n = p->workload_nrfiles;
  for (char **a = p->jobs[j].set; a && *a; a++) /* the last one wins, as in pcs_params_job_view() */
    if (g_str_has_prefix(*a, "workload.nrfiles=") && !pcs_parse_u64(*a + strlen("workload.nrfiles="), &n))
      n = p->workload_nrfiles; /* jobs_validate() refuses it */
  return n;
}

uint32_t pcs_params_job_file(const PcsJobSpec *job, uint32_t k) {
  return job->files && k < job->nfiles ? job->files[k] : job->file + k;
}

uint64_t pcs_params_named_files(const PcsParams *p) {
  if (pcs_params_files(p) == PCS_FILES_PER_THREAD) return 0;
  if (!p->jobs) return p->workload_nrfiles;
  uint64_t named = 0;
  for (uint32_t j = 0; j < p->njobs; j++) {
    uint64_t n = p->jobs[j].file == PCS_JOB_OWN_FILE ? 0 : pcs_params_job_nrfiles(p, j);
    for (uint32_t k = 0; k < n; k++) named = MAX(named, (uint64_t)pcs_params_job_file(&p->jobs[j], k) + 1);
  }
  return named;
}

uint64_t pcs_params_nfiles(const PcsParams *p) {
  gboolean per_thread = pcs_params_files(p) == PCS_FILES_PER_THREAD;
  if (!p->jobs) return p->workload_nrfiles * (per_thread ? p->workload_threads : 1);
  uint64_t own = 0; /* a set per clone of a job of its own files */
  for (uint32_t j = 0; j < p->njobs; j++)
    if (per_thread || p->jobs[j].file == PCS_JOB_OWN_FILE) own += p->jobs[j].clones * pcs_params_job_nrfiles(p, j);
  return MAX(pcs_params_named_files(p) + own, 1);
}

/* fio's posval names (options.c file_service_type) and str_fst_cb()'s ":N"
 * (get_opt_postfix(), atoi()); pcsim takes N as digits only, from 1. */
gboolean pcs_params_file_service_parse(const char *text, PcsFileService *type, uint32_t *nr) {
  static const char *const names[] = {"roundrobin", "sequential", "random"};
  const char *colon = strchr(text, ':');
  size_t len = colon ? (size_t)(colon - text) : strlen(text);
  int t = -1;
  for (int i = 0; i < (int)G_N_ELEMENTS(names); i++)
    if (strlen(names[i]) == len && !strncmp(text, names[i], len)) t = i;
  if (t < 0) return FALSE;
  uint64_t n = 1;
  if (colon && (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) || !pcs_parse_u64(colon + 1, &n) ||
                n < 1 || n > G_MAXINT32))
    return FALSE;
  *type = (PcsFileService)t;
  *nr = (uint32_t)n;
  return TRUE;
}

void pcs_params_file_service(const PcsParams *p, PcsFileService *type, uint32_t *nr) {
  gboolean ok = pcs_params_file_service_parse(p->workload_file_service_type, type, nr);
  g_assert(ok);
}

PcsKernel pcs_params_kernel(const PcsParams *p) {
  int k = name_index(kernel_names, G_N_ELEMENTS(kernel_names), p->scenario_kernel);
  g_assert(k >= 0); /* pcs_params_set() accepts nothing else */
  return (PcsKernel)k;
}

PcsFilesystem pcs_params_filesystem(const PcsParams *p) {
  int f = name_index(filesystem_names, G_N_ELEMENTS(filesystem_names), p->scenario_filesystem);
  g_assert(f >= 0); /* pcs_params_set() accepts nothing else */
  return (PcsFilesystem)f;
}

const char *pcs_params_filesystem_name(PcsFilesystem f) {
  g_assert(f < PCS_FS_COUNT);
  return filesystem_names[f];
}

PcsFilesMode pcs_params_files(const PcsParams *p) {
  int f = name_index(files_names, G_N_ELEMENTS(files_names), p->workload_files);
  g_assert(f >= 0); /* pcs_params_set() accepts nothing else */
  return (PcsFilesMode)f;
}

const char *pcs_params_kernel_name(PcsKernel k) {
  g_assert(k < PCS_KERNEL_COUNT);
  return kernel_names[k];
}

gboolean pcs_params_fadvise_parse(const char *name, PcsFadvise *out) {
  int f = name_index(fadvise_names, G_N_ELEMENTS(fadvise_names), name);
  if (f < 0) return FALSE;
  *out = (PcsFadvise)f;
  return TRUE;
}

PcsFadvise pcs_params_fadvise(const PcsParams *p) {
  PcsFadvise f = PCS_FADVISE_NONE;
  gboolean ok = pcs_params_fadvise_parse(p->readahead_fadvise_hint, &f);
  g_assert(ok);
  return f;
}

static char *names_text(const char *const *names, size_t n) {
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
  return g_string_free(s, FALSE);
}

const char *pcs_params_fadvise_name(PcsFadvise f) {
  g_assert(f < PCS_FADVISE_COUNT);
  return fadvise_names[f];
}

char *pcs_params_fadvise_names(void) { return names_text(fadvise_names, G_N_ELEMENTS(fadvise_names)); }

gboolean pcs_params_randread(const PcsParams *p) { return strcmp(p->workload_rw, "randread") == 0; }

/* fio's fadvise_hint=1 (fio_fadvise() in ioengines.c): POSIX_FADV_RANDOM
 * for a random job, POSIX_FADV_SEQUENTIAL for a sequential one. */
gboolean pcs_params_fmode_random(const PcsParams *p) {
  PcsFadvise f = pcs_params_fadvise(p);
  return f == PCS_FADVISE_RANDOM || (f == PCS_FADVISE_PATTERN && pcs_params_randread(p));
}

/* models mm/fadvise.c: POSIX_FADV_SEQUENTIAL sets file->f_ra.ra_pages to
 * twice bdi->ra_pages (fio's "1" advises it for a sequential read);
 * POSIX_FADV_RANDOM leaves ra_pages alone and sets FMODE_RANDOM.  The bdi
 * keeps whole pages. */
uint64_t pcs_params_window_bytes(const PcsParams *p) {
  uint64_t bdi = p->readahead_read_ahead_kb / (PCS_PAGE_SIZE / PCS_KIB) * PCS_PAGE_SIZE;
  gboolean doubles = fadvise_doubles[pcs_params_fadvise(p)] && !pcs_params_fmode_random(p);
  return doubles ? 2 * bdi : bdi;
}

gboolean pcs_params_random_seed(const PcsParams *p, int *mode, uint64_t *seed) {
  const char *v = p->workload_random_seed;
  *seed = 0;
  if (!strcmp(v, "fio")) return *mode = 0, TRUE;
  if (!strcmp(v, "fio-noreseed")) return *mode = 3, TRUE;
  if (!strcmp(v, "scenario")) return *mode = 2, *seed = p->scenario_seed, TRUE;
  *mode = 1;
  return pcs_parse_u64(v, seed);
}

const PcsDerivedInfo *pcs_params_derived_table(size_t *n) {
  *n = G_N_ELEMENTS(derived_table);
  return derived_table;
}

/* TEXT keys with a fixed set of values: the names they accept, or NULL. */
static const char *const *choices_of(const PcsParamInfo *info, size_t *n) {
  if (info->offset == offsetof(PcsParams, scenario_kernel)) {
    *n = G_N_ELEMENTS(kernel_names);
    return kernel_names;
  }
  if (info->offset == offsetof(PcsParams, scenario_filesystem)) {
    *n = G_N_ELEMENTS(filesystem_names);
    return filesystem_names;
  }
  if (info->offset == offsetof(PcsParams, workload_files)) {
    *n = G_N_ELEMENTS(files_names);
    return files_names;
  }
  if (info->offset == offsetof(PcsParams, workload_rw)) {
    *n = G_N_ELEMENTS(rw_names);
    return rw_names;
  }
  if (info->offset == offsetof(PcsParams, workload_ioengine)) {
    *n = G_N_ELEMENTS(ioengine_names);
    return ioengine_names;
  }
  if (info->offset == offsetof(PcsParams, workload_random_generator)) {
    *n = G_N_ELEMENTS(generator_names);
    return generator_names;
  }
  if (info->offset == offsetof(PcsParams, readahead_fadvise_hint)) {
    *n = G_N_ELEMENTS(fadvise_names);
    return fadvise_names;
  }
  return NULL;
}

static gboolean check_choice(const PcsParamInfo *info, const char *v, const char *where, GError **error) {
  size_t n = 0;
  const char *const *names = choices_of(info, &n);
  if (!names || name_index(names, n, v) >= 0) return TRUE;
  g_autofree char *list = names_text(names, n);
  return pcs_input_error(error, where, 0, "%s.%s = '%s': expected %s", info->section, info->key, v, list);
}

/* The selected kernel's defaults, on every profile key nothing has set. */
static void apply_kernel_profile(PcsParams *p) {
  PcsKernel k = pcs_params_kernel(p);
  for (size_t i = 0; i < G_N_ELEMENTS(kernel_profile); i++) {
    const PcsParamInfo *info = pcs_params_find_dotted(kernel_profile[i].key);
    g_assert(info);
    if (p->line[info - param_table]) continue;
    gboolean ok = pcs_params_set(p, info, kernel_profile[i].value[k], "kernel profile", NULL);
    g_assert(ok);
  }
}

/* The selected file system's defaults, on every profile key nothing has set. */
static void apply_fs_profile(PcsParams *p) {
  PcsFilesystem f = pcs_params_filesystem(p);
  for (size_t i = 0; i < G_N_ELEMENTS(fs_profile); i++) {
    const PcsParamInfo *info = pcs_params_find_dotted(fs_profile[i].key);
    g_assert(info);
    if (p->line[info - param_table]) continue;
    gboolean ok = pcs_params_set(p, info, fs_profile[i].value[f], "filesystem profile", NULL);
    g_assert(ok);
  }
}

/* ---- retired keys -------------------------------------------------------- */

/* readahead.max_window was typed in; the window now follows from the knobs
 * the kernel has.  VALUE (or NULL) gives the equivalent settings. */
static gboolean retired_key_error(GError **error, const char *where, guint line, const char *value) {
  uint64_t bytes = 0;
  g_autofree char *v = value ? g_strstrip(g_strdup(value)) : NULL;
  g_autofree char *same = NULL;
  if (v && pcs_parse_size(v, &bytes) && bytes && bytes % PCS_PAGE_SIZE == 0) {
    uint64_t kb = bytes / PCS_KIB;
    same = kb % (2 * PCS_PAGE_SIZE / PCS_KIB) == 0
               ? g_strdup_printf(": max_window = %s is read_ahead_kb = %" G_GUINT64_FORMAT ", fadvise_hint = 0, or "
                                 "read_ahead_kb = %" G_GUINT64_FORMAT ", fadvise_hint = 1 (fio's default doubles it)",
                                 v, kb, kb / 2)
               : g_strdup_printf(": max_window = %s is read_ahead_kb = %" G_GUINT64_FORMAT ", fadvise_hint = 0", v, kb);
  }
  return pcs_input_error(error, where, line,
                         "readahead.max_window is no longer a key: the window is derived from "
                         "readahead.read_ahead_kb (the bdi's) and readahead.fadvise_hint (fio's; 1 or sequential "
                         "doubles it)%s",
                         same ? same : ": max_window = 128k is read_ahead_kb = 128, fadvise_hint = 0");
}

static gboolean is_retired(const char *section, const char *key) {
  return g_strcmp0(section, "readahead") == 0 && g_strcmp0(key, "max_window") == 0;
}

gboolean pcs_params_set(PcsParams *p, const PcsParamInfo *info, const char *value,
                        const char *where, GError **error) {
  void *field = (char *)p + info->offset;
  g_autofree char *v = g_strstrip(g_strdup(value));
  uint64_t u = 0;
  gboolean ok = TRUE;
  switch (info->kind) {
  case PCS_KIND_COUNT: ok = pcs_parse_u64(v, &u); break;
  case PCS_KIND_SIZE: ok = pcs_parse_size(v, &u); break;
  case PCS_KIND_TIME: ok = pcs_parse_time(v, &u); break;
  case PCS_KIND_RATE: ok = parse_rate(v, &u); break;
  case PCS_KIND_FRAC: {
    double d;
    ok = parse_frac(v, info->hi == 1, &d);
    if (ok) *(double *)field = d;
    break;
  }
  case PCS_KIND_TEXT:
    if (!check_choice(info, v, where, error)) return FALSE;
    g_free(*(char **)field);
    *(char **)field = g_strdup(v);
    if (info->offset == offsetof(PcsParams, scenario_kernel)) apply_kernel_profile(p);
    if (info->offset == offsetof(PcsParams, scenario_filesystem)) apply_fs_profile(p);
    return TRUE;
  }
  if (!ok) {
    g_autofree char *expected = pcs_params_expectation(info, v);
    return pcs_input_error(error, where, 0, "%s.%s = '%s': expected %s", info->section, info->key, v, expected);
  }
  if (info->kind == PCS_KIND_FRAC) return TRUE;
  if (u < info->lo || u > info->hi)
    return pcs_input_error(error, where, 0,
                           "%s.%s = '%s' is out of range: expected %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT " %s",
                           info->section, info->key, v, info->lo, info->hi, pcs_params_kind_unit(info->kind));
  *(uint64_t *)field = u;
  return TRUE;
}

G_STATIC_ASSERT(G_N_ELEMENTS(param_table) <= PCS_PARAMS_MAX);

const PcsParamInfo *pcs_params_find_dotted(const char *dotted) {
  const char *dot = strchr(dotted, '.');
  if (!dot) return NULL;
  g_autofree char *section = g_strndup(dotted, (gsize)(dot - dotted));
  return pcs_params_find(section, dot + 1);
}

void pcs_params_mark(PcsParams *p, const char *key, uint32_t line) {
  const PcsParamInfo *info = pcs_params_find_dotted(key);
  g_assert(info);
  p->line[info - param_table] = line;
  p->in_model[info - param_table] = FALSE;
}

void pcs_params_model_below(PcsParams *p) {
  g_free(p->model_source);
  p->model_source = g_strdup(p->source ? p->source : "scenario");
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++) p->in_model[i] = p->line[i] && p->line[i] < PCS_LINE_VARY;
}

static char *where_set(const PcsParams *p, const char *key) {
  const PcsParamInfo *info = pcs_params_find_dotted(key);
  const char *src = info && p->in_model[info - param_table] ? p->model_source
                                                            : p->source ? p->source : "scenario";
  uint32_t line = info ? p->line[info - param_table] : 0;
  if (line == PCS_LINE_CLI) return g_strdup("--set");
  if (line == PCS_LINE_VARY) { /* a sweep's point: which of the values */
    g_autofree char *value = pcs_params_format(p, info);
    return g_strdup_printf("--vary %s=%s", key, value);
  }
  if (line) return g_strdup_printf("%s:%u", src, line);
  return g_strdup(src);
}

char *pcs_params_where(const PcsParams *p, const char *key) {
  char *at = where_set(p, key);
  if (!p->job_name) return at;
  g_autofree char *in_job = at;
  return g_strdup_printf("%s: job '%s'", in_job, p->job_name);
}

void pcs_params_init(PcsParams *p) {
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++) {
    gboolean ok = pcs_params_set(p, &param_table[i], param_table[i].def, "default", NULL);
    g_assert(ok);
  }
}

void pcs_params_clear(PcsParams *p) {
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++)
    if (param_table[i].kind == PCS_KIND_TEXT) g_clear_pointer((char **)((char *)p + param_table[i].offset), g_free);
  g_clear_pointer(&p->source, g_free);
  g_clear_pointer(&p->model_source, g_free);
  g_clear_pointer(&p->job_name, g_free);
  g_clear_pointer(&p->fio_accepted, g_strfreev);
  g_clear_pointer(&p->fio_model, g_free);
  g_clear_pointer(&p->fio_global_options, g_strfreev);
  pcs_params_fio_sections_free(p->fio_sections, p->fio_nsections);
  p->fio_sections = NULL, p->fio_nsections = 0;
  pcs_params_jobs_free(p->jobs, p->njobs);
  p->jobs = NULL, p->njobs = 0;
}

void pcs_params_jobs_free(PcsJobSpec *jobs, uint32_t n) {
  for (uint32_t j = 0; jobs && j < n; j++) {
    g_free(jobs[j].name);
    g_strfreev(jobs[j].set);
    g_free(jobs[j].lines);
    g_free(jobs[j].files);
  }
  g_free(jobs);
}

PcsJobSpec *pcs_params_jobs_copy(const PcsJobSpec *jobs, uint32_t n) {
  if (!jobs) return NULL;
  PcsJobSpec *out = g_new(PcsJobSpec, n);
  for (uint32_t j = 0; j < n; j++) {
    out[j] = jobs[j];
    out[j].name = g_strdup(jobs[j].name);
    out[j].set = g_strdupv(jobs[j].set);
    out[j].lines = jobs[j].lines ? g_memdup2(jobs[j].lines, g_strv_length(jobs[j].set) * sizeof *jobs[j].lines) : NULL;
    out[j].files = jobs[j].files ? g_memdup2(jobs[j].files, jobs[j].nfiles * sizeof *jobs[j].files) : NULL;
  }
  return out;
}

char *pcs_params_job_text(const PcsJobSpec *job) {
  g_autofree char *name = g_uri_escape_string(job->name, NULL, FALSE);
  g_autofree char *wait = job->wait_for == PCS_JOB_NONE ? g_strdup("none") : g_strdup_printf("%u", job->wait_for);
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "name=%s clones=%" G_GUINT64_FORMAT " group=%u after=%u wait_for=%s", name, job->clones,
                         job->group, job->after, wait);
  if (job->file == PCS_JOB_OWN_FILE) g_string_append(s, " file=own");
  else if (job->files) {
    g_string_append(s, " file=");
    for (uint32_t k = 0; k < job->nfiles; k++) g_string_append_printf(s, "%s%u", k ? ":" : "", job->files[k]);
  } else if (job->file) g_string_append_printf(s, " file=%u", job->file);
  for (char **a = job->set; a && *a; a++) g_string_append_printf(s, " %s", *a);
  return g_string_free(s, FALSE);
}

static gboolean job_u32(const char *v, uint32_t *out) {
  uint64_t n;
  if (!pcs_parse_u64(v, &n) || n >= PCS_JOB_NONE) return FALSE;
  *out = (uint32_t)n;
  return TRUE;
}

/* file=N:M:K: the files a job lists (PcsJobSpec.files), FILE the first. */
static gboolean job_files(const char *v, PcsJobSpec *out) {
  g_auto(GStrv) nums = g_strsplit(v, ":", -1);
  g_free(out->files);
  out->nfiles = g_strv_length(nums);
  out->files = g_new(uint32_t, out->nfiles);
  for (uint32_t k = 0; k < out->nfiles; k++)
    if (!job_u32(nums[k], &out->files[k]) || out->files[k] >= PCS_JOB_OWN_FILE) return FALSE;
  out->file = out->files[0];
  return TRUE;
}

gboolean pcs_params_job_parse(const char *text, PcsJobSpec *out, char **why) {
  memset(out, 0, sizeof *out);
  out->wait_for = PCS_JOB_NONE;
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  GPtrArray *set = g_ptr_array_new();
  gboolean ok = TRUE;
  for (char **w = words; ok && *w; w++) {
    char *eq = strchr(*w, '=');
    if (!**w) continue;
    g_autofree char *k = eq ? g_strndup(*w, (gsize)(eq - *w)) : g_strdup(*w);
    const char *v = eq ? eq + 1 : "";
    if (!strcmp(k, "name")) g_free(out->name), out->name = g_uri_unescape_string(v, NULL), ok = out->name != NULL;
    else if (!strcmp(k, "clones")) ok = pcs_parse_u64(v, &out->clones);
    else if (!strcmp(k, "group")) ok = job_u32(v, &out->group);
    else if (!strcmp(k, "after")) ok = job_u32(v, &out->after);
    else if (!strcmp(k, "wait_for")) ok = !strcmp(v, "none") || job_u32(v, &out->wait_for);
    else if (!strcmp(k, "file") && !strcmp(v, "own")) out->file = PCS_JOB_OWN_FILE;
    else if (!strcmp(k, "file") && strchr(v, ':')) ok = job_files(v, out);
    else if (!strcmp(k, "file")) ok = job_u32(v, &out->file) && out->file < PCS_JOB_OWN_FILE;
    else if (eq && strchr(k, '.')) g_ptr_array_add(set, g_strdup(*w));
    else ok = FALSE;
    if (!ok) *why = g_strdup_printf("'%s': expected name=, clones=, group=, after=, wait_for=, file= or section.key=value", *w);
  }
  g_ptr_array_add(set, NULL);
  out->set = (char **)g_ptr_array_free(set, FALSE);
  if (ok && !out->name) ok = FALSE, *why = g_strdup("no name=");
  if (!ok) {
    g_free(out->name), g_strfreev(out->set), g_free(out->files);
    memset(out, 0, sizeof *out);
  }
  return ok;
}

void pcs_params_set_fio_job(PcsParams *p, char *const *global, const PcsFioSection *sections, uint32_t n) {
  g_strfreev(p->fio_global_options);
  pcs_params_fio_sections_free(p->fio_sections, p->fio_nsections);
  p->fio_global_options = global ? g_strdupv((char **)global) : g_new0(char *, 1);
  p->fio_sections = pcs_params_fio_sections_copy(sections, n);
  p->fio_nsections = sections ? n : 0;
}

void pcs_params_fio_section_clear(PcsFioSection *section) {
  g_clear_pointer(&section->name, g_free);
  g_clear_pointer(&section->options, g_strfreev);
}

void pcs_params_fio_sections_free(PcsFioSection *sections, uint32_t n) {
  for (uint32_t i = 0; sections && i < n; i++) pcs_params_fio_section_clear(&sections[i]);
  g_free(sections);
}

PcsFioSection *pcs_params_fio_sections_copy(const PcsFioSection *sections, uint32_t n) {
  if (!sections) return NULL;
  PcsFioSection *out = g_new(PcsFioSection, n);
  for (uint32_t i = 0; i < n; i++) {
    out[i] = sections[i];
    out[i].name = g_strdup(sections[i].name);
    out[i].options = g_strdupv(sections[i].options);
  }
  return out;
}

/* A fio name, option or value in a provenance line: no blank, '=' or '%'
 * raw, a path's separators kept readable. */
#define FIO_TEXT_KEPT "/:,+@"

char *pcs_params_fio_options_text(char *const *kv) {
  GString *s = g_string_new(NULL);
  for (; kv && kv[0] && kv[1]; kv += 2) {
    g_autofree char *k = g_uri_escape_string(kv[0], FIO_TEXT_KEPT, FALSE);
    g_autofree char *v = g_uri_escape_string(kv[1], FIO_TEXT_KEPT, FALSE);
    g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", k, v);
  }
  return g_string_free(s, FALSE);
}

gboolean pcs_params_fio_options_parse(char *const *words, char ***out, char **why) {
  g_autoptr(GPtrArray) kv = g_ptr_array_new_with_free_func(g_free);
  for (char *const *w = words; w && *w; w++) {
    if (!**w) continue;
    const char *eq = strchr(*w, '=');
    g_autofree char *k = eq ? g_strndup(*w, (gsize)(eq - *w)) : NULL;
    char *key = k ? g_uri_unescape_string(k, NULL) : NULL, *value = eq ? g_uri_unescape_string(eq + 1, NULL) : NULL;
    if (!key || !*key || !value) {
      g_free(key), g_free(value);
      *why = g_strdup_printf("'%s': expected a fio option KEY=VALUE (URI-escaped)", *w);
      return FALSE;
    }
    g_ptr_array_add(kv, key);
    g_ptr_array_add(kv, value);
  }
  g_ptr_array_add(kv, NULL);
  g_ptr_array_set_free_func(kv, NULL);
  *out = (char **)g_ptr_array_free(g_steal_pointer(&kv), FALSE);
  return TRUE;
}

char *pcs_params_fio_section_text(const PcsFioSection *section) {
  g_autofree char *name = g_uri_escape_string(section->name, FIO_TEXT_KEPT, FALSE);
  g_autofree char *options = pcs_params_fio_options_text(section->options);
  return g_strdup_printf("%s numjobs=%" G_GUINT64_FORMAT " group=%u options%s%s", name, section->numjobs,
                         section->group, *options ? " " : "", options);
}

gboolean pcs_params_fio_section_parse(const char *text, PcsFioSection *out, char **why) {
  memset(out, 0, sizeof *out);
  g_auto(GStrv) w = g_strsplit(text, " ", -1);
  guint n = g_strv_length(w);
  if (n < 4 || !g_str_has_prefix(w[1], "numjobs=") || !g_str_has_prefix(w[2], "group=") || strcmp(w[3], "options")) {
    *why = g_strdup_printf("'%s': expected NAME numjobs=N group=G options KEY=VALUE ...", text);
    return FALSE;
  }
  out->name = g_uri_unescape_string(w[0], NULL);
  gboolean ok = out->name && *out->name && pcs_parse_u64(w[1] + strlen("numjobs="), &out->numjobs) &&
                job_u32(w[2] + strlen("group="), &out->group);
  if (!ok) *why = g_strdup_printf("'%s': expected a URI-escaped name, numjobs=N and group=G", text);
  if (ok) ok = pcs_params_fio_options_parse(w + 4, &out->options, why);
  if (!ok) {
    g_free(out->name), g_strfreev(out->options);
    memset(out, 0, sizeof *out);
  }
  return ok;
}

gboolean pcs_params_job_view(const PcsParams *p, uint32_t j, PcsParams *out, GError **error) {
  g_assert(j < p->njobs);
  const PcsJobSpec *job = &p->jobs[j];
  PcsParams view = *p;
  view.jobs = NULL, view.njobs = 0;
  pcs_params_copy(out, &view);
  out->workload_threads = job->clones;
  out->job_name = g_strdup(job->name);
  for (guint i = 0; job->set && job->set[i]; i++) {
    g_auto(GStrv) kv = g_strsplit(job->set[i], "=", 2);
    const PcsParamInfo *info = kv[1] ? pcs_params_find_dotted(kv[0]) : NULL;
    if (!info) {
      pcs_params_clear(out);
      return pcs_input_error(error, p->source ? p->source : "scenario", 0, "job '%s': '%s': expected section.key=value",
                             job->name, job->set[i]);
    }
    pcs_params_mark(out, kv[0], job->lines ? job->lines[i] : 0); /* the job's line, not the first job's */
    g_autofree char *where = pcs_params_where(out, kv[0]);
    if (!pcs_params_set(out, info, kv[1], where, error)) {
      pcs_params_clear(out);
      return FALSE;
    }
  }
  return TRUE;
}

void pcs_params_copy(PcsParams *dst, const PcsParams *src) {
  *dst = *src;
  for (size_t i = 0; i < G_N_ELEMENTS(param_table); i++)
    if (param_table[i].kind == PCS_KIND_TEXT) {
      char **f = (char **)((char *)dst + param_table[i].offset);
      *f = g_strdup(*f);
    }
  dst->source = g_strdup(src->source);
  dst->model_source = g_strdup(src->model_source);
  dst->job_name = g_strdup(src->job_name);
  dst->fio_accepted = g_strdupv(src->fio_accepted);
  dst->fio_model = g_strdup(src->fio_model);
  dst->fio_global_options = g_strdupv(src->fio_global_options);
  dst->fio_sections = pcs_params_fio_sections_copy(src->fio_sections, src->fio_nsections);
  dst->jobs = pcs_params_jobs_copy(src->jobs, src->njobs);
}

/* fio's names of scenario keys: a scenario that says `bs = 32k` meant this. */
static const PcsParamInfo *fio_alias(const char *key) {
  static const char *const alias[][2] = {{"bs", "workload.block_size"}, {"blocksize", "workload.block_size"},
                                         {"numjobs", "workload.threads"}, {"size", "workload.file_size"},
                                         {"filesize", "workload.file_size"}};
  for (size_t i = 0; i < G_N_ELEMENTS(alias); i++)
    if (!strcmp(key, alias[i][0])) return pcs_params_find_dotted(alias[i][1]);
  return NULL;
}

static gboolean unknown_key_error(GError **error, const char *where, guint line, const char *section,
                                  const char *key) {
  const PcsParamInfo *s = fio_alias(key);
  if (!s) s = pcs_params_suggest(section, key);
  if (s)
    return pcs_input_error(error, where, line, "unknown key '%s.%s' (did you mean '%s.%s'?)", section, key,
                           s->section, s->key);
  return pcs_input_error(error, where, line, "unknown key '%s.%s' (`pcsim params` lists every key)", section, key);
}

const PcsParamInfo *pcs_params_lookup(const char *dotted, const char *where, GError **error) {
  const PcsParamInfo *info = pcs_params_find_dotted(dotted);
  if (!info) {
    const char *dot = strchr(dotted, '.');
    g_autofree char *section = dot ? g_strndup(dotted, (gsize)(dot - dotted)) : g_strdup(dotted);
    if (is_retired(section, dot ? dot + 1 : ""))
      retired_key_error(error, where, 0, NULL);
    else
      unknown_key_error(error, where, 0, section, dot ? dot + 1 : "");
  }
  return info;
}

gboolean pcs_params_set_assignment(PcsParams *p, const char *assignment, GError **error) {
  const char *eq = strchr(assignment, '=');
  const char *dot = strchr(assignment, '.');
  if (!eq || !dot || dot > eq)
    return pcs_input_error(error, "--set", 0, "'%s': expected SECTION.KEY=VALUE, e.g. workload.threads=8", assignment);
  g_autofree char *key = g_strstrip(g_strndup(assignment, (gsize)(eq - assignment)));
  if (!strcmp(key, "readahead.max_window")) return retired_key_error(error, "--set", 0, eq + 1);
  const PcsParamInfo *info = pcs_params_lookup(key, "--set", error);
  if (!info || !pcs_params_set(p, info, eq + 1, "--set", error)) return FALSE;
  p->line[info - param_table] = PCS_LINE_CLI;
  p->in_model[info - param_table] = FALSE;
  return TRUE;
}

/* ---- scenario files ------------------------------------------------------ */

/* One pass over the lines: the section and key of each assignment with its
 * line number.  Syntax errors were already reported by GKeyFile. */
static gboolean apply_lines(PcsParams *p, const char *path, const char *text, GKeyFile *kf,
                            GError **error) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *section = NULL;
  for (guint i = 0; lines[i]; i++) {
    g_autofree char *where = g_strdup_printf("%s:%u", path, i + 1);
    char *line = g_strstrip(lines[i]);
    if (!*line || *line == '#' || *line == ';') continue;
    if (*line == '[') {
      char *close = strchr(line, ']');
      g_free(section);
      section = g_strndup(line + 1, close ? (gsize)(close - line - 1) : strlen(line + 1));
      continue;
    }
    char *eq = strchr(line, '=');
    if (!eq) continue;
    g_autofree char *key = g_strstrip(g_strndup(line, (gsize)(eq - line)));
    const PcsParamInfo *info = pcs_params_find(section, key);
    if (!info && is_retired(section, key)) {
      g_autofree char *old = g_key_file_get_string(kf, section, key, NULL);
      return retired_key_error(error, path, i + 1, old);
    }
    if (!info) return unknown_key_error(error, path, i + 1, section, key);
    g_autofree char *full = g_strdup_printf("%s.%s", section, key);
    if (g_hash_table_contains(seen, full))
      return pcs_input_error(error, path, i + 1, "duplicate key '%s' (line %u set it first)", full,
                             GPOINTER_TO_UINT(g_hash_table_lookup(seen, full)));
    g_hash_table_insert(seen, g_steal_pointer(&full), GUINT_TO_POINTER(i + 1));
    g_autofree char *value = g_key_file_get_string(kf, section, key, NULL);
    if (!pcs_params_set(p, info, value ? value : "", where, error)) return FALSE;
    p->line[info - param_table] = i + 1;
    p->in_model[info - param_table] = FALSE;
  }
  return TRUE;
}

/* GKeyFile names the offending line by its content, in “quotes”; find its
 * number (the first key line, when a key comes before any [section]). */
static guint keyfile_error_line(const char *text, const char *message) {
  const char *open = strstr(message, "\u201c"), *close = open ? strstr(open, "\u201d") : NULL;
  g_autofree char *content = open && close ? g_strndup(open + 3, (gsize)(close - open - 3)) : NULL;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    if (content ? !strcmp(l, g_strstrip(content)) : (*l && *l != '#' && *l != ';')) return i + 1;
  }
  return 1;
}

/* The first line that only a fio job file has: a fio option no scenario
 * section knows (rw=, bs=, ...) or a bare fio flag (thread), or 0.  A file
 * with a [scenario] or [workload] section is a scenario whatever its keys
 * look like (`thread = 1` is a typo of workload.threads, not fio): 0. */
static guint fio_syntax_line(const char *text) {
  static const char *const fio_only[] = {"rw", "readwrite", "bs", "blocksize", "size", "numjobs", "ioengine",
                                         "iodepth", "direct", "filename", "directory", "thread", "group_reporting",
                                         "invalidate", NULL}; /* runtime, time_based: [workload] keys too */
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  guint first = 0;
  for (guint i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    if (!strcmp(l, "[scenario]") || !strcmp(l, "[workload]")) return 0;
    g_autofree char *key = g_strstrip(g_strndup(l, strcspn(l, "=")));
    if (!*key || *key == '#' || *key == ';' || *key == '[') continue;
    if (!first && g_strv_contains(fio_only, key)) first = i + 1;
  }
  return first;
}

gboolean pcs_params_load(PcsParams *p, const char *path, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  return pcs_params_load_text(p, path, text, strlen(text), error);
}

gboolean pcs_params_load_text(PcsParams *p, const char *path, const char *data, size_t len, GError **error) {
  if (!pcs_text_check(path, data, len, error)) return FALSE;
  g_autofree char *text = g_strndup(data, len);
  g_autofree char *trimmed = g_strstrip(g_strdup(text));
  if (!*trimmed) return pcs_input_error(error, path, 1, "empty scenario: expected sections such as [workload] with keys");
  guint fio_line = fio_syntax_line(text);
  if (fio_line)
    return pcs_input_error(error, path, fio_line,
                           "this looks like a fio job file, not a scenario: run it with `pcsim run --fio %s` "
                           "(or name it .fio), with --model SCENARIO.ini for the rest", path);
  g_autoptr(GKeyFile) kf = g_key_file_new();
  GError *e = NULL;
  if (!g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, &e)) {
    pcs_input_error(error, path, keyfile_error_line(text, e->message), "not a valid scenario (INI) file: %s",
                    e->message);
    g_error_free(e);
    return FALSE;
  }
  if (!apply_lines(p, path, text, kf, error)) return FALSE;
  g_free(p->source);
  p->source = g_strdup(path);
  return TRUE;
}

/* ---- cross-key checks ---------------------------------------------------- */

/* The message is prefixed with where KEY was set (file:line, --set). */
#define CHECK(key, cond, ...)                                                 \
  do {                                                                        \
    if (!(cond)) {                                                            \
      g_autofree char *msg_ = g_strdup_printf(__VA_ARGS__);                   \
      g_autofree char *at_ = pcs_params_where(p, key);                        \
      return pcs_input_error(error, at_, 0, "%s", msg_);                      \
    }                                                                         \
  } while (0)

/* The largest folio, in pages, a run reads: readahead.c's order is at most
 * readahead.max_folio_order and ilog2 of the readahead size, which is at
 * most the window, or a read() larger than it up to the bdi's io_pages
 * (block.max_sectors: ext4 and xfs, the file systems with large folios). */
static uint64_t largest_folio_pages(const PcsParams *p) {
  if (!p->readahead_max_folio_order) return 1;
  uint64_t window = pcs_params_window_bytes(p) / PCS_PAGE_SIZE;
  uint64_t call = p->workload_block_size / PCS_PAGE_SIZE + 1; /* the pages one read() spans, at most */
  uint64_t ra = MAX(window, MIN(call, p->block_max_sectors / PCS_SECTORS_PER_PAGE));
  uint64_t order = 0;
  while (order < p->readahead_max_folio_order && UINT64_C(2) << order <= ra) order++;
  return UINT64_C(1) << order;
}

/* A check between two keys blames the one a --set or --vary gave, else the first. */
static const char *blame(const PcsParams *p, const char *first, const char *second) {
  return p->line[pcs_params_find_dotted(second) - param_table] >= PCS_LINE_VARY &&
                 p->line[pcs_params_find_dotted(first) - param_table] < PCS_LINE_VARY
             ? second
             : first;
}

/* Ranges (lo, hi) are checked by pcs_params_set() from the table; these are
 * the checks between keys and of page alignment. */

/* The keys a job of several may read with its own value (reader.c takes
 * them per reader); every other key is the run's. */
static const char *const job_keys[] = {"workload.block_size", "workload.rw", "workload.norandommap",
                                       "workload.random_seed", "workload.random_generator", "workload.ioengine",
                                       "workload.iodepth", "workload.iodepth_batch",
                                       "workload.iodepth_batch_complete_min", "workload.iodepth_batch_complete_max",
                                       "workload.iodepth_low", "workload.file_size", "workload.offset",
                                       "readahead.fadvise_hint", "workload.loops", "workload.time_based",
                                       "workload.runtime", "workload.nrfiles", "workload.file_service_type",
                                       "workload.openfiles", NULL};

/* Job J's named files: numbered in the order the jobs first name them
 * (FILES: how many the jobs before it named), a list as long as its
 * nrfiles and naming no file twice; none with per-thread files. */
static gboolean job_files_validate(const PcsParams *p, uint32_t j, uint32_t *files, GError **error) {
  const PcsJobSpec *job = &p->jobs[j];
  const char *src = p->source ? p->source : "scenario";
  if (job->file == PCS_JOB_OWN_FILE) return TRUE; /* each clone its own set, after the named ones */
  uint64_t n = pcs_params_job_nrfiles(p, j);
  if (job->files && job->nfiles != n)
    return pcs_input_error(error, src, 0, "job '%s' lists %u files (file=): expected its workload.nrfiles, %" G_GUINT64_FORMAT,
                           job->name, job->nfiles, n);
  if ((job->file || job->files) && pcs_params_files(p) == PCS_FILES_PER_THREAD)
    return pcs_input_error(error, src, 0, "job '%s' reads file %u: with workload.files = per-thread each clone "
                           "reads its own", job->name, job->file);
  for (uint32_t k = 0; k < n && pcs_params_files(p) == PCS_FILES_SHARED; k++) {
    uint32_t f = pcs_params_job_file(job, k);
    if (f > *files)
      return pcs_input_error(error, src, 0, "job '%s' reads file %u: expected at most %u (files are numbered as "
                             "the jobs first name them)", job->name, f, *files);
    for (uint32_t m = 0; m < k; m++)
      if (pcs_params_job_file(job, m) == f)
        return pcs_input_error(error, src, 0, "job '%s' lists file %u twice", job->name, f);
    *files = MAX(*files, f + 1);
  }
  return TRUE;
}

/* Several jobs: their clones add up to workload.threads, each sets only
 * job_keys[], its barrier names a job before it, and its view validates. */
static gboolean jobs_validate(const PcsParams *p, GError **error) {
  if (!p->jobs) return TRUE;
  const char *src = p->source ? p->source : "scenario";
  uint64_t clones = 0;
  uint32_t files = 0;
  for (const char *const *k = job_keys; *k; k++) { /* each job's own value would win over it */
    g_autofree char *where = pcs_params_where(p, *k);
    if (p->line[pcs_params_find_dotted(*k) - param_table] >= PCS_LINE_VARY)
      return pcs_input_error(error, where, 0, "%s: each of the %u jobs reads with its own (its job section's); "
                             "change it in the job file", *k, p->njobs);
  }
  for (uint32_t j = 0; j < p->njobs; j++) {
    const PcsJobSpec *job = &p->jobs[j];
    clones += job->clones;
    if (!job->clones) return pcs_input_error(error, src, 0, "job '%s' has no clones", job->name);
    if (job->after > j || (job->wait_for != PCS_JOB_NONE && job->wait_for >= j))
      return pcs_input_error(error, src, 0, "job '%s' waits for a job after it", job->name);
    if (job->file == PCS_JOB_OWN_FILE && pcs_params_files(p) == PCS_FILES_PER_THREAD)
      return pcs_input_error(error, src, 0, "job '%s' reads files of its clones' own (file=own): with "
                             "workload.files = per-thread every job does; file=own is for shared files", job->name);
    if (!job_files_validate(p, j, &files, error)) return FALSE;
    for (char **a = job->set; a && *a; a++) {
      g_autofree char *key = g_strndup(*a, strcspn(*a, "="));
      gboolean ok = FALSE;
      for (const char *const *k = job_keys; *k && !ok; k++) ok = !strcmp(*k, key);
      if (!ok)
        return pcs_input_error(error, src, 0, "job '%s' sets %s of its own: pcsim's jobs share it (a job reads with "
                               "its own workload.block_size, rw, random options, ioengine, iodepth, file_size, offset, loops, "
                               "time_based, runtime, nrfiles, file_service_type, openfiles and readahead.fadvise_hint)",
                               job->name, key);
    }
    PcsParams view; /* its errors name the job after where (pcs_params_where()) */
    if (!pcs_params_job_view(p, j, &view, error)) return FALSE;
    gboolean ok = pcs_params_validate(&view, error);
    pcs_params_clear(&view);
    if (!ok) return FALSE;
  }
  if (clones != p->workload_threads) {
    g_autofree char *at = pcs_params_where(p, "workload.threads");
    return pcs_input_error(error, at, 0, "workload.threads = %" G_GUINT64_FORMAT ": the jobs' clones add up to %"
                           G_GUINT64_FORMAT, p->workload_threads, clones);
  }
  return TRUE;
}

gboolean pcs_params_validate(const PcsParams *p, GError **error) {
  CHECK("readahead.read_ahead_kb", p->readahead_read_ahead_kb % (PCS_PAGE_SIZE / PCS_KIB) == 0,
        "readahead.read_ahead_kb = %" G_GUINT64_FORMAT ": expected a multiple of %u, as sysfs shows it "
        "(the bdi keeps whole %u KiB pages: writing %" G_GUINT64_FORMAT " shows %" G_GUINT64_FORMAT ")",
        p->readahead_read_ahead_kb, PCS_PAGE_SIZE / PCS_KIB, PCS_PAGE_SIZE / PCS_KIB, p->readahead_read_ahead_kb,
        p->readahead_read_ahead_kb / (PCS_PAGE_SIZE / PCS_KIB) * (PCS_PAGE_SIZE / PCS_KIB));
  int seed_mode;
  uint64_t seed;
  CHECK("workload.random_seed", pcs_params_random_seed(p, &seed_mode, &seed),
        "workload.random_seed = '%s': expected fio (fio's randrepeat=1), fio-noreseed (randseed without "
        "randrepeat=0), a number (randseed with randrepeat=0) or scenario (randrepeat=0)", p->workload_random_seed);
  CHECK(blame(p, "workload.rw", "workload.block_size"),
        !pcs_params_randread(p) || p->workload_block_size % PCS_PAGE_SIZE == 0,
        "workload.rw = randread needs workload.block_size a multiple of the %u-byte page (got %" G_GUINT64_FORMAT
        " bytes): pcsim reads whole pages per random block", PCS_PAGE_SIZE, p->workload_block_size);
  PcsFilesystem fs = pcs_params_filesystem(p);
  CHECK(blame(p, "scenario.filesystem", "scenario.kernel"), fs == PCS_FS_BTRFS || pcs_params_kernel(p) == PCS_KERNEL_V6_18,
        "scenario.filesystem = %s needs kernel = v6.18 (pcsim models %s's large-folio read path of 6.x, not 3.5's "
        "buffer heads)", pcs_params_filesystem_name(fs), pcs_params_filesystem_name(fs));
  CHECK(blame(p, "readahead.max_folio_order", "scenario.filesystem"),
        !p->readahead_max_folio_order || fs != PCS_FS_BTRFS,
        "readahead.max_folio_order = %" G_GUINT64_FORMAT " with filesystem = btrfs: btrfs data has no large folios in "
        "6.18 (mapping_set_large_folios() is not called for data inodes); use filesystem = ext4 or xfs",
        p->readahead_max_folio_order);
  /* a bio takes a large folio whole (bio.c pcs_bio_add_folio(), the kernel's bio_add_folio()) */
  uint64_t folio = largest_folio_pages(p), folio_kib = folio * PCS_PAGE_SIZE / PCS_KIB;
  CHECK(blame(p, "bio.max_size", "readahead.max_folio_order"), folio <= p->bio_max_size / PCS_PAGE_SIZE,
        "bio.max_size (%" G_GUINT64_FORMAT " bytes) is less than the largest folio this run reads, %" G_GUINT64_FORMAT
        " KiB (readahead.max_folio_order = %" G_GUINT64_FORMAT " and the readahead size): a bio takes a large folio "
        "whole (bio_add_folio()); raise it to %" G_GUINT64_FORMAT "k or lower readahead.max_folio_order",
        p->bio_max_size, folio_kib, p->readahead_max_folio_order, folio_kib);
  CHECK(blame(p, "bio.stripe_size", "readahead.max_folio_order"),
        !p->bio_stripe_size || p->bio_stripe_size / PCS_PAGE_SIZE % folio == 0,
        "bio.stripe_size (%" G_GUINT64_FORMAT " bytes) would cut the largest folio this run reads, %" G_GUINT64_FORMAT
        " KiB (readahead.max_folio_order = %" G_GUINT64_FORMAT "): a bio takes a large folio whole; expected 0 or a "
        "multiple of %" G_GUINT64_FORMAT "k", p->bio_stripe_size, folio_kib, p->readahead_max_folio_order, folio_kib);
  CHECK(blame(p, "bio.queue_limited", "readahead.max_folio_order"),
        !p->bio_queue_limited || !p->readahead_max_folio_order,
        "bio.queue_limited = 1 (v3.x's bio_add_page() limits) with readahead.max_folio_order = %" G_GUINT64_FORMAT
        ": large folios are 6.x's, whose bios grow to bio.max_size and the block layer splits; set it to 0",
        p->readahead_max_folio_order);
  CHECK(blame(p, "bio.csum_leaf_size", "scenario.filesystem"), !p->bio_csum_leaf_size || fs == PCS_FS_BTRFS,
        "bio.csum_leaf_size = %" G_GUINT64_FORMAT " with filesystem = %s: data checksums are btrfs's; set it to 0",
        p->bio_csum_leaf_size, pcs_params_filesystem_name(fs));
  gboolean uring = !strcmp(p->workload_ioengine, "io_uring");
  CHECK(blame(p, "workload.ioengine", "scenario.kernel"), !uring || pcs_params_kernel(p) == PCS_KERNEL_V6_18,
        "workload.ioengine = io_uring needs kernel = v6.18 (io_uring's buffered reads wait on folios from 5.9)");
  CHECK(blame(p, "workload.ioengine", "workload.loops"), !uring || (p->workload_loops == 1 && !p->workload_time_based),
        "workload.ioengine = io_uring with workload.loops > 1 or workload.time_based is not modelled (a parked read "
        "across fio's invalidation): io_uring reads the file once");
  CHECK(blame(p, "workload.ioengine", "workload.nrfiles"), !uring || p->workload_nrfiles <= 1,
        "workload.ioengine = io_uring with workload.nrfiles > 1 is not modelled (fio's file switching with reads "
        "parked in flight): use one file, or ioengine=sync or libaio");
  CHECK(blame(p, "workload.ioengine", "workload.block_size"), !uring || p->workload_block_size % PCS_PAGE_SIZE == 0,
        "workload.ioengine = io_uring needs workload.block_size a multiple of the %u-byte page", PCS_PAGE_SIZE);
  CHECK(blame(p, "workload.block_size", "workload.file_size"), p->workload_block_size <= p->workload_file_size,
        "workload.block_size (%" G_GUINT64_FORMAT " bytes) is larger than workload.file_size (%" G_GUINT64_FORMAT ")",
        p->workload_block_size, p->workload_file_size);
  CHECK(blame(p, "cost.insert_alloc", "cost.insert_won"), p->cost_insert_alloc <= p->cost_insert_won,
        "cost.insert_alloc (%" G_GUINT64_FORMAT " ns) is more than cost.insert_won (%" G_GUINT64_FORMAT
        " ns), the insert's whole CPU time it is a part of",
        p->cost_insert_alloc, p->cost_insert_won);
  CHECK("workload.offset", p->workload_offset % PCS_PAGE_SIZE == 0,
        "workload.offset: expected 0 or a multiple of the %u-byte page", PCS_PAGE_SIZE);
  CHECK(blame(p, "workload.time_based", "workload.runtime"), !p->workload_time_based || p->workload_runtime,
        "workload.time_based = 1 needs workload.runtime, the time to stop at (fio: time_based requires a "
        "runtime/timeout setting)");
  CHECK(blame(p, "workload.time_based", "cost.copy"), !p->workload_time_based || p->cost_copy || p->cost_syscall,
        "workload.time_based = 1 with cost.copy = 0 and cost.syscall = 0: a pass over cached pages would take no "
        "simulated time and the run would never reach workload.runtime; give one of them a cost");
  CHECK("bio.max_size", p->bio_max_size % PCS_PAGE_SIZE == 0,
        "bio.max_size: expected a multiple of the %u-byte page", PCS_PAGE_SIZE);
  CHECK("bio.stripe_size", p->bio_stripe_size % PCS_PAGE_SIZE == 0,
        "bio.stripe_size: expected 0 or a multiple of the %u-byte page", PCS_PAGE_SIZE);
  CHECK("bio.csum_leaf_size", p->bio_csum_leaf_size == 0 || (p->bio_csum_leaf_size >= PCS_PAGE_SIZE &&
                                                               (p->bio_csum_leaf_size & (p->bio_csum_leaf_size - 1)) == 0),
        "bio.csum_leaf_size: expected 0 or a btrfs nodesize, a power of two from the %u-byte page to 64k (4k, 8k, "
        "16k, 32k or 64k)", PCS_PAGE_SIZE);
  PcsFileService fst;
  uint32_t fst_nr;
  CHECK("workload.file_service_type", pcs_params_file_service_parse(p->workload_file_service_type, &fst, &fst_nr),
        "workload.file_service_type = '%s': expected roundrobin, sequential or random, each with an optional :N "
        "(N read() calls on a file before the next choice, from 1)", p->workload_file_service_type);
  CHECK(blame(p, "workload.nrfiles", "workload.rw"), p->workload_nrfiles == 1 || !pcs_params_randread(p),
        "workload.nrfiles = %" G_GUINT64_FORMAT " with workload.rw = randread: random reads over several files are "
        "not modelled (fio's random map per file)", p->workload_nrfiles);
  CHECK(blame(p, "workload.nrfiles", "workload.loops"), p->workload_nrfiles == 1 || p->workload_loops == 1,
        "workload.nrfiles = %" G_GUINT64_FORMAT " with workload.loops = %" G_GUINT64_FORMAT ": loops over several "
        "files are not modelled (fio's clear_io_state() reopens every file)", p->workload_nrfiles, p->workload_loops);
  CHECK(blame(p, "workload.nrfiles", "workload.time_based"), p->workload_nrfiles == 1 || !p->workload_time_based,
        "workload.nrfiles = %" G_GUINT64_FORMAT " with workload.time_based = 1: fio wraps a time-based job only with "
        "one file (get_next_seq_offset()); several are not modelled", p->workload_nrfiles);
  /* the files' pages, one file after the other on the device, end before
   * where pcsim places metadata (units.h PCS_META_FIRST_PAGE: 256 TiB) */
  uint64_t nfiles = pcs_params_nfiles(p);
  uint64_t file_pages = (p->workload_offset + p->workload_file_size + PCS_PAGE_SIZE - 1) / PCS_PAGE_SIZE;
  CHECK(blame(p, "workload.file_size", "workload.files"), file_pages <= PCS_META_FIRST_PAGE / nfiles,
        "workload.offset + workload.file_size (%" G_GUINT64_FORMAT " bytes) times %" G_GUINT64_FORMAT
        " file(s) is past the %" G_GUINT64_FORMAT " TiB the model lays files out in",
        p->workload_offset + p->workload_file_size, nfiles, PCS_META_FIRST_PAGE * PCS_PAGE_SIZE >> 40);
  CHECK(blame(p, "bio.csum_leaf_size", "block.max_sectors"),
        p->bio_csum_leaf_size <= p->block_max_sectors * PCS_SECTOR_SIZE,
        "bio.csum_leaf_size (%" G_GUINT64_FORMAT " bytes) is larger than a request (block.max_sectors = %" G_GUINT64_FORMAT
        " sectors): a checksum leaf is read as one request",
        p->bio_csum_leaf_size, p->block_max_sectors);
  CHECK("block.max_segment_size", p->block_max_segment_size % PCS_PAGE_SIZE == 0,
        "block.max_segment_size: expected a multiple of the %u-byte page", PCS_PAGE_SIZE);
  CHECK(blame(p, "memory.scattered", "memory.contiguous"), p->memory_scattered == 0 || p->memory_contiguous,
        "memory.scattered is set but memory.contiguous = 0: every page is already scattered; "
        "set memory.contiguous = 1");
  CHECK(blame(p, "device.slow_rate", "device.sharing"), p->device_slow_rate == 0 || p->device_sharing,
        "device.slow_rate is set but device.sharing = 0: the slow state is a rate of the shared transfers; "
        "set device.sharing = 1");
  CHECK(blame(p, "cost.touch_reported", "memory.reported_order"), p->cost_touch_reported == 0 || p->memory_reported_order,
        "cost.touch_reported is set but memory.reported_order = 0: the first touch is a host fault only on memory "
        "free page reporting gave back (set memory.reported_order to page_reporting_order, 9 here)");
  CHECK(blame(p, "cost.copy_cold", "cpu.cache_size"), p->cost_copy_cold == 0 || p->cpu_cache_size,
        "cost.copy_cold is set but cpu.cache_size = 0: a copy is cold once its page's data has left a CPU cache "
        "of cpu.cache_size bytes; set it (e.g. the L2 per core, as lscpu shows it)");
  CHECK(blame(p, "cost.copy_cold", "cost.copy"), p->cost_copy_cold == 0 || p->cost_copy_cold >= p->cost_copy,
        "cost.copy_cold (%" G_GUINT64_FORMAT " ns) is less than cost.copy (%" G_GUINT64_FORMAT
        " ns): a copy from memory cannot be cheaper than one from the CPU cache",
        p->cost_copy_cold, p->cost_copy);
  CHECK(blame(p, "cpu.wake_latency", "cpu.wake_exclusive"), p->cpu_wake_latency == 0 || !p->cpu_wake_exclusive,
        "cpu.wake_latency is not modelled with cpu.wake_exclusive = 1 (the v3.x page-lock hand-off): "
        "set one of them to 0");
  CHECK(blame(p, "cpu.wake_affine", "cpu.migration_cost"), p->cpu_wake_affine == 0 || p->cpu_migration_cost,
        "cpu.wake_affine is set but cpu.migration_cost = 0: woken readers are placed on a CPU's own run queue only "
        "with per-CPU run queues; set cpu.migration_cost (the kernel's 500us) or cpu.wake_affine = 0");
  CHECK(blame(p, "cpu.wake_select", "cpu.migration_cost"), !p->cpu_wake_select || p->cpu_migration_cost,
        "cpu.wake_select is set but cpu.migration_cost = 0: it picks the CPU whose own run queue a woken reader "
        "joins, which exists only with per-CPU run queues; set cpu.migration_cost (the kernel's 500us)");
  CHECK(blame(p, "cpu.wake_select", "cpu.wake_affine"), !p->cpu_wake_select || p->cpu_wake_affine == 0,
        "cpu.wake_select and cpu.wake_affine are both set: cpu.wake_select is the kernel's rule that replaces "
        "cpu.wake_affine's coin flip; set cpu.wake_affine = 0");
  CHECK(blame(p, "cpu.wake_latency_local", "cpu.wake_latency"), p->cpu_wake_latency_local == 0 || p->cpu_wake_latency,
        "cpu.wake_latency_local is set but cpu.wake_latency = 0: it is the wake-up latency's median for a reader "
        "woken onto the waker's own CPU; set cpu.wake_latency (the others') too");
  CHECK(blame(p, "cpu.wake_jitter", "cpu.wake_latency"), p->cpu_wake_jitter == 0 || p->cpu_wake_latency,
        "cpu.wake_jitter is set but cpu.wake_latency = 0: the jitter spreads the wake-up latency; set its median");
  CHECK(blame(p, "cpu.cfs_wake_preempt", "cpu.wake_preempt"), !p->cpu_cfs_wake_preempt || !p->cpu_wake_preempt,
        "cpu.cfs_wake_preempt (v3.x CFS) and cpu.wake_preempt (6.x EEVDF) are two kernels' rules for the same "
        "decision: set one of them to 0");
  CHECK("cpu.cache_size", p->cpu_cache_size % PCS_PAGE_SIZE == 0,
        "cpu.cache_size: expected 0 or a multiple of the %u-byte page", PCS_PAGE_SIZE);
  g_autofree char *why = NULL;
  uint64_t blocks[PCS_BUDDY_ORDERS];
  CHECK("memory.buddyinfo", pcs_params_parse_buddyinfo(p->memory_buddyinfo, blocks, &why),
        "memory.buddyinfo = '%s': %s", p->memory_buddyinfo, why);
  return jobs_validate(p, error);
}

gboolean pcs_params_parse_buddyinfo(const char *text, uint64_t blocks[PCS_BUDDY_ORDERS], char **why) {
  memset(blocks, 0, PCS_BUDDY_ORDERS * sizeof *blocks);
  g_auto(GStrv) words = g_strsplit_set(text ? text : "", " \t,", -1);
  guint order = 0;
  for (guint i = 0; words[i]; i++) {
    if (!*words[i]) continue;
    if (order == PCS_BUDDY_ORDERS) {
      *why = g_strdup_printf("expected at most %d counts (orders 0 to %d, as /proc/buddyinfo lists them)",
                             PCS_BUDDY_ORDERS, PCS_BUDDY_ORDERS - 1);
      return FALSE;
    }
    if (!pcs_parse_u64(words[i], &blocks[order]) || blocks[order] > (UINT64_C(1) << 40)) {
      *why = g_strdup_printf("'%s' (order %u) is not a count of free blocks", words[i], order);
      return FALSE;
    }
    order++;
  }
  return TRUE;
}

/* The keys listed only when they differ from their default, each added
 * after outputs that did not list it were pinned.  Their defaults are
 * plain numbers ("0", "1"), or a TEXT key's word ("read"). */
static const char *const LISTED_WHEN_SET[] = {
    "workload.loops", "workload.runtime", "workload.time_based", "workload.offset", /* fio's loops, runtime, ... */
    "cost.copy_cold", "cpu.cache_size",                                            /* the cache-cold copy */
    "cpu.wake_latency", "cpu.wake_jitter",                                         /* the wake-up latency */
    "cost.ra_scan_page", "cost.ra_setup",                                          /* the readahead call's CPU time */
    "cpu.migration_cost", "cpu.wake_affine",                                       /* per-CPU run queues */
    "cpu.wake_latency_local",                                                      /* the local wake-up */
    "cpu.tick",                                                                    /* the scheduler tick */
    "cpu.wake_preempt",                                                            /* EEVDF wake-up preemption */
    "cpu.cfs_wake_preempt",                                                        /* v3.x CFS wake-up preemption */
    "cpu.endio_idle_thresh",                                                       /* btrfs 3.x's worker pool */
    "cost.loop_worker", "cost.loop_request",                                       /* the loop device's worker */
    "cost.ra_marker",                                                              /* the marker's test-to-clear gap */
    "cpu.idle_wake_short", "cpu.idle_wake_long", "cpu.idle_wake_poll",           /* idle-exit latency by idle time */
    "cpu.wake_select",                                                             /* select_task_rq_fair() */
    "cost.fio_user",                                                               /* fio's user CPU per call */
    "workload.rw", "workload.norandommap", "workload.random_seed", "workload.random_generator", /* randread */
    "workload.nrfiles", "workload.file_service_type", "workload.openfiles",                 /* several files */
    "workload.ioengine", "workload.iodepth", "workload.iodepth_batch", "workload.iodepth_batch_complete_min", /* engines */
    "workload.iodepth_batch_complete_max", "workload.iodepth_low",
};

gboolean pcs_params_listed(const PcsParams *p, const PcsParamInfo *info) {
  g_autofree char *name = g_strdup_printf("%s.%s", info->section, info->key);
  gboolean when_set = FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(LISTED_WHEN_SET) && !when_set; i++) when_set = !strcmp(name, LISTED_WHEN_SET[i]);
  if (!when_set) return TRUE;
  const void *field = (const char *)p + info->offset;
  if (info->kind == PCS_KIND_TEXT) return strcmp(*(char *const *)field, info->def) != 0;
  if (info->kind == PCS_KIND_FRAC) return *(const double *)field != g_ascii_strtod(info->def, NULL);
  return *(const uint64_t *)field != g_ascii_strtoull(info->def, NULL, 10);
}

char *pcs_params_format(const PcsParams *p, const PcsParamInfo *info) {
  const void *field = (const char *)p + info->offset;
  switch (info->kind) {
  case PCS_KIND_TEXT: return g_strdup(*(char *const *)field);
  case PCS_KIND_FRAC: {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_dtostr(buf, sizeof buf, *(const double *)field));
  }
  case PCS_KIND_TIME: return g_strdup_printf("%" G_GUINT64_FORMAT "ns", *(const uint64_t *)field);
  default: return g_strdup_printf("%" G_GUINT64_FORMAT, *(const uint64_t *)field);
  }
}
