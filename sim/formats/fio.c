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
 * Several job sections are one job when they read the same way: their
 * numjobs add up.  Sections that read with their own bs, rw (and random
 * options), ioengine or iodepth, or wait (stonewall, wait_for) or open a
 * group (new_group), or read their own file (filename=), range (size,
 * offset), loops, runtime, time_based or fadvise_hint, are jobs run at
 * once (PcsParams.jobs, resolve()), each with its own files.  A job
 * without filename= gives each clone its own file (fio's jobname.N.0):
 * workload.files = per-thread when no job names one, else each such clone
 * its own after the named files (PCS_JOB_OWN_FILE); filename= shares it.
 * nrfiles=N gives each clone N files (jobname.N.F), and filename=a:b:c
 * three shared ones, each name numbered as the jobs first name it
 * (job_files()): workload.nrfiles, sized as fio's setup_files() sizes
 * them (files_sizes()), with file_service_type and openfiles.
 *
 * Meaning (eval_option()): every option is looked up in fio's own names
 * (fio_names.h); one fio does not know is fio's "Bad option" with its
 * nearest.  A known one is accepted (and listed for provenance) when it
 * cannot change a buffered sequential read at its value (rules[]), else
 * noted; all noted options are refused in one message, the kind of I/O
 * (write, random, direct, engine) first.  Values fio cannot parse
 * (invalidate=true) get fio's words.  fio reads whole blocks up to the size,
 * so size is cut to a multiple of bs.
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

static void section_info_clear(void *data) {
  PcsFioSection *s = data;
  g_free(s->name);
  g_strfreev(s->options);
}

static void section_free(FioSection *s) {
  g_free(s->name), g_free(s->file);
  g_ptr_array_unref(s->opts);
  g_free(s);
}

/* ---- sizes ---- */

gboolean pcs_fio_size(const char *text, unsigned kb_base, uint64_t *out) {
  const char *p = text;
  unsigned radix = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) radix = 16, p += 2; /* strtoll(.., 16) when "0x" */
  uint64_t v = 0;
  if (!g_ascii_isxdigit(*p) || (radix == 10 && !g_ascii_isdigit(*p))) return FALSE;
  for (; radix == 16 ? g_ascii_isxdigit(*p) : g_ascii_isdigit(*p); p++) {
    if (v > (UINT64_MAX - 15) / radix) return FALSE;
    v = v * radix + (uint64_t)g_ascii_xdigit_value(*p);
  }
  g_autofree char *suffix = g_ascii_strdown(p, -1);
  static const char units[] = "kmgtp";
  uint64_t mult = 1;
  if (*suffix && strcmp(suffix, "b")) { /* fio reads "b" as bytes */
    const char *u = strchr(units, suffix[0]);
    gboolean iec = suffix[1] == 'i' && suffix[2] == 'b' && !suffix[3];
    gboolean si = !suffix[1] || (suffix[1] == 'b' && !suffix[2]);
    if (!u || (!iec && !si)) return FALSE;
    uint64_t base = iec ? (kb_base == 1000 ? 1024 : 1000) : kb_base; /* parse.c: "opposite units" */
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

#include "fio_names.h"

/* fio's own word for an option, through its aliases (options.c .alias). */
static const char *const aliases[][2] = {
  {"readwrite", "rw"}, {"blocksize", "bs"}, {"timeout", "runtime"}, {"fileoffset", "offset"},
  {"io_limit", "io_size"}, {"wait_for_previous", "stonewall"}, {"nr_files", "nrfiles"},
  {"disable_bw", "disable_bw_measurement"}, {"ioscheduler", "ioscheduler"},
  {"iodepth_batch_submit", "iodepth_batch"}, {"iodepth_batch_complete", "iodepth_batch_complete_min"},
};

static const char *canonical(const char *key) {
  for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
    if (!strcmp(key, aliases[i][0])) return aliases[i][1];
  return key;
}

static gboolean in_list(const char *const *names, const char *key) {
  for (const char *const *n = names; *n; n++)
    if (!strcmp(*n, key)) return TRUE;
  return FALSE;
}

/* How fio types a value (options.c): what it refuses before pcsim looks. */
typedef enum {
  FIO_T_ANY,  /* text, sizes: checked where used */
  FIO_T_BOOL, /* FIO_OPT_BOOL: an integer 0 or 1, a value required */
  FIO_T_SET,  /* FIO_OPT_STR_SET: bare (1) or an integer */
  FIO_T_INT,  /* FIO_OPT_INT */
} FioType;

/* What a value does to a buffered sequential read:
 *   neutral: '|'-separated values that cannot change it (NULL: any value);
 *   why: the reason another value is refused;
 *   kind: the refusal sorts first (the kind of I/O itself: a write, random
 *   or direct I/O, an engine other than read()) or after (0). */
typedef struct {
  const char *name;
  FioType type;
  const char *neutral;
  const char *why;
  int kind;
} FioRule;

#define ANY NULL
#define NO_VALUE "" /* neutral: none (every value refused) */
static const FioRule rules[] = {
  /* handled in eval_option(), listed for their type */
  {"numjobs", FIO_T_ANY, ANY, NULL, 0}, {"bs", FIO_T_ANY, ANY, NULL, 0}, {"size", FIO_T_ANY, ANY, NULL, 0},
  {"filesize", FIO_T_ANY, ANY, NULL, 0}, {"io_size", FIO_T_ANY, ANY, NULL, 0},
  {"fadvise_hint", FIO_T_ANY, ANY, NULL, 0}, {"kb_base", FIO_T_ANY, ANY, NULL, 0}, {"rw", FIO_T_ANY, ANY, NULL, 1},
  {"ioengine", FIO_T_ANY, ANY, NULL, 1}, {"offset", FIO_T_ANY, ANY, NULL, 0}, {"stonewall", FIO_T_SET, ANY, NULL, 0},
  {"wait_for", FIO_T_ANY, ANY, NULL, 0},
  {"filename", FIO_T_ANY, ANY, NULL, 0}, {"directory", FIO_T_ANY, ANY, NULL, 0},
  {"loops", FIO_T_INT, ANY, NULL, 0}, {"time_based", FIO_T_SET, ANY, NULL, 0}, {"runtime", FIO_T_ANY, ANY, NULL, 0},
  /* the kind of I/O */
  {"direct", FIO_T_BOOL, "0", "direct I/O bypasses the page cache it models", 1},
  {"buffered", FIO_T_BOOL, "1", "unbuffered (direct) I/O bypasses the page cache it models", 1},
  {"atomic", FIO_T_BOOL, "0", "atomic writes are direct I/O", 1},
  /* options that change a buffered sequential read */
  {"invalidate", FIO_T_BOOL, "1", "it starts with an empty page cache: invalidate=1", 0},
  {"pre_read", FIO_T_BOOL, "0", "pre_read puts the file in the page cache before the job", 0},
  {"startdelay", FIO_T_ANY, "0", "clones that start later race less", 0},
  {"ramp_time", FIO_T_ANY, "0", "fio leaves the ramp out of its figures", 0},
  {"thinktime", FIO_T_ANY, "0", "pauses between reads", 0},
  {"rate", FIO_T_ANY, "0", "a rate limit", 0}, {"ratemin", FIO_T_ANY, "0", "a rate limit", 0},
  {"rate_iops", FIO_T_ANY, "0", "a rate limit", 0}, {"rate_iops_min", FIO_T_ANY, "0", "a rate limit", 0},
  {"number_ios", FIO_T_ANY, "0", "fio stops after number_ios reads", 0},
  {"nrfiles", FIO_T_INT, ANY, NULL, 0}, /* eval_option(): several files */
  {"verify", FIO_T_ANY, "0|none", "verifying costs CPU per block", 0},
  {"zonemode", FIO_T_ANY, "none", "zones skip parts of the file", 0},
  {"zonesize", FIO_T_ANY, "0", "zones skip parts of the file", 0},
  {"zoneskip", FIO_T_ANY, "0", "zones skip parts of the file", 0},
  {"lockfile", FIO_T_ANY, "none", "file locks serialise the clones", 0},
  {"cpus_allowed", FIO_T_ANY, NO_VALUE, "CPU affinity: pcsim's readers run on any of cpu.count CPUs", 0},
  {"cpumask", FIO_T_ANY, NO_VALUE, "CPU affinity: pcsim's readers run on any of cpu.count CPUs", 0},
  {"nice", FIO_T_ANY, "0", "a nice value weighs a reader's CPU share; pcsim's tasks weigh the same", 0},
  {"prio", FIO_T_ANY, NO_VALUE, "an I/O priority: pcsim's device serves requests in order", 0},
  {"prioclass", FIO_T_ANY, NO_VALUE, "an I/O priority class: pcsim's device serves requests in order", 0},
  {"bsrange", FIO_T_ANY, ANY, NULL, 0}, {"bssplit", FIO_T_ANY, ANY, NULL, 0},
  {"random_distribution", FIO_T_ANY, "random", "random I/O", 1},
  {"percentage_random", FIO_T_ANY, ANY, NULL, 1}, /* random_job(): 0 on rw=read, 100 on randread */
  /* cannot change a buffered sequential read (provenance lists them) */
  /* modelled for libaio and io_uring (engine_job()); a sync engine does one read at a time */
  {"iodepth", FIO_T_INT, ANY, NULL, 0}, {"iodepth_batch", FIO_T_INT, ANY, NULL, 0},
  {"iodepth_batch_complete_min", FIO_T_INT, ANY, NULL, 0}, {"iodepth_batch_complete_max", FIO_T_INT, ANY, NULL, 0},
  {"iodepth_low", FIO_T_INT, ANY, NULL, 0},
  /* how fio and the engines submit: what is not modelled, by name */
  {"io_submit_mode", FIO_T_ANY, "inline", "offload: fio's own worker threads submit the reads", 1},
  {"sqthread_poll", FIO_T_SET, "0", "a kernel thread polls io_uring's submission queue (SQPOLL)", 1},
  {"hipri", FIO_T_SET, "0", "polled completions (IOPOLL) are for direct I/O", 1},
  {"registerfiles", FIO_T_SET, "0", "io_uring's registered files (fixed files)", 0},
  {"fixedbufs", FIO_T_SET, "0", "io_uring's registered buffers", 0},
  {"userspace_reap", FIO_T_SET, "0", "libaio completions reaped in user space, without io_getevents()", 0},
  {"name", FIO_T_ANY, ANY, NULL, 0}, {"description", FIO_T_ANY, ANY, NULL, 0},
  {"group_reporting", FIO_T_SET, ANY, NULL, 0}, {"new_group", FIO_T_SET, ANY, NULL, 0},
  {"thread", FIO_T_SET, ANY, NULL, 0}, {"gtod_reduce", FIO_T_BOOL, ANY, NULL, 0},
  /* randread's (eval_option(): modelled for rw=randread, without effect on rw=read) */
  {"norandommap", FIO_T_SET, ANY, NULL, 0}, {"randrepeat", FIO_T_BOOL, ANY, NULL, 0},
  {"allrandrepeat", FIO_T_BOOL, ANY, NULL, 0}, {"random_generator", FIO_T_ANY, ANY, NULL, 0},
  {"randseed", FIO_T_ANY, ANY, NULL, 0}, {"fsync", FIO_T_INT, ANY, NULL, 0}, /* no writes to sync */
  {"fdatasync", FIO_T_INT, ANY, NULL, 0}, {"end_fsync", FIO_T_BOOL, ANY, NULL, 0},
  {"fsync_on_close", FIO_T_BOOL, ANY, NULL, 0}, {"do_verify", FIO_T_BOOL, ANY, NULL, 0},
  {"create_on_open", FIO_T_BOOL, ANY, NULL, 0}, {"create_serialize", FIO_T_BOOL, ANY, NULL, 0},
  {"allow_file_create", FIO_T_BOOL, ANY, NULL, 0}, {"unlink", FIO_T_BOOL, ANY, NULL, 0},
  {"unlink_each_loop", FIO_T_BOOL, ANY, NULL, 0}, {"overwrite", FIO_T_BOOL, ANY, NULL, 0},
  {"fallocate", FIO_T_ANY, ANY, NULL, 0}, {"file_service_type", FIO_T_ANY, ANY, NULL, 0}, /* eval_option() */
  {"openfiles", FIO_T_INT, ANY, NULL, 0}, {"blockalign", FIO_T_ANY, ANY, NULL, 0},
  {"exitall", FIO_T_SET, ANY, NULL, 0}, {"exit_what", FIO_T_ANY, ANY, NULL, 0},
  {"continue_on_error", FIO_T_ANY, ANY, NULL, 0}, {"ignore_error", FIO_T_ANY, ANY, NULL, 0},
  {"error_dump", FIO_T_BOOL, ANY, NULL, 0}, {"per_job_logs", FIO_T_BOOL, ANY, NULL, 0},
  {"write_bw_log", FIO_T_ANY, ANY, NULL, 0}, {"write_lat_log", FIO_T_ANY, ANY, NULL, 0},
  {"write_iops_log", FIO_T_ANY, ANY, NULL, 0}, {"write_hist_log", FIO_T_ANY, ANY, NULL, 0},
  {"log_avg_msec", FIO_T_ANY, ANY, NULL, 0}, {"log_hist_msec", FIO_T_ANY, ANY, NULL, 0},
  {"log_offset", FIO_T_ANY, ANY, NULL, 0}, {"log_prio", FIO_T_ANY, ANY, NULL, 0},
  {"log_compression", FIO_T_ANY, ANY, NULL, 0}, {"log_unix_epoch", FIO_T_ANY, ANY, NULL, 0},
  {"disable_lat", FIO_T_BOOL, ANY, NULL, 0}, {"disable_clat", FIO_T_BOOL, ANY, NULL, 0},
  {"disable_slat", FIO_T_BOOL, ANY, NULL, 0}, {"disable_bw_measurement", FIO_T_BOOL, ANY, NULL, 0},
  {"clat_percentiles", FIO_T_BOOL, ANY, NULL, 0}, {"lat_percentiles", FIO_T_BOOL, ANY, NULL, 0},
  {"slat_percentiles", FIO_T_BOOL, ANY, NULL, 0}, {"percentile_list", FIO_T_ANY, ANY, NULL, 0},
  {"significant_figures", FIO_T_ANY, ANY, NULL, 0}, {"unified_rw_reporting", FIO_T_ANY, ANY, NULL, 0},
  {"stats", FIO_T_BOOL, ANY, NULL, 0}, {"unit_base", FIO_T_ANY, ANY, NULL, 0},
  {"clocksource", FIO_T_ANY, ANY, NULL, 0}, {"mem", FIO_T_ANY, ANY, NULL, 0},
  {"scramble_buffers", FIO_T_BOOL, ANY, NULL, 0}, {"buffer_pattern", FIO_T_ANY, ANY, NULL, 0},
  {"buffer_compress_percentage", FIO_T_ANY, ANY, NULL, 0}, {"refill_buffers", FIO_T_SET, ANY, NULL, 0},
  {"zero_buffers", FIO_T_SET, ANY, NULL, 0}, {"cpus_allowed_policy", FIO_T_ANY, ANY, NULL, 0},
};
#undef ANY
#undef NO_VALUE

const char *pcs_fio_rule_name(size_t i) { return i < G_N_ELEMENTS(rules) ? rules[i].name : NULL; }

/* parse.c string_distance(): Levenshtein, as fio counts it. */
static guint distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  g_autofree guint *row = g_new(guint, lb + 1);
  for (size_t j = 0; j <= lb; j++) row[j] = (guint)j;
  for (size_t i = 1; i <= la; i++) {
    guint diag = row[0];
    row[0] = (guint)i;
    for (size_t j = 1; j <= lb; j++) {
      guint up = row[j], best = MIN(row[j] + 1, row[j - 1] + 1);
      row[j] = MIN(best, diag + (a[i - 1] != b[j - 1]));
      diag = up;
    }
  }
  return row[lb];
}

static const FioRule *rule_of(const char *key) {
  for (size_t i = 0; i < G_N_ELEMENTS(rules); i++)
    if (!strcmp(rules[i].name, key)) return &rules[i];
  return NULL;
}

/* The engines that read a file through read()/pread()/readv()/preadv(): the
 * same buffered path as sync (filemap_read()). */
static const char *const sync_engines[] = {"sync", "psync", "vsync", "pvsync", "pvsync2", NULL};
static const char *const async_engines[] = {"libaio", "io_uring", "io_uring_cmd", "posixaio", "solarisaio",
                                            "windowsaio", "libblkio", "xnvme", "spdk", NULL};

/* One option pcsim refuses, once per FILE:LINE. */
typedef struct {
  const FioOpt *opt;
  const char *why;
  int kind;
  guint more; /* other lines that set the same key */
} Refusal;

typedef struct {
  uint64_t numjobs, bs, size, filesize, io_size;
  uint64_t loops, runtime_ns; /* loops (0 reads as 1), runtime (0: none) */
  uint64_t offset;
  gboolean time_based;
  const FioOpt *time_based_opt;
  PcsFadvise fadvise;
  guint numjobs_line, bs_line, size_line, fadvise_line, loops_line, runtime_line, time_based_line, offset_line;
  /* rw=randread and its options (fio's defaults: randrepeat=1, tausworthe) */
  gboolean randread, norandommap, randrepeat, has_randseed, tausworthe64;
  uint64_t randseed;
  guint rw_line;
  const FioOpt *bs_opt, *allrandrepeat_opt, *perc_rand_opt;
  GPtrArray *rand_opts; /* norandommap, randrepeat, randseed, random_generator: accepted without effect on rw=read */
  gboolean has_size, has_filesize, has_io_size;
  /* ioengine: workload.ioengine's name (NULL: a sync engine); iodepth and
   * its batch options (fio's defaults 1, 1, 1, 0, 0), modelled for libaio
   * and io_uring, accepted without effect for a sync engine */
  const char *engine;
  guint engine_line;
  uint64_t depth[5];
  GPtrArray *depth_opts;
  gboolean named; /* the job names its file (filename=) */
  char *fname, *dir; /* filename= and directory= as given */
  char *file;        /* its files (named: the first nrfiles of filename='s list, in directory=), ':' between */
  /* several files: nrfiles (fio's nr_files as add_file() and
   * fixup_options() leave it), file_service_type, openfiles */
  uint64_t nrfiles, openfiles, names; /* names: files filename= lists (0: none) */
  gboolean nrfiles_after_names;       /* nrfiles= came after filename= (it then caps the list) */
  const FioOpt *nrfiles_opt, *fst_opt, *filesize_opt, *size_opt, *io_size_opt, *filename_opt, *openfiles_opt;
  char *fst;
  guint nrfiles_line;
  /* barriers and groups: stonewall (wait for every job before it),
   * wait_for (the job it names), new_group */
  gboolean stonewall, new_group;
  const FioOpt *wait_for_opt;
} Eval;

/* The line of O when it is in the job file itself (not an include). */
static guint own_line(const FioOpt *o, const char *path) {
  return strcmp(o->file, path) == 0 ? o->line : 0;
}

static const FioOpt *last_opt(GPtrArray *opts, const char *key) {
  for (guint i = opts->len; i-- > 0;) {
    FioOpt *o = g_ptr_array_index(opts, i);
    if (!strcmp(canonical(o->key), key)) return o;
  }
  return NULL;
}

/* Notes O as not modelled; several are reported at once (report_refusals()). */
static void refuse(GArray *refused, const FioOpt *o, int kind, const char *why) {
  for (guint i = 0; i < refused->len; i++) {
    Refusal *r = &g_array_index(refused, Refusal, i);
    if (r->opt == o) return; /* a [global] option seen again by a later job */
    if (!strcmp(canonical(r->opt->key), canonical(o->key))) {
      r->more++;
      return;
    }
  }
  Refusal r = {o, why, kind, 0};
  g_array_append_val(refused, r);
}

static void append_refusal(GString *s, const Refusal *r, const FioOpt *first) {
  const FioOpt *o = r->opt;
  g_string_append_printf(s, o->value ? "'%s=%s'" : "'%s'", o->key, o->value);
  GString *at = g_string_new(NULL);
  if (o != first) {
    if (strcmp(o->file, first->file)) g_string_append_printf(at, "%s:%u", o->file, o->line);
    else g_string_append_printf(at, "line %u", o->line);
  }
  if (r->more) g_string_append_printf(at, "%sand %u more line%s", at->len ? ", " : "", r->more, r->more > 1 ? "s" : "");
  if (r->why && *r->why) g_string_append_printf(at, "%s%s", at->len ? ": " : "", r->why);
  if (at->len) g_string_append_printf(s, " (%s)", at->str);
  g_string_free(at, TRUE);
}

/* All refused options at once, the kind of I/O (write, random, direct,
 * engine) first: one run tells the user everything to change. */
static gboolean report_refusals(GArray *refused, GError **error) {
  if (!refused->len) return TRUE;
  g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(Refusal));
  for (int kind = 1; kind >= 0; kind--)
    for (guint i = 0; i < refused->len; i++)
      if (g_array_index(refused, Refusal, i).kind == kind) g_array_append_val(order, g_array_index(refused, Refusal, i));
  const Refusal *first = &g_array_index(order, Refusal, 0);
  GString *s = g_string_new(NULL);
  if (order->len == 1) {
    const FioOpt *o = first->opt;
    g_string_append_printf(s, o->value ? "fio option '%s=%s' is not modelled by pcsim" : "fio option '%s' is not modelled by pcsim",
                           o->key, o->value);
    if (first->more) g_string_append_printf(s, " (and %u more line%s)", first->more, first->more > 1 ? "s" : "");
    if (first->why && *first->why) g_string_append_printf(s, " (%s)", first->why);
  } else {
    g_string_append(s, "fio options not modelled by pcsim: ");
    for (guint i = 0; i < order->len; i++) {
      if (i) g_string_append(s, i + 1 == order->len ? " and " : ", ");
      append_refusal(s, &g_array_index(order, Refusal, i), first->opt);
    }
  }
  pcs_input_error(error, first->opt->file, first->opt->line, "%s", s->str);
  g_string_free(s, TRUE);
  return FALSE;
}

/* ---- values, as fio's parse.c reads them ---- */

/* check_int() and the FIO_OPT_BOOL range: fio's own words on failure. */
static gboolean int_value(const FioOpt *o, FioType type, uint64_t *out, GError **error) {
  if (!o->value) {
    if (type == FIO_T_SET) return *out = 1, TRUE;
    return pcs_input_error(error, o->file, o->line, "fio option %s: expected %s=0 or %s=1 (fio: Option %s requires an argument)",
                           o->key, o->key, o->key, o->key);
  }
  const char *v = o->value;
  g_autofree char *digits = g_strndup(v, strspn(v, "0123456789")); /* sscanf("%u") reads the digits */
  if (!*digits || !pcs_parse_u64(digits, out))
    return pcs_input_error(error, o->file, o->line, "fio option %s = '%s': expected %s (fio: failed parsing %s=%s)",
                           o->key, v, type == FIO_T_BOOL ? "0 or 1" : "an integer", o->key, v);
  if (type == FIO_T_BOOL && *out > 1)
    return pcs_input_error(error, o->file, o->line,
                           "fio option %s = '%s': expected 0 or 1 (fio: max value out of range: %s (1 max); failed parsing %s=%s)",
                           o->key, v, v, o->key, v);
  return TRUE;
}

/* A value in NEUTRAL ('|'-separated), as fio reads it. */
static gboolean is_neutral(const FioRule *r, const FioOpt *o, uint64_t n) {
  if (!r->neutral) return TRUE;
  if (r->type != FIO_T_ANY) return n == g_ascii_strtoull(r->neutral, NULL, 10);
  g_auto(GStrv) vals = g_strsplit(r->neutral, "|", -1);
  for (char **v = vals; *v; v++)
    if (!g_strcmp0(o->value, *v)) return TRUE;
  uint64_t zero = 1; /* "0s", "0k", "0%": fio reads 0 */
  if (!strcmp(r->neutral, "0") && o->value && g_ascii_isdigit(*o->value) &&
      g_ascii_strtoull(o->value, NULL, 10) == 0) zero = 0;
  return zero == 0;
}

/* A size; one fio reads but pcsim cannot (a share of the device or file,
 * zones, arithmetic) is noted as not modelled and *GOT stays FALSE. */
static gboolean size_value(const FioOpt *o, unsigned kb_base, uint64_t *out, gboolean *got, GArray *refused,
                           GError **error) {
  const char *v = o->value ? o->value : "";
  g_autofree char *first = g_strndup(v, strcspn(v, ","));
  *got = FALSE;
  if (strchr(first, '%')) return refuse(refused, o, 0, "a share of the device or file: give the size, such as 2000M"), TRUE;
  if (pcs_fio_size(first, kb_base, out)) return *got = TRUE;
  if (*first == '(' || strchr(first, '$') || strchr(first, '*'))
    return refuse(refused, o, 0, "an expression: give the size, such as 2000M"), TRUE;
  if (g_ascii_isdigit(*first) && g_ascii_tolower(first[strspn(first, "0123456789")]) == 'z')
    return refuse(refused, o, 0, "a number of zones: give the size, such as 2000M"), TRUE;
  return pcs_input_error(error, o->file, o->line,
                         "fio option %s = '%s': expected a size such as 32k, 2000M or 1GiB (fio reads the digits and "
                         "ignores a suffix it does not know)", o->key, v);
}

/* fadvise_hint as fio's parser takes it; "random" is FMODE_RANDOM
 * (readahead.c: a miss reads exactly the request). */
static gboolean fadvise_value(const FioOpt *o, Eval *e, PcsFioJob *job, GArray *refused, GError **error) {
  e->fadvise_line = own_line(o, job->path);
  if (!o->value || !pcs_params_fadvise_parse(o->value, &e->fadvise)) {
    g_autofree char *names = pcs_params_fadvise_names();
    return pcs_input_error(error, o->file, o->line,
                           "fio option fadvise_hint = '%s': expected %s (fio: failed parsing fadvise_hint%s%s)",
                           o->value ? o->value : "", names, o->value ? "=" : "", o->value ? o->value : "");
  }
  return TRUE;
}

/* rw=read (fio's default) and rw=randread are modelled; "read:-8k" skips,
 * "randread:8" reads 8 blocks in sequence after each random one. */
static void rw_value(const FioOpt *o, Eval *e, GArray *refused) {
  const char *v = o->value ? o->value : "";
  e->randread = FALSE;
  if (!strcmp(v, "read") || !strcmp(v, "read:0")) return;
  if (!strcmp(v, "randread") || !strcmp(v, "randread:0") || !strcmp(v, "randread:1")) {
    e->randread = TRUE;
    return;
  }
  if (g_str_has_prefix(v, "randread:"))
    return refuse(refused, o, 1, "runs of sequential reads between random ones: it models rw=randread");
  if (g_str_has_prefix(v, "read:"))
    return refuse(refused, o, 1, "reads that skip are not sequential: it models rw=read");
  if (strstr(v, "write") || strstr(v, "trim") || !strcmp(v, "rw") || !strcmp(v, "randrw") || g_str_has_prefix(v, "rw:"))
    return refuse(refused, o, 1, "a write: it models reads, rw=read and rw=randread");
  refuse(refused, o, 1, "it models rw=read and rw=randread");
}

static void engine_value(const FioOpt *o, Eval *e, GArray *refused) {
  const char *v = o->value ? o->value : "";
  e->engine = NULL;
  if (in_list(sync_engines, v)) return;
  if (!strcmp(v, "libaio") || !strcmp(v, "io_uring")) { /* buffered (direct=0): engine.c */
    e->engine = !strcmp(v, "libaio") ? "libaio" : "io_uring";
    return;
  }
  if (in_list(async_engines, v))
    return refuse(refused, o, 1, "an async engine: it models read() (ioengine=sync, psync, vsync, pvsync, pvsync2), "
                                 "libaio and io_uring");
  refuse(refused, o, 1, "an engine other than read(): it models ioengine=sync, psync, vsync, pvsync, pvsync2, libaio "
                        "and io_uring");
}

/* runtime as fio's parse.c reads a FIO_OPT_STR_VAL_TIME with is_seconds
 * (check_str_time(), str_to_decimal(), get_mult_time()): the value up to a
 * ',', strtoll() (base 16 when it holds "0x"), then the suffix after the
 * digits: none (or no letter) seconds, "us"/"usec" microseconds, "ms"/"msec"
 * milliseconds, exactly "s", "m", "h" or "d"; any other letters count as
 * microseconds, as fio counts them ("10sec" is 10 us in fio too).  Into
 * *NS; FALSE with an error naming the option when fio would fail to parse
 * it, or for a negative time (fio keeps it as a huge unsigned runtime). */
static gboolean runtime_value(const FioOpt *o, uint64_t *ns, GArray *refused, gboolean *got, GError **error) {
  *got = FALSE;
  if (!o->value)
    return pcs_input_error(error, o->file, o->line, "fio option %s: expected a time such as 10, 10s or 500ms (fio: "
                           "Option %s requires an argument)", o->key, o->key);
  g_autofree char *v = g_strndup(o->value, strcspn(o->value, ","));
  if (*v == '(') return refuse(refused, o, 0, "an expression: give the time, such as 10s"), TRUE;
  char *end;
  gint64 n = g_ascii_strtoll(v, &end, strstr(v, "0x") || strstr(v, "0X") ? 16 : 10);
  if (end == v || n < 0) {
    g_autofree char *fio = end == v ? g_strdup_printf(" (fio: failed parsing %s=%s)", o->key, o->value) : g_strdup("");
    return pcs_input_error(error, o->file, o->line, "fio option %s = '%s': expected a time such as 10 (seconds), 10s, "
                           "500ms or 2m%s", o->key, o->value, fio);
  }
  const char *p = v;
  while (g_ascii_isdigit(*p) || *p == '+' || *p == '-') p++;
  uint64_t mult = 1; /* microseconds per unit */
  if (!g_ascii_isalpha(*p)) mult = 1000000;
  else {
    g_autofree char *u = g_ascii_strdown(p, -1);
    if (g_str_has_prefix(u, "us")) mult = 1;
    else if (g_str_has_prefix(u, "ms")) mult = 1000;
    else if (!strcmp(u, "s")) mult = 1000000;
    else if (!strcmp(u, "m")) mult = UINT64_C(60) * 1000000;
    else if (!strcmp(u, "h")) mult = UINT64_C(3600) * 1000000;
    else if (!strcmp(u, "d")) mult = UINT64_C(86400) * 1000000;
  }
  const PcsParamInfo *rt = pcs_params_find("workload", "runtime");
  if ((uint64_t)n > rt->hi / PCS_NS_PER_US / mult)
    return pcs_input_error(error, o->file, o->line, "fio option %s = '%s': longer than pcsim simulates (at most %" G_GUINT64_FORMAT " s)",
                           o->key, o->value, rt->hi / (uint64_t)PCS_NS_PER_S);
  *ns = (uint64_t)n * mult * PCS_NS_PER_US;
  *got = TRUE;
  return TRUE;
}

/* filename=a:b:c (str_filename_cb(), get_next_str()): the files every
 * clone reads, shared; fio's nr_files becomes their count (a nrfiles=
 * before it is dropped, one after it caps the list: add_file(),
 * fixup_options()).  FALSE: refused (a name twice). */
static gboolean filename_list(const FioOpt *o, Eval *e, GArray *refused) {
  g_auto(GStrv) names = g_strsplit(o->value ? o->value : "", ":", -1);
  guint n = 0;
  for (guint i = 0; names[i] && *names[i]; i++, n++)
    for (guint j = 0; j < i; j++)
      if (!strcmp(names[i], names[j]))
        return refuse(refused, o, 0, "a file named twice: fio opens it twice, as two files of one job"), FALSE;
  e->names = n; /* "a:" ends the list at the empty name, as fio's loop does */
  e->filename_opt = o;
  if (!e->nrfiles_opt || !e->nrfiles_after_names) e->nrfiles = MAX(n, 1);
  return TRUE;
}

/* file_service_type (options.c str_fst_cb()): roundrobin (fio's default),
 * sequential and random, each with fio's ":N" (file_service_nr), are
 * modelled; fio's non-uniform choices are refused by name. */
static gboolean fst_value(const FioOpt *o, Eval *e, GArray *refused, GError **error) {
  const char *v = o->value ? o->value : "";
  PcsFileService type;
  uint32_t nr;
  e->fst_opt = o;
  if (pcs_params_file_service_parse(v, &type, &nr)) {
    g_free(e->fst);
    e->fst = g_strdup(v);
    return TRUE;
  }
  static const char *const nonuniform[] = {"zipf", "pareto", "normal", "gauss"};
  for (size_t i = 0; i < G_N_ELEMENTS(nonuniform); i++)
    if (g_str_has_prefix(v, nonuniform[i]))
      return refuse(refused, o, 0, "a non-uniform choice of file: it models roundrobin, sequential and random"), TRUE;
  if (g_str_has_prefix(v, "roundrobin:") || g_str_has_prefix(v, "sequential:") || g_str_has_prefix(v, "random:"))
    return refuse(refused, o, 0, "its :N must be a number of read() calls from 1 (fio's file_service_nr)"), TRUE;
  return pcs_input_error(error, o->file, o->line, "fio option file_service_type = '%s': expected roundrobin, sequential, "
                         "random, zipf, pareto, normal or gauss (fio: failed parsing file_service_type=%s)", v, v);
}

/* fio's "Bad option": not one of its options; its nearest, by its own
 * rule (options.c show_closest_option(), parse.c string_distance_ok()). */
static gboolean bad_option(const FioOpt *o, GError **error) {
  const char *best = NULL;
  guint best_d = G_MAXUINT;
  for (const char *const *n = fio_core_names; *n; n++) {
    guint d = distance(o->key, *n);
    if (d < best_d) best_d = d, best = *n;
  }
  g_autofree char *given = o->value ? g_strdup_printf("%s=%s", o->key, o->value) : g_strdup(o->key);
  if (best && best_d <= (strlen(o->key) + 1) / 2)
    return pcs_input_error(error, o->file, o->line, "%s: not a fio option (fio: Bad option <%s>; did you mean %s?)",
                           o->key, given, best);
  return pcs_input_error(error, o->file, o->line, "%s: not a fio option (fio: Bad option <%s>)", o->key, given);
}

/* norandommap, randrepeat, randseed, random_generator as fio parses them
 * (options.c); modelled for rw=randread (fiorand.c), accepted without
 * effect on rw=read (eval_job()).  random_generator=lfsr is refused by
 * name, and so is allrandrepeat=1 (it reseeds the block stream as neither
 * randrepeat nor randseed does). */
static void accept(PcsFioJob *job, const FioOpt *o);

static gboolean random_value(const FioOpt *o, const char *k, uint64_t n, unsigned kb_base, Eval *e, PcsFioJob *job,
                             GArray *refused, GError **error) {
  const char *v = o->value ? o->value : "";
  if (!strcmp(k, "norandommap")) e->norandommap = n != 0;
  else if (!strcmp(k, "randrepeat")) e->randrepeat = n != 0;
  else if (!strcmp(k, "allrandrepeat")) {
    e->allrandrepeat_opt = n ? o : NULL;
  } else if (!strcmp(k, "randseed")) {
    if (!o->value || !pcs_fio_size(v, kb_base, &e->randseed))
      return pcs_input_error(error, o->file, o->line, "fio option randseed = '%s': expected an integer (fio: failed "
                             "parsing randseed=%s)", v, v);
    e->has_randseed = TRUE;
  } else if (!strcmp(v, "tausworthe") || !strcmp(v, "tausworthe64")) {
    e->tausworthe64 = !strcmp(v, "tausworthe64");
  } else if (!strcmp(v, "lfsr")) {
    refuse(refused, o, 0, "fio's LFSR generator is not modelled: tausworthe (fio's default) and tausworthe64 are");
    return TRUE;
  } else {
    return pcs_input_error(error, o->file, o->line, "fio option random_generator = '%s': expected tausworthe, lfsr "
                           "or tausworthe64 (fio: failed parsing random_generator=%s)", v, v);
  }
  g_ptr_array_add(e->rand_opts, (gpointer)o);
  accept(job, o); /* in file order; random_job() takes it back on rw=randread */
  return TRUE;
}

static void accept(PcsFioJob *job, const FioOpt *o) {
  g_autofree char *s = o->value ? g_strdup_printf("%s=%s", o->key, o->value) : g_strdup(o->key);
  for (guint i = 0; i < job->accepted->len; i++)
    if (!strcmp(g_ptr_array_index(job->accepted, i), s)) return;
  g_ptr_array_add(job->accepted, g_steal_pointer(&s));
}

/* iodepth and its batch options, in workload's order (PcsFioJob.depth). */
static const char *const depth_keys[] = {"iodepth", "iodepth_batch", "iodepth_batch_complete_min",
                                         "iodepth_batch_complete_max", "iodepth_low"};

/* fio's iodepth has minval 1; the others take 0 (fixup_options() reads it). */
static gboolean depth_value(const FioOpt *o, guint d, uint64_t n, Eval *e, GError **error) {
  const PcsParamInfo *info = pcs_params_find("workload", depth_keys[d]);
  if (n < info->lo || n > info->hi)
    return pcs_input_error(error, o->file, o->line, "fio option %s = '%s': expected an integer from %" G_GUINT64_FORMAT
                           " to %" G_GUINT64_FORMAT "%s", o->key, o->value, info->lo, info->hi,
                           d == 0 && !n ? " (fio: min value out of range)" : "");
  e->depth[d] = n;
  g_ptr_array_add(e->depth_opts, (gpointer)o);
  return TRUE;
}

static gboolean eval_option(const FioOpt *o, unsigned kb_base, guint njob, Eval *e, PcsFioJob *job, GArray *refused,
                            GError **error) {
  const char *k = canonical(o->key), *v = o->value ? o->value : "";
  const FioRule *rule = rule_of(k);
  if (!rule) {
    if (!in_list(fio_core_names, k) && !in_list(fio_engine_names, k)) return bad_option(o, error);
    refuse(refused, o, 0, "");
    return TRUE;
  }
  uint64_t n = 0;
  if (rule->type != FIO_T_ANY && !int_value(o, rule->type, &n, error)) return FALSE;
  if (!strcmp(k, "numjobs")) {
    e->numjobs_line = own_line(o, job->path);
    if (strchr(v, '$') || *v == '(') /* fio's $ncpus, arithmetic: depend on the machine */
      return refuse(refused, o, 0, "an expression: give the number of clones"), TRUE;
    const PcsParamInfo *threads = pcs_params_find("workload", "threads"); /* numjobs is workload.threads */
    if (!pcs_parse_u64(v, &e->numjobs) || e->numjobs < threads->lo || e->numjobs > threads->hi)
      return pcs_input_error(error, o->file, o->line,
                             "fio option numjobs = '%s': expected an integer from %" G_GUINT64_FORMAT
                             " to %" G_GUINT64_FORMAT, v, threads->lo, threads->hi);
    return TRUE;
  }
  if (!strcmp(k, "bs")) {
    e->bs_line = own_line(o, job->path);
    e->bs_opt = o;
    gboolean got;
    if (!size_value(o, kb_base, &e->bs, &got, refused, error)) return FALSE;
    if (got && !e->bs) /* fio's minval = 1; eval_job() divides by it */
      return pcs_input_error(error, o->file, o->line,
                             "fio option bs = '%s': expected a block size of at least a page, 4k (fio: min value out "
                             "of range: 0 (1 min))", v);
    return TRUE;
  }
  if (!strcmp(k, "size")) {
    e->size_line = own_line(o, job->path);
    e->size_opt = o;
    return size_value(o, kb_base, &e->size, &e->has_size, refused, error);
  }
  if (!strcmp(k, "filesize")) {
    e->filesize_opt = o;
    if (strchr(v, '-') || strchr(v, ':'))
      return refuse(refused, o, 0, "a filesize range: fio draws each file's size in it (get_rand_file_size()); give one size"), TRUE;
    return size_value(o, kb_base, &e->filesize, &e->has_filesize, refused, error);
  }
  if (!strcmp(k, "nrfiles")) {
    const PcsParamInfo *nr = pcs_params_find("workload", "nrfiles");
    if (n < nr->lo || n > nr->hi)
      return pcs_input_error(error, o->file, o->line, "fio option nrfiles = '%s': expected an integer from %" G_GUINT64_FORMAT
                             " to %" G_GUINT64_FORMAT, v, nr->lo, nr->hi);
    e->nrfiles = n, e->nrfiles_opt = o, e->nrfiles_after_names = e->names > 0;
    e->nrfiles_line = own_line(o, job->path);
    return TRUE;
  }
  if (!strcmp(k, "openfiles")) {
    e->openfiles_opt = o;
    e->openfiles = MIN(n, pcs_params_find("workload", "openfiles")->hi);
    return TRUE;
  }
  if (!strcmp(k, "file_service_type")) return fst_value(o, e, refused, error);
  if (!strcmp(k, "io_size")) {
    e->io_size_opt = o;
    return size_value(o, kb_base, &e->io_size, &e->has_io_size, refused, error);
  }
  if (!strcmp(k, "fadvise_hint")) return fadvise_value(o, e, job, refused, error);
  if (!strcmp(k, "kb_base")) return accept(job, o), TRUE;
  if (!strcmp(k, "rw")) return e->rw_line = own_line(o, job->path), rw_value(o, e, refused), TRUE;
  if (!strcmp(k, "percentage_random")) return e->perc_rand_opt = o, TRUE;
  if (!strcmp(k, "norandommap") || !strcmp(k, "randrepeat") || !strcmp(k, "randseed") ||
      !strcmp(k, "random_generator") || !strcmp(k, "allrandrepeat"))
    return random_value(o, k, n, kb_base, e, job, refused, error);
  if (!strcmp(k, "ioengine")) return e->engine_line = own_line(o, job->path), engine_value(o, e, refused), TRUE;
  for (guint d = 0; d < G_N_ELEMENTS(depth_keys); d++)
    if (!strcmp(k, depth_keys[d])) return depth_value(o, d, n, e, error);
  if (!strcmp(k, "bsrange") || !strcmp(k, "bssplit")) return refuse(refused, o, 0, "reads of mixed sizes"), TRUE;
  if (!strcmp(k, "offset")) { /* filesetup.c: each clone reads size bytes from it, of a file of offset + size */
    e->offset_line = own_line(o, job->path);
    e->offset = 0;
    if (!strcmp(v, "0%")) return accept(job, o), TRUE;
    gboolean got;
    if (!size_value(o, kb_base, &e->offset, &got, refused, error)) return FALSE;
    if (got && e->offset % PCS_PAGE_SIZE)
      refuse(refused, o, 0, "an offset inside a page: give a multiple of 4k");
    if (got && !e->offset) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "loops")) { /* keep_running(): loops=0 runs once, as loops=1 */
    const PcsParamInfo *loops = pcs_params_find("workload", "loops");
    if (n > loops->hi)
      return pcs_input_error(error, o->file, o->line, "fio option loops = '%s': pcsim runs at most %" G_GUINT64_FORMAT
                             " loops", v, loops->hi);
    e->loops = MAX(n, 1);
    e->loops_line = own_line(o, job->path);
    if (e->loops == 1) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "time_based")) {
    e->time_based = n != 0;
    e->time_based_opt = o;
    e->time_based_line = own_line(o, job->path);
    if (!n) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "runtime")) {
    gboolean got;
    if (!runtime_value(o, &e->runtime_ns, refused, &got, error)) return FALSE;
    e->runtime_line = own_line(o, job->path);
    if (got && !e->runtime_ns) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "stonewall")) { /* waits for the jobs before it (resolve()): nothing for the first */
    e->stonewall = n && njob > 0;
    if (!e->stonewall) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "new_group")) { /* a new reporting group (resolve()): nothing for the first */
    e->new_group = n && njob > 0;
    if (!e->new_group) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "wait_for")) { /* waits for the job it names (resolve()) */
    e->wait_for_opt = o->value && *o->value ? o : NULL;
    if (!e->wait_for_opt) accept(job, o);
    return TRUE;
  }
  if (!strcmp(k, "group_reporting")) job->group_reporting = TRUE;
  if (!strcmp(k, "filename")) {
    if (!filename_list(o, e, refused)) return TRUE;
    g_free(e->fname), e->fname = g_strdup(v), e->named = TRUE;
  }
  if (!strcmp(k, "directory")) g_free(e->dir), e->dir = g_strdup(v);
  if (!is_neutral(rule, o, n)) return refuse(refused, o, rule->kind, rule->why), TRUE;
  accept(job, o);
  return TRUE;
}

/* After a job's options: randread's options modelled, or, on rw=read,
 * accepted without effect; a randread block must be whole pages. */
static gboolean random_job(Eval *e, PcsFioJob *job, GArray *refused) {
  if (e->perc_rand_opt) { /* fio: the share of random I/Os of a random job (100); a sequential job never asks */
    const FioOpt *o = e->perc_rand_opt;
    g_autofree char *first = g_strndup(o->value ? o->value : "", strcspn(o->value ? o->value : "", ","));
    uint64_t v = g_ascii_strtoull(first, NULL, 10);
    if (!*first || !g_ascii_isdigit(*first) || v != (e->randread ? 100 : 0))
      refuse(refused, o, 1, e->randread ? "a mix of random and sequential reads: it models percentage_random=100"
                                        : "random I/O in a sequential job: give rw=randread");
    else accept(job, o);
  }
  if (!e->randread) return TRUE;
  for (guint i = 0; i < e->rand_opts->len; i++) { /* modelled: not "accepted without effect" */
    const FioOpt *o = g_ptr_array_index(e->rand_opts, i);
    g_autofree char *text = o->value ? g_strdup_printf("%s=%s", o->key, o->value) : g_strdup(o->key);
    for (guint k = 0; k < job->accepted->len; k++)
      if (!strcmp(g_ptr_array_index(job->accepted, k), text)) g_ptr_array_remove_index(job->accepted, k--);
  }
  if (e->allrandrepeat_opt)
    refuse(refused, e->allrandrepeat_opt, 0, "it reseeds fio's block stream: randrepeat and randseed are modelled");
  if (e->bs % PCS_PAGE_SIZE)
    refuse(refused, e->bs_opt, 0, "a random block inside pages: rw=randread takes bs a multiple of 4k");
  return TRUE;
}

/* Several files (nrfiles > 1), as fio 3.33's setup_files() sizes them:
 * with filesize= each file is that size, and size= (the clone's I/O over
 * all its files) above nrfiles x filesize is cut to it; without it each
 * file is size / nrfiles.  E->size becomes one file's size.  Refused by
 * name: a size= below nrfiles x filesize (fio stops part way through its
 * files: do_io()'s bytes_issued), a remainder of a block or more (fio
 * makes the first files a block larger), io_size other than the total. */
static void files_sizes(Eval *e, GArray *refused) {
  uint64_t n = e->nrfiles;
  if (!e->has_size && !e->has_filesize && e->has_io_size) e->size = e->io_size, e->has_size = TRUE;
  if (e->has_filesize) {
    if (e->has_size && e->size < e->filesize * n)
      refuse(refused, e->size_opt, 0, "size below nrfiles x filesize: fio stops part way through the files");
    e->size = e->filesize, e->has_size = TRUE;
  } else if (e->has_size) {
    uint64_t fs = e->size / n;
    if (e->size - fs * n >= e->bs)
      refuse(refused, e->size_opt, 0, "size not a multiple of nrfiles blocks: fio makes the first files a block larger");
    e->size = fs;
  }
  if (e->has_io_size && e->has_size && e->io_size != e->size * n)
    refuse(refused, e->io_size_opt, 0, "io_size other than nrfiles x the file's size");
}

/* What several files cannot be combined with (refused by name), and the
 * file options that do nothing with one file (accepted). */
static void files_job(Eval *e, PcsFioJob *job, GArray *refused) {
  const FioOpt *nr = e->nrfiles_opt;
  if (e->names && nr && g_ascii_strtoull(nr->value ? nr->value : "1", NULL, 10) > e->names)
    g_ptr_array_add(job->notes, g_strdup_printf("%s:%u: nrfiles=%s with filename= naming %" G_GUINT64_FORMAT
                                                " file(s): fio reads those, silently (init.c fixup_options() caps nr_files)",
                                                nr->file, nr->line, nr->value ? nr->value : "", e->names));
  if (e->nrfiles == 1) {
    if (e->fst_opt && e->fst) accept(job, e->fst_opt);
    if (e->openfiles_opt) accept(job, e->openfiles_opt);
    if (e->nrfiles_opt) accept(job, e->nrfiles_opt); /* nrfiles=1, or capped to filename='s one file */
    return;
  }
  const FioOpt *o = e->nrfiles_opt && (!e->names || e->nrfiles_after_names) ? e->nrfiles_opt : e->filename_opt;
  if (e->randread) refuse(refused, o, 1, "random reads over several files (fio's random map per file) are not modelled");
  if (e->loops > 1) refuse(refused, o, 0, "loops over several files are not modelled (clear_io_state() reopens them all)");
  if (e->time_based) refuse(refused, o, 0, "time_based over several files is not modelled (fio wraps one file only)");
  PcsFileService type;
  uint32_t service_nr;
  if (e->fst && pcs_params_file_service_parse(e->fst, &type, &service_nr) && type == PCS_FSERVICE_RANDOM && e->has_randseed &&
      e->randrepeat)
    refuse(refused, e->fst_opt, 0, "with randseed and randrepeat=1 the file stream's seed is not modelled: "
                                   "give randrepeat=0, or no randseed");
}

/* The files a job names, as one text ("dir/a:dir/b"): the first nrfiles
 * of filename='s list (fio reads those: fixup_options()), each in
 * directory= when it is given (fio's set_name_idx()). */
static char *file_names(const Eval *e) {
  g_auto(GStrv) names = g_strsplit(e->fname, ":", -1);
  GString *out = g_string_new(NULL);
  for (guint i = 0; names[i] && *names[i] && i < e->nrfiles; i++) {
    g_autofree char *path = e->dir ? g_build_filename(e->dir, names[i], NULL) : g_strdup(names[i]);
    g_string_append_printf(out, "%s%s", i ? ":" : "", path);
  }
  return g_string_free(out, FALSE);
}

/* One job: the globals before it, then its own options; later ones win. */
static gboolean eval_job(GPtrArray *globals, FioSection *s, guint njob, Eval *e, PcsFioJob *job, GArray *refused,
                         GError **error) {
  g_autoptr(GPtrArray) all = g_ptr_array_new();
  for (guint i = 0; i < globals->len; i++) g_ptr_array_add(all, g_ptr_array_index(globals, i));
  for (guint i = 0; i < s->opts->len; i++) g_ptr_array_add(all, g_ptr_array_index(s->opts, i));
  unsigned kb_base = 1024;
  *e = (Eval){.numjobs = 1, .bs = FIO_DEFAULT_BS, .fadvise = FIO_DEFAULT_FADVISE, .loops = 1, .randrepeat = TRUE,
              .rand_opts = g_ptr_array_new(), .nrfiles = 1, .depth = {1, 1, 1, 0, 0},
              .depth_opts = g_ptr_array_new()};
  const FioOpt *kb = last_opt(all, "kb_base");
  if (kb) {
    if (!kb->value || (strcmp(kb->value, "1024") && strcmp(kb->value, "1000")))
      return pcs_input_error(error, kb->file, kb->line, "fio option kb_base = '%s': expected 1024 or 1000",
                             kb->value ? kb->value : "");
    kb_base = (unsigned)atoi(kb->value);
  }
  for (guint i = 0; i < all->len; i++)
    if (!eval_option(g_ptr_array_index(all, i), kb_base, njob, e, job, refused, error)) return FALSE;
  /* fio: size is the I/O per clone, filesize the file's; io_size caps it */
  if (e->names && e->nrfiles > e->names) e->nrfiles = e->names; /* init.c fixup_options() */
  if (e->nrfiles > 1) files_sizes(e, refused);
  else {
    if (!e->has_size && e->has_filesize) e->size = e->filesize, e->has_size = TRUE;
    if (e->has_io_size && e->has_size && e->io_size != e->size)
      refuse(refused, last_opt(all, "io_size"), 0, "io_size other than the file's size");
    if (!e->has_size && e->has_io_size) e->size = e->io_size, e->has_size = TRUE;
    if (e->has_filesize && e->filesize != e->size)
      refuse(refused, last_opt(all, "filesize"), 0, "a file larger than the I/O");
  }
  if (!e->has_size && !refused->len) /* else the refusals say more */
    return pcs_input_error(error, s->file, s->line,
                           "job '%s' has no size= (fio takes an existing file's size; pcsim needs size=)", s->name);
  if (e->time_based && !e->runtime_ns) { /* init.c fixup_options(): fio says so, and runs without it */
    const FioOpt *o = e->time_based_opt;
    g_ptr_array_add(job->notes, g_strdup_printf("%s:%u: time_based without runtime: fio ignores it (fio: time_based "
                                                "requires a runtime/timeout setting)", o->file, o->line));
    e->time_based = FALSE;
    accept(job, o);
  }
  if (!random_job(e, job, refused)) return FALSE;
  files_job(e, job, refused);
  for (guint i = 0; !e->engine && i < e->depth_opts->len; i++) accept(job, g_ptr_array_index(e->depth_opts, i));
  if (e->named) e->file = file_names(e); /* else fio names a clone's own file jobname.N.0 */
  if (e->size >= e->bs) e->size = e->size / e->bs * e->bs; /* fio reads whole blocks up to the size */
  return TRUE;
}

/* OPTS (FioOpt *) with a value as key, value, ... NULL; a repeated key keeps its place and takes the last value. */
static char **options_text(GPtrArray *opts) {
  g_autoptr(GPtrArray) kv = g_ptr_array_new();
  for (guint i = 0; i < opts->len; i++) {
    const FioOpt *o = g_ptr_array_index(opts, i);
    if (!o->value) continue;
    guint k = 0;
    while (k < kv->len && strcmp(g_ptr_array_index(kv, k), o->key)) k += 2;
    if (k == kv->len) g_ptr_array_add(kv, o->key), g_ptr_array_add(kv, o->value);
    else kv->pdata[k + 1] = o->value;
  }
  g_ptr_array_add(kv, NULL);
  return g_strdupv((char **)kv->pdata);
}

/* fio 3.33's seeds (init.c) as workload.random_seed takes them:
 * setup_random_seeds() runs before fixup_options() lets randseed clear
 * randrepeat, so randseed alone seeds the blocks as randrepeat=1 does,
 * without reseeding at a loop; only with randrepeat=0 does randseed seed
 * them (fio's write_iolog shows it). */
static char *seed_text(const Eval *e) {
  if (e->has_randseed)
    return e->randrepeat ? g_strdup("fio-noreseed") : g_strdup_printf("%" G_GUINT64_FORMAT, e->randseed);
  return g_strdup(e->randrepeat ? "fio" : "scenario");
}

/* The keys a job reads with on its own (params.c job_keys[]), as
 * "workload.key=value": all of them, so that its view does not depend on
 * the first job's. */
static char **job_set(const Eval *e) {
  GPtrArray *a = g_ptr_array_new();
  g_autofree char *seed = seed_text(e);
  g_ptr_array_add(a, g_strdup_printf("workload.block_size=%" G_GUINT64_FORMAT, e->bs));
  g_ptr_array_add(a, g_strdup_printf("workload.rw=%s", e->randread ? "randread" : "read"));
  g_ptr_array_add(a, g_strdup_printf("workload.norandommap=%d", e->randread && e->norandommap));
  g_ptr_array_add(a, g_strdup_printf("workload.random_seed=%s", e->randread ? seed : "fio"));
  g_ptr_array_add(a, g_strdup_printf("workload.random_generator=%s", e->randread && e->tausworthe64 ? "tausworthe64" : "tausworthe"));
  g_ptr_array_add(a, g_strdup_printf("workload.ioengine=%s", e->engine ? e->engine : "sync"));
  for (guint d = 0; d < G_N_ELEMENTS(depth_keys); d++)
    g_ptr_array_add(a, g_strdup_printf("workload.%s=%" G_GUINT64_FORMAT, depth_keys[d], e->engine ? e->depth[d] : (d < 3 ? 1 : 0)));
  /* its range of the file, its loops and its file's fadvise: fio opens the
   * file in each job (its own struct file, so its own readahead window) */
  g_ptr_array_add(a, g_strdup_printf("workload.file_size=%" G_GUINT64_FORMAT, e->size));
  g_ptr_array_add(a, g_strdup_printf("workload.offset=%" G_GUINT64_FORMAT, e->offset));
  g_ptr_array_add(a, g_strdup_printf("workload.loops=%" G_GUINT64_FORMAT, e->loops));
  g_ptr_array_add(a, g_strdup_printf("workload.time_based=%d", e->time_based ? 1 : 0));
  g_ptr_array_add(a, e->runtime_ns ? g_strdup_printf("workload.runtime=%" G_GUINT64_FORMAT "ns", e->runtime_ns)
                                   : g_strdup("workload.runtime=0"));
  g_ptr_array_add(a, g_strdup_printf("readahead.fadvise_hint=%s", pcs_params_fadvise_name(e->fadvise)));
  /* its files: how many, how fio chooses among them, how many open at once */
  g_ptr_array_add(a, g_strdup_printf("workload.nrfiles=%" G_GUINT64_FORMAT, e->nrfiles));
  g_ptr_array_add(a, g_strdup_printf("workload.file_service_type=%s", e->fst ? e->fst : "roundrobin"));
  g_ptr_array_add(a, g_strdup_printf("workload.openfiles=%" G_GUINT64_FORMAT, e->openfiles));
  g_ptr_array_add(a, NULL);
  return (char **)g_ptr_array_free(a, FALSE);
}

/* The line of the job file each of job_set()'s keys came from (0: fio's
 * default, or an included file), for the job's view's messages. */
static uint32_t *job_lines(const Eval *e, char **set) {
  const struct {
    const char *key;
    guint line;
  } at[] = {{"workload.block_size", e->bs_line}, {"workload.rw", e->rw_line}, {"workload.ioengine", e->engine_line},
            {"workload.file_size", e->size_line}, {"workload.offset", e->offset_line},
            {"workload.loops", e->loops_line}, {"workload.time_based", e->time_based_line},
            {"workload.runtime", e->runtime_line}, {"readahead.fadvise_hint", e->fadvise_line},
            {"workload.nrfiles", e->nrfiles_line}};
  uint32_t *lines = g_new0(uint32_t, g_strv_length(set) + 1);
  for (guint i = 0; set[i]; i++)
    for (guint k = 0; k < G_N_ELEMENTS(at); k++)
      if (g_str_has_prefix(set[i], at[k].key) && set[i][strlen(at[k].key)] == '=') lines[i] = at[k].line;
  return lines;
}

/* What a job reads with on its own (job_set()): does E differ from FIRST? */
static gboolean own_differs(const Eval *e, const Eval *first) {
  return e->bs != first->bs || e->randread != first->randread || e->norandommap != first->norandommap ||
         e->randrepeat != first->randrepeat || e->has_randseed != first->has_randseed ||
         e->randseed != first->randseed || e->tausworthe64 != first->tausworthe64 ||
         g_strcmp0(e->engine, first->engine) || memcmp(e->depth, first->depth, sizeof e->depth) ||
         e->size != first->size || e->offset != first->offset || e->loops != first->loops ||
         e->fadvise != first->fadvise || g_strcmp0(e->file, first->file) || e->runtime_ns != first->runtime_ns ||
         e->nrfiles != first->nrfiles || e->openfiles != first->openfiles || g_strcmp0(e->fst, first->fst) ||
         e->time_based != first->time_based;
}

/* fio's jobname: the section's own name= (fio's "name" option), else [section]. */
static const char *section_name(const FioSection *s) {
  const FioOpt *named = NULL;
  for (guint k = 0; k < s->opts->len; k++) {
    const FioOpt *o = g_ptr_array_index(s->opts, k);
    if (!strcmp(o->key, "name") && o->value && *o->value) named = o;
  }
  return named ? named->value : s->name;
}

/* Job J's barrier: stonewall waits for every job before it, wait_for=NAME
 * for the job of that name before it (fio looks it up among the jobs
 * added before: init.c, "wait_for=... not found" otherwise). */
static gboolean job_barrier(const PcsFioJob *job, const Eval *e, guint j, PcsJobSpec *spec, GError **error) {
  spec->after = e->stonewall ? j : 0;
  spec->wait_for = PCS_JOB_NONE;
  if (!e->wait_for_opt) return TRUE;
  const FioOpt *o = e->wait_for_opt;
  for (guint k = 0; k < j; k++)
    if (!strcmp(g_array_index(job->sections, PcsFioSection, k).name, o->value)) spec->wait_for = k;
  if (spec->wait_for == PCS_JOB_NONE)
    return pcs_input_error(error, o->file, o->line, "fio option wait_for=%s: no job of that name before this one "
                           "(fio waits only for a job defined before it)", o->value);
  return TRUE;
}

/* Job J's files among the files the jobs name (PcsJobSpec.file and
 * files): each name numbered 0, 1, ... in the order the jobs first name
 * it; PCS_JOB_OWN_FILE for a job that names none beside one that does
 * (each clone its own files); 0 when no job names one (per-thread files). */
static void job_files(GArray *evals, guint j, gboolean per_thread, PcsJobSpec *spec) {
  const char *file = g_array_index(evals, Eval, j).file;
  spec->file = per_thread ? 0 : PCS_JOB_OWN_FILE;
  if (!file) return;
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free); /* names in the order first named */
  for (guint k = 0; k <= j; k++) {
    const char *other = g_array_index(evals, Eval, k).file;
    g_auto(GStrv) names = other ? g_strsplit(other, ":", -1) : NULL;
    for (char **n = names; n && *n; n++) {
      gboolean known = FALSE;
      for (guint m = 0; m < seen->len && !known; m++) known = !strcmp(g_ptr_array_index(seen, m), *n);
      if (!known) g_ptr_array_add(seen, g_strdup(*n));
    }
  }
  g_auto(GStrv) names = g_strsplit(file, ":", -1);
  uint32_t n = g_strv_length(names);
  g_autofree uint32_t *files = g_new(uint32_t, n);
  gboolean in_order = TRUE; /* file, file + 1, ...: no list needed */
  for (uint32_t k = 0; k < n; k++) {
    for (files[k] = 0; strcmp(g_ptr_array_index(seen, files[k]), names[k]); files[k]++) {}
    in_order &= files[k] == files[0] + k;
  }
  spec->file = files[0];
  if (!in_order) spec->files = g_steal_pointer(&files), spec->nfiles = n;
}

/* The run's keys from the first job FIRST. */
static void resolve_run(PcsFioJob *job, const Eval *first) {
  job->bs = first->bs;
  job->size = first->size;
  job->fadvise = first->fadvise;
  job->loops = first->loops;
  job->offset = first->offset;
  job->runtime_ns = first->runtime_ns;
  job->time_based = first->time_based;
  job->nrfiles = first->nrfiles;
  job->openfiles = first->openfiles;
  job->nrfiles_line = first->nrfiles_line;
  job->randread = first->randread;
  job->norandommap = first->norandommap;
  job->tausworthe64 = first->tausworthe64;
  job->ioengine = first->engine;
  job->ioengine_line = first->engine_line;
  memcpy(job->depth, first->depth, sizeof job->depth);
  job->random_seed = seed_text(first);
}

static void eval_clear(Eval *e) {
  g_clear_pointer(&e->rand_opts, g_ptr_array_unref);
  g_clear_pointer(&e->depth_opts, g_ptr_array_unref);
  g_clear_pointer(&e->file, g_free);
  g_clear_pointer(&e->fname, g_free);
  g_clear_pointer(&e->dir, g_free);
  g_clear_pointer(&e->fst, g_free);
}

/* Job sections, in order.  Sections that read the same way (numjobs add
 * up) are one job, as before; sections that differ in what a job may read
 * with on its own (own_differs()), or that wait (stonewall, wait_for) or
 * start a group (new_group), become PcsFioJob.jobs, run at once; what
 * they must share (shared_differs()) is refused by name. */
static gboolean resolve(PcsFioJob *job, GPtrArray *sections, GError **error) {
  g_autoptr(GPtrArray) globals = g_ptr_array_new();
  g_autoptr(GArray) refused = g_array_new(FALSE, FALSE, sizeof(Refusal));
  g_autoptr(GArray) evals = g_array_new(FALSE, TRUE, sizeof(Eval));
  g_autoptr(GPtrArray) owners = g_ptr_array_new(); /* the FioSection of each eval */
  gboolean ok = TRUE, several = FALSE;
  for (guint i = 0; ok && i < sections->len; i++) {
    FioSection *s = g_ptr_array_index(sections, i);
    if (s->global) {
      for (guint j = 0; j < s->opts->len; j++) g_ptr_array_add(globals, g_ptr_array_index(s->opts, j));
      continue;
    }
    Eval e = {0};
    ok = eval_job(globals, s, evals->len, &e, job, refused, error);
    if (ok) {
      const Eval *first = evals->len ? &g_array_index(evals, Eval, 0) : NULL;
      several |= first && own_differs(&e, first);
      several |= e.stonewall || e.new_group || e.wait_for_opt;
      PcsFioSection sec = {g_strdup(section_name(s)), e.numjobs, options_text(s->opts), 0};
      g_array_append_val(job->sections, sec);
      if (!first) {
        job->name = g_strdup(sec.name);
        job->global_options = options_text(globals);
        job->numjobs_line = e.numjobs_line, job->bs_line = e.bs_line, job->size_line = e.size_line;
        job->fadvise_line = e.fadvise_line;
        job->loops_line = e.loops_line, job->runtime_line = e.runtime_line, job->time_based_line = e.time_based_line;
        job->offset_line = e.offset_line;
        job->rw_line = e.rw_line;
      }
      job->numjobs += e.numjobs;
      g_array_append_val(evals, e);
      g_ptr_array_add(owners, s);
    } else {
      eval_clear(&e);
    }
  }
  if (ok && evals->len) {
    const Eval *first = &g_array_index(evals, Eval, 0);
    job->file_service_type = g_strdup(first->fst ? first->fst : "roundrobin");
    resolve_run(job, first);
    job->per_thread_files = TRUE; /* no job names its file */
    for (guint j = 0; j < evals->len; j++) job->per_thread_files &= g_array_index(evals, Eval, j).file == NULL;
  }
  if (ok && report_refusals(refused, error) && !evals->len)
    ok = sections->len ? pcs_input_error(error, job->path, 0, "no job section (only [global] sections)")
                       : pcs_input_error(error, job->path, 1, "no section: a fio job file names each job in brackets "
                                         "([name]) above its options");
  else if (ok) ok = !refused->len;
  if (ok && several) { /* fio's groupid: one more at each stonewall or new_group after the first job */
    job->njobs = evals->len;
    job->jobs = g_new0(PcsJobSpec, job->njobs);
    uint32_t group = 0;
    for (guint j = 0; ok && j < evals->len; j++) {
      const Eval *e = &g_array_index(evals, Eval, j);
      PcsJobSpec *spec = &job->jobs[j];
      PcsFioSection *sec = &g_array_index(job->sections, PcsFioSection, j);
      if (e->stonewall || e->new_group) group++;
      spec->name = g_strdup(sec->name);
      spec->clones = e->numjobs;
      spec->set = job_set(e);
      spec->lines = job_lines(e, spec->set);
      spec->group = sec->group = group;
      job_files(evals, j, job->per_thread_files, spec);
      ok = job_barrier(job, e, j, spec, error);
    }
  }
  for (guint j = 0; j < evals->len; j++) eval_clear(&g_array_index(evals, Eval, j));
  return ok;
}

gboolean pcs_fio_load_text(PcsFioJob *job, const char *path, const char *data, size_t len, GError **error) {
  memset(job, 0, sizeof *job);
  job->path = g_strdup(path);
  job->accepted = g_ptr_array_new_with_free_func(g_free);
  job->notes = g_ptr_array_new_with_free_func(g_free);
  job->sections = g_array_new(FALSE, TRUE, sizeof(PcsFioSection));
  g_array_set_clear_func(job->sections, section_info_clear);
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
  g_clear_pointer(&job->notes, g_ptr_array_unref);
  g_clear_pointer(&job->global_options, g_strfreev);
  g_clear_pointer(&job->sections, g_array_unref);
  g_clear_pointer(&job->random_seed, g_free);
  g_clear_pointer(&job->file_service_type, g_free);
  pcs_params_jobs_free(job->jobs, job->njobs);
  job->jobs = NULL, job->njobs = 0;
}

/* Sets KEY ("section.key") to V (with UNIT) from PATH:LINE, and marks the line. */
static gboolean set_at(PcsParams *p, const char *key, uint64_t v, const char *unit, const char *path, guint line,
                       GError **error) {
  g_autofree char *value = g_strdup_printf("%" G_GUINT64_FORMAT "%s", v, v ? unit : "");
  g_autofree char *at = line ? g_strdup_printf("%s:%u", path, line) : g_strdup(path);
  if (!pcs_params_set(p, pcs_params_find_dotted(key), value, at, error)) return FALSE;
  pcs_params_mark(p, key, line);
  return TRUE;
}

/* rw=randread: workload.rw and fio's random options; a rw=read job sets
 * none of them (they keep their defaults, and outputs stay as they were). */
static gboolean apply_random(const PcsFioJob *job, PcsParams *p, GError **error) {
  if (!job->randread) return TRUE;
  g_autofree char *at = job->rw_line ? g_strdup_printf("%s:%u", job->path, job->rw_line) : g_strdup(job->path);
  if (!pcs_params_set(p, pcs_params_find("workload", "rw"), "randread", at, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "norandommap"), job->norandommap ? "1" : "0", job->path, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "random_seed"), job->random_seed, job->path, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "random_generator"), job->tausworthe64 ? "tausworthe64" : "tausworthe",
                      job->path, error))
    return FALSE;
  pcs_params_mark(p, "workload.rw", job->rw_line);
  pcs_params_mark(p, "workload.norandommap", 0);
  pcs_params_mark(p, "workload.random_seed", 0);
  pcs_params_mark(p, "workload.random_generator", 0);
  return TRUE;
}

/* nrfiles > 1: workload.nrfiles, file_service_type, openfiles, and for
 * file_service_type=random the seed and generator of fio's file stream
 * (a randread job has set them; one job never has both: files_job()). */
static gboolean apply_files(const PcsFioJob *job, PcsParams *p, GError **error) {
  if (job->nrfiles <= 1) return TRUE;
  g_autofree char *nr = g_strdup_printf("%" G_GUINT64_FORMAT, job->nrfiles);
  g_autofree char *open = g_strdup_printf("%" G_GUINT64_FORMAT, job->openfiles);
  g_autofree char *at = job->nrfiles_line ? g_strdup_printf("%s:%u", job->path, job->nrfiles_line) : g_strdup(job->path);
  if (!pcs_params_set(p, pcs_params_find("workload", "nrfiles"), nr, at, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "file_service_type"), job->file_service_type, job->path, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "openfiles"), open, job->path, error))
    return FALSE;
  pcs_params_mark(p, "workload.nrfiles", job->nrfiles_line);
  pcs_params_mark(p, "workload.file_service_type", 0);
  pcs_params_mark(p, "workload.openfiles", 0);
  if (!g_str_has_prefix(job->file_service_type, "random") || job->randread) return TRUE;
  if (!pcs_params_set(p, pcs_params_find("workload", "random_seed"), job->random_seed, job->path, error) ||
      !pcs_params_set(p, pcs_params_find("workload", "random_generator"),
                      job->tausworthe64 ? "tausworthe64" : "tausworthe", job->path, error))
    return FALSE;
  pcs_params_mark(p, "workload.random_seed", 0);
  pcs_params_mark(p, "workload.random_generator", 0);
  return TRUE;
}

/* ioengine=libaio or io_uring: workload.ioengine and the iodepth options;
 * a sync engine sets none of them (outputs stay as they were). */
static gboolean apply_engine(const PcsFioJob *job, PcsParams *p, GError **error) {
  if (!job->ioengine) return TRUE;
  g_autofree char *at = job->ioengine_line ? g_strdup_printf("%s:%u", job->path, job->ioengine_line) : g_strdup(job->path);
  if (!pcs_params_set(p, pcs_params_find("workload", "ioengine"), job->ioengine, at, error)) return FALSE;
  pcs_params_mark(p, "workload.ioengine", job->ioengine_line);
  for (guint d = 0; d < G_N_ELEMENTS(depth_keys); d++) {
    g_autofree char *key = g_strdup_printf("workload.%s", depth_keys[d]);
    if (!set_at(p, key, job->depth[d], "", job->path, 0, error)) return FALSE;
  }
  return TRUE;
}

gboolean pcs_fio_apply(const PcsFioJob *job, PcsParams *p, GError **error) {
  pcs_params_model_below(p); /* the keys the job does not set keep naming the model's file */
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
      !pcs_params_set(p, pcs_params_find("workload", "files"), job->per_thread_files ? "per-thread" : "shared",
                      job->path, error) ||
      !pcs_params_set(p, pcs_params_find("scenario", "name"), job->name, job->path, error) ||
      !set_at(p, "workload.offset", job->offset, "", job->path, job->offset_line, error) ||
      !set_at(p, "workload.loops", job->loops, "", job->path, job->loops_line, error) ||
      !set_at(p, "workload.runtime", job->runtime_ns, "ns", job->path, job->runtime_line, error) ||
      !set_at(p, "workload.time_based", (uint64_t)job->time_based, "", job->path, job->time_based_line, error) ||
      !apply_random(job, p, error) || !apply_files(job, p, error) || !apply_engine(job, p, error))
    return FALSE;
  g_free(p->source);
  p->source = g_strdup(job->path);
  pcs_params_mark(p, "workload.threads", job->numjobs_line);
  pcs_params_mark(p, "workload.block_size", job->bs_line);
  pcs_params_mark(p, "workload.file_size", job->size_line);
  pcs_params_mark(p, "readahead.fadvise_hint", job->fadvise_line);
  pcs_params_mark(p, "workload.files", 0);
  pcs_params_mark(p, "scenario.name", 0);
  pcs_params_jobs_free(p->jobs, p->njobs);
  p->jobs = pcs_params_jobs_copy(job->jobs, job->njobs);
  p->njobs = job->njobs;
  g_strfreev(p->fio_accepted);
  g_ptr_array_add(job->accepted, NULL);
  p->fio_accepted = g_strdupv((char **)job->accepted->pdata);
  g_ptr_array_remove_index(job->accepted, job->accepted->len - 1);
  /* what fio's JSON names: the outputs record it (fiojson.c, report.c) */
  pcs_params_set_fio_job(p, job->global_options, (const PcsFioSection *)job->sections->data, job->sections->len);
  return TRUE;
}

gboolean pcs_fio_is_job_file(const char *path) {
  return g_str_has_suffix(path, ".fio") || g_str_has_suffix(path, ".job");
}
