/* cli.c - helpers shared by the pcsim commands.
 *
 * Models nothing.  It holds the command line's contract with users (cli.h
 * states it): one error line "pcsim COMMAND: MESSAGE" and one mapping from
 * error to exit status (bad input 2, failed write 1, interrupted
 * 128+signal), both in pcs_cli_fail(); an interrupted command leaves no
 * output file, and every output file appears under its final name only
 * when it is complete.
 */
#include "cli.h"

#include "pcsim/policy.h"
#include "pcsim/scenario.h"
#include "pcsim/text.h"

#include <glib/gstdio.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

volatile int pcs_cli_signal;

static void on_signal(int sig) {
  g_atomic_int_set(&pcs_cli_signal, sig); /* read by sweep workers: atomic */
}

void pcs_cli_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* "pcsim run" inside a command, "pcsim" before one is known. */
static const char *program(void) {
  const char *name = g_get_prgname();
  return name ? name : "pcsim";
}

/* A bad value is echoed in the message; its control characters but the tab
 * (a CR or an escape sequence inside a line) are shown as C escapes, so the
 * message stays one visible line that names the file first. */
static char *escape_controls(const char *msg) {
  GString *out = g_string_new(NULL);
  for (const char *p = msg; *p; p++) {
    guchar ch = (guchar)*p;
    if (ch == '\r') g_string_append(out, "\\r");
    else if (ch == '\n') g_string_append(out, "\\n");
    else if ((ch < 0x20 && ch != '\t') || ch == 0x7f) g_string_append_printf(out, "\\x%02x", ch);
    else g_string_append_c(out, (char)ch);
  }
  return g_string_free(out, FALSE);
}

static void print_error_line(const char *msg) {
  g_autofree char *line = escape_controls(msg);
  fprintf(stderr, "%s: %s\n", program(), line);
}

int pcs_cli_exit_status(const GError *error) {
  if (error->domain != PCS_ERROR) return PCS_EXIT_IO; /* GLib I/O: temporary files, gnuplot's pipe */
  switch ((PcsError)error->code) {
  case PCS_ERROR_INPUT:
  case PCS_ERROR_LIMIT: return PCS_EXIT_INPUT;
  case PCS_ERROR_IO: return PCS_EXIT_IO;
  case PCS_ERROR_CANCELLED: return 128 + (pcs_cli_signal ? pcs_cli_signal : SIGINT);
  }
  g_assert_not_reached();
}

int pcs_cli_fail(GError *error) {
  int code = pcs_cli_exit_status(error);
  if (error->domain == PCS_ERROR && error->code == PCS_ERROR_CANCELLED) {
    g_autofree char *msg = g_strdup_printf("interrupted by %s; no output written", code == 128 + SIGTERM ? "SIGTERM"
                                                                                                            : "SIGINT");
    print_error_line(msg);
  } else {
    print_error_line(error->message);
  }
  g_error_free(error);
  return code;
}

static char *usage_message(const char *msg) {
  return g_strdup_printf("%s (see %s --help)", msg, program());
}

/* GLib's usage line "  pcsim run [OPTION…] SCENARIO|JOB.fio - simulate ..."
 * becomes a synopsis with the options last and the summary on a line of its
 * own, in ASCII whatever the locale (GLib writes "[OPTION?]" in the C locale):
 *   Usage:
 *     pcsim run SCENARIO|JOB.fio [OPTION...]
 *
 *   Simulate one scenario under each policy.
 */
char *pcs_cli_help(GOptionContext *ctx) {
  g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
  const char *usage = strstr(help, "\n  "), *end = usage ? strchr(usage + 1, '\n') : NULL;
  if (!usage || !end) return g_steal_pointer(&help);
  const char *prg = program(), *params = usage + 3 + strlen(prg);
  params = strchr(params, ']') ? strchr(params, ']') + 1 : params; /* past "[OPTION…]" */
  g_autofree char *line = g_strstrip(g_strndup(params, (gsize)(end - params)));
  char *dash = g_str_has_prefix(line, "- ") ? line : strstr(line, " - ");
  g_autofree char *summary = dash ? g_strdup(dash + (dash == line ? 2 : 3)) : NULL;
  if (dash) *dash = '\0';
  GString *s = g_string_new_len(help, usage - help);
  g_string_append_printf(s, "\n  %s%s%s [OPTION...]\n", prg, *line ? " " : "", g_strstrip(line));
  if (summary && *summary) {
    summary[0] = g_ascii_toupper(summary[0]);
    g_string_append_printf(s, "\n%s.\n", summary);
  }
  g_string_append(s, end + 1);
  return g_string_free(s, FALSE);
}

/* -h, --help or -? before a "--": the help on stdout, exit 0 (as GLib's own
 * --help does, which would print the usage line unrewritten). */
static void help_if_asked(GOptionContext *ctx, int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--help") && strcmp(argv[i], "-h") && strcmp(argv[i], "-?")) continue;
    char *help = pcs_cli_help(ctx);
    GString *out = g_string_new(help);
    int status = pcs_cli_write_stdout(out) ? PCS_EXIT_OK : PCS_EXIT_IO;
    g_string_free(out, TRUE); /* freed before exit(): nothing left for LeakSanitizer */
    g_free(help);
    exit(status);
  }
}

/* The command's options (pcs_cli_context()), for short_values(). */
static const GOptionEntry *cli_entries;

/* The entry of the option word A names ("-j", "-j1", "--jobs", "--jobs=4"), or NULL. */
static const GOptionEntry *entry_of(const char *a) {
  if (a[0] != '-' || !a[1] || !cli_entries) return NULL;
  gsize n = a[1] == '-' ? strcspn(a + 2, "=") : 0;
  for (const GOptionEntry *e = cli_entries; e->long_name; e++)
    if (a[1] == '-' ? strlen(e->long_name) == n && !strncmp(a + 2, e->long_name, n) : e->short_name == a[1]) return e;
  return NULL;
}

/* A short option that takes a value, given with it attached ("-j1",
 * "-pwindow", as getopt() takes them): split in two for GLib, which would
 * read "-j1" as the flags -j and -1 and take the next word as -j's value.
 * Not a word after "--", nor one that is the value of the option before it
 * ("--out -jfoo", "-o -jfoo").  The new vector borrows the other words; it
 * and the split halves stay reachable for the process (GLib's parse drops
 * the words it consumes from the vector), as main()'s argv does. */
static void short_values(int *argc, char ***argv) {
  static GPtrArray *words, *halves;
  GPtrArray *out = g_ptr_array_new();
  gboolean split = FALSE, value_next = FALSE;
  for (int i = 0; i < *argc; i++) {
    char *a = (*argv)[i];
    const GOptionEntry *e = i && !value_next ? entry_of(a) : NULL;
    gboolean takes = e && e->arg != G_OPTION_ARG_NONE;
    if (i && !value_next && !strcmp(a, "--")) { /* the rest is operands: as they are */
      for (; i < *argc; i++) g_ptr_array_add(out, (*argv)[i]);
      break;
    }
    if (takes && a[1] != '-' && a[2]) { /* "-j1" */
      if (!halves) halves = g_ptr_array_new();
      char *opt = g_strndup(a, 2), *val = g_strdup(a + 2);
      g_ptr_array_add(halves, opt);
      g_ptr_array_add(halves, val);
      g_ptr_array_add(out, opt);
      g_ptr_array_add(out, val);
      split = TRUE;
      value_next = FALSE;
      continue;
    }
    g_ptr_array_add(out, a);
    value_next = takes && (a[1] == '-' ? !strchr(a, '=') : !a[2]); /* "--out FILE", "-o FILE" */
  }
  if (!split) {
    g_ptr_array_free(out, TRUE);
    return;
  }
  if (words) g_ptr_array_free(words, TRUE); /* a second parse in one process: the first vector is done */
  words = out;
  *argc = (int)words->len;
  g_ptr_array_add(words, NULL);
  *argv = (char **)words->pdata;
}

gboolean pcs_cli_parse(GOptionContext *ctx, int *argc, char ***argv, GError **error) {
  GError *e = NULL;
  help_if_asked(ctx, *argc, *argv);
  short_values(argc, argv);
  if (g_option_context_parse(ctx, argc, argv, &e)) return TRUE;
  g_autofree char *msg = usage_message(e->message);
  g_error_free(e);
  g_set_error_literal(error, PCS_ERROR, PCS_ERROR_INPUT, msg);
  return FALSE;
}

int pcs_cli_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_autofree char *line = usage_message(msg);
  print_error_line(line);
  return PCS_EXIT_INPUT;
}

static gboolean write_stdout(const GString *s, GError **error) {
  if (fwrite(s->str, 1, s->len, stdout) == s->len && fflush(stdout) == 0) return TRUE;
  g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "standard output: %s", g_strerror(errno));
  return FALSE;
}

gboolean pcs_cli_write_stdout(const GString *s) {
  GError *error = NULL;
  if (write_stdout(s, &error)) return TRUE;
  print_error_line(error->message);
  g_error_free(error);
  return FALSE;
}

/* PATH names what the process's standard output is (/dev/stdout,
 * /proc/self/fd/1, a redirected file named again). */
static gboolean is_stdout(const char *path) {
  GStatBuf st, out;
  return g_stat(path, &st) == 0 && fstat(fileno(stdout), &out) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

PcsCliOutputMode pcs_cli_output_target(const char *path, char **target, GError **error) {
  *target = NULL;
  GStatBuf st;
  if (is_stdout(path)) return PCS_CLI_OUT_STDOUT;
  if (g_stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return PCS_CLI_OUT_COPY; /* a device, a FIFO */
  char *p = g_strdup(path);
  for (int depth = 0; g_lstat(p, &st) == 0 && S_ISLNK(st.st_mode); depth++) {
    g_autofree char *link = depth < PCS_CLI_MAX_SYMLINKS ? g_file_read_link(p, NULL) : NULL;
    if (!link) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: %s", path, g_strerror(depth < PCS_CLI_MAX_SYMLINKS ? EINVAL : ELOOP));
      g_free(p);
      return PCS_CLI_OUT_ERROR;
    }
    g_autofree char *dir = g_path_get_dirname(p);
    g_free(p);
    p = g_path_is_absolute(link) ? g_steal_pointer(&link) : g_build_filename(dir, link, NULL);
  }
  *target = p;
  return PCS_CLI_OUT_RENAME;
}

gboolean pcs_cli_output_check(const char *option, const char *path, gboolean folder, GError **error) {
  if (!path) return TRUE; /* standard output */
  if (!*path) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s '': expected a %s name", option, folder ? "folder" : "file");
    return FALSE;
  }
  gboolean is_dir = g_file_test(path, G_FILE_TEST_IS_DIR);
  if (!folder && is_dir) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s: is a directory, expected an output file name", option, path);
    return FALSE;
  }
  if (folder && !is_dir && g_file_test(path, G_FILE_TEST_EXISTS)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s: is a file, not a directory (a folder for the output files)",
                option, path);
    return FALSE;
  }
  g_autofree char *target = NULL;
  GError *why = NULL;
  PcsCliOutputMode mode = folder ? PCS_CLI_OUT_RENAME : pcs_cli_output_target(path, &target, &why);
  if (mode == PCS_CLI_OUT_ERROR) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s", option, why->message);
    g_error_free(why);
    return FALSE;
  }
  if (mode != PCS_CLI_OUT_RENAME) return TRUE; /* standard output, a device, a FIFO: there already */
  g_autofree char *parent = g_path_get_dirname(target ? target : path); /* a link's: the file it names */
  if (!g_file_test(parent, G_FILE_TEST_EXISTS)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s: folder %s does not exist", option, path, parent);
    return FALSE;
  }
  if (!g_file_test(parent, G_FILE_TEST_IS_DIR)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s %s: %s is not a folder", option, path, parent);
    return FALSE;
  }
  return TRUE;
}

static void output_clear(PcsCliOutput *o) {
  g_clear_pointer(&o->path, g_free);
  g_clear_pointer(&o->target, g_free);
  g_clear_pointer(&o->tmp, g_free);
}

gboolean pcs_cli_output_open(PcsCliOutput *o, const char *path, GError **error) {
  memset(o, 0, sizeof *o);
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
    return pcs_input_error(error, path, 0, "is a directory, expected an output file name");
  }
  o->mode = pcs_cli_output_target(path, &o->target, error);
  if (o->mode == PCS_CLI_OUT_ERROR) return FALSE;
  o->path = g_strdup(path);
  if (o->mode == PCS_CLI_OUT_RENAME) { /* beside the file it becomes, so the rename is atomic */
    o->tmp = g_strdup_printf("%s.tmp", o->target);
    o->f = fopen(o->tmp, "wb");
  } else { /* a regular file of its own, copied to the path when complete (a pipe cannot seek) */
    int fd = g_file_open_tmp("pcsim-out-XXXXXX", &o->tmp, NULL);
    o->f = fd < 0 ? NULL : fdopen(fd, "w+b");
    if (fd >= 0 && !o->f) close(fd);
  }
  if (!o->f) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "%s: cannot write: %s", path, g_strerror(errno));
    if (o->tmp) unlink(o->tmp);
    output_clear(o);
    return FALSE;
  }
  return TRUE;
}

/* The temporary file's bytes to PATH written in place, or to standard output. */
static gboolean output_copy(PcsCliOutput *o) {
  g_autofree char *bytes = NULL;
  gsize n = 0;
  if (!g_file_get_contents(o->tmp, &bytes, &n, NULL)) return FALSE;
  if (o->mode == PCS_CLI_OUT_STDOUT) return fwrite(bytes, 1, n, stdout) == n && fflush(stdout) == 0;
  FILE *f = fopen(o->path, "wb");
  if (!f) return FALSE;
  gboolean ok = fwrite(bytes, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

gboolean pcs_cli_output_commit(PcsCliOutput *o, GError **error) {
  gboolean ok = !o->f || !ferror(o->f);
  if (o->f) ok = fclose(o->f) == 0 && ok;
  o->f = NULL;
  ok = ok && (o->mode == PCS_CLI_OUT_RENAME ? rename(o->tmp, o->target) == 0 : output_copy(o));
  if (!ok) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "%s: cannot write: %s", o->path, g_strerror(errno));
    pcs_cli_output_abort(o);
    return FALSE;
  }
  if (o->mode != PCS_CLI_OUT_RENAME) unlink(o->tmp);
  output_clear(o);
  return TRUE;
}

void pcs_cli_output_abort(PcsCliOutput *o) {
  if (o->f) fclose(o->f);
  if (o->tmp) unlink(o->tmp); /* the temporary file only: never the path the user gave */
  output_clear(o);
  o->f = NULL;
}

gboolean pcs_cli_write_file(const char *path, const GString *s, GError **error) {
  if (!path || strcmp(path, "-") == 0) return write_stdout(s, error);
  PcsCliOutput o;
  if (!pcs_cli_output_open(&o, path, error)) return FALSE;
  fwrite(s->str, 1, s->len, o.f);
  return pcs_cli_output_commit(&o, error);
}

gboolean pcs_cli_load_scenario(const char *path, char **sets, const char *seed, PcsParams *p, GError **error) {
  g_autofree char *name = NULL, *text = NULL; /* a file, or a shipped scenario by name (scenario.h) */
  if (path && !pcs_scenario_read(path, PCS_SCENARIO_INI, &name, &text, NULL, error)) return FALSE;
  return pcs_cli_load_scenario_text(name, text, sets, seed, p, error);
}

gboolean pcs_cli_load_scenario_text(const char *name, const char *text, char **sets, const char *seed, PcsParams *p,
                                    GError **error) {
  if (text && !pcs_params_load_text(p, name, text, strlen(text), error)) return FALSE;
  for (char **s = sets; s && *s; s++)
    if (!pcs_params_set_assignment(p, *s, error)) return FALSE;
  if (seed && !pcs_params_set(p, pcs_params_find("scenario", "seed"), seed, "--seed", error)) return FALSE;
  return pcs_params_validate(p, error);
}

gboolean pcs_cli_policies(const PcsParams *p, char **given, GArray *out, GError **error) {
  g_autofree char *at = pcs_params_where(p, "scenario.policies");
  g_autofree char *where = g_strdup_printf("%s: scenario.policies", at);
  return pcs_policy_parse_given(given, p->scenario_policies, where, out, error);
}

GOptionContext *pcs_cli_context(const char *parameters, const char *description, const GOptionEntry *entries) {
  GOptionContext *ctx = g_option_context_new(parameters);
  if (description) g_option_context_set_description(ctx, description);
  g_option_context_add_main_entries(ctx, entries, NULL);
  cli_entries = entries;
  return ctx;
}

static void print_stats(double wall, uint64_t events, const char *more) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stderr, "stats: wall_s=%.3f events=%" G_GUINT64_FORMAT " events_per_s=%.0f peak_rss_kib=%ld%s\n", wall, events,
          wall > 0 ? (double)events / wall : 0.0, ru.ru_maxrss, more);
}

void pcs_cli_print_stats(double wall, uint64_t events) { print_stats(wall, events, ""); }

void pcs_cli_print_run_stats(double wall, uint64_t events, uint64_t folded, uint64_t redone) {
  g_autofree char *more = g_strdup_printf(" folded=%" G_GUINT64_FORMAT " redone=%" G_GUINT64_FORMAT, folded, redone);
  print_stats(wall, events, more);
}

gboolean pcs_cli_jobs_check(gint jobs, GError **error) {
  if (jobs == PCS_CLI_JOBS_DEFAULT || (jobs >= 1 && jobs <= 1024)) return TRUE;
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--jobs %d: expected 1..1024", jobs);
  return FALSE;
}

guint pcs_cli_jobs(gint jobs) { return jobs > 0 ? (guint)jobs : g_get_num_processors(); }
