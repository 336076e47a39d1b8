/* cmd_man.c - `pcsim help-man FILE`: the man page pcsim(1), written from
 * the commands' own --help, so the page cannot drift from the binary.
 *
 * Hidden (not in `pcsim --help`): the build runs it once to write
 * build/pcsim.1, which `cmake --install` puts in share/man/man1.  It runs
 * this same binary (/proc/self/exe) with `--help` and with `COMMAND --help`
 * for every command of main.c's table and turns what they print into one
 * troff page: NAME, SYNOPSIS, DESCRIPTION, COMMANDS (a subsection per
 * command: synopsis, summary, options, description), YOUR OWN KERNEL (the
 * installed capture and prediction programs), FILES (the shipped
 * scenarios), EXIT STATUS, EXAMPLES, SEE ALSO.
 *
 * The --help layout it reads is pcs_cli_help()'s: "Usage:", the synopsis
 * line, the summary paragraph, GLib's "Help Options:" and "Application
 * Options:" blocks (one option a line, its text after a run of spaces),
 * then the description.  Text is escaped for troff: '\' and '-' (options
 * stay copyable), a leading '.' or '\'', and every non-ASCII character as
 * \[uXXXX], so `groff -man -ww` has nothing to warn about.
 */
#include "cli.h"

#include "pcsim/report.h"
#include "pcsim/scenario.h"

#include <string.h>

#ifndef PCSIM_DATADIR
#define PCSIM_DATADIR "/usr/local/share"
#endif

/* TEXT escaped for troff, appended to S. */
static void esc(GString *s, const char *text) {
  if (*text == '.' || *text == '\'') g_string_append(s, "\\&");
  for (const char *p = text; *p; p = g_utf8_next_char(p)) {
    gunichar c = g_utf8_get_char(p);
    if (c == '\\')
      g_string_append(s, "\\e");
    else if (c == '-')
      g_string_append(s, "\\-");
    else if (c >= 0x80)
      g_string_append_printf(s, "\\[u%04X]", (unsigned)c);
    else
      g_string_append_c(s, (char)c);
  }
}

static void line(GString *s, const char *text) {
  esc(s, text);
  g_string_append_c(s, '\n');
}

/* "-p, --policy=P": bold names, italic argument. */
static void option_spec(GString *s, const char *spec) {
  g_auto(GStrv) names = g_strsplit(spec, ", ", -1);
  for (char **n = names; *n; n++) {
    char *eq = strchr(*n, '=');
    if (eq) *eq = '\0';
    g_string_append(s, n == names ? "\\fB" : ", \\fB");
    esc(s, *n);
    g_string_append(s, "\\fR");
    if (eq) {
      g_string_append(s, "=\\fI");
      esc(s, eq + 1);
      g_string_append(s, "\\fR");
    }
  }
  g_string_append_c(s, '\n');
}

/* Help text as paragraphs: blank lines part them, indented lines stay as
 * they are (examples, tables), the rest is filled. */
static void prose(GString *s, char **lines) {
  gboolean verbatim = FALSE;
  for (char **l = lines; *l; l++) {
    gboolean indented = (*l)[0] == ' ';
    if (!**l) {
      if (verbatim) g_string_append(s, ".fi\n");
      verbatim = FALSE;
      if (l[1] && *l[1]) g_string_append(s, ".PP\n");
      continue;
    }
    if (indented != verbatim) g_string_append(s, indented ? ".nf\n" : ".fi\n");
    verbatim = indented;
    line(s, indented ? *l + 2 : *l);
  }
  if (verbatim) g_string_append(s, ".fi\n");
}

/* The stdout of this binary run with ARGS (NULL-terminated). */
static gboolean run_self(const char *exe, const char *const *args, char **out, GError **error) {
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)exe);
  for (const char *const *a = args; *a; a++) g_ptr_array_add(argv, (gpointer)*a);
  g_ptr_array_add(argv, NULL);
  int status = 0;
  gboolean ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, out, NULL,
                             &status, error) &&
                g_spawn_check_wait_status(status, error);
  g_ptr_array_free(argv, TRUE);
  return ok;
}

/* One command's subsection, from its --help text HELP. */
static void command_section(GString *s, const char *help) {
  g_auto(GStrv) lines = g_strsplit(help, "\n", -1);
  char **l = lines;
  while (*l && !g_str_has_prefix(*l, "  pcsim ")) l++;
  if (!*l) return;
  g_string_append(s, ".SS \"");
  esc(s, g_strstrip(*l++));
  g_string_append(s, "\"\n");
  while (*l && !g_str_has_suffix(*l, "Options:")) { /* the summary */
    if (**l) line(s, *l);
    l++;
  }
  while (*l && g_str_has_suffix(*l, "Options:")) {
    gboolean help_block = g_str_has_prefix(*l, "Help");
    for (l++; *l && **l; l++) {
      if (help_block) continue;
      char *spec = g_strchug(*l);
      char *gap = strstr(spec, "  ");
      g_string_append(s, ".TP\n");
      if (gap) *gap = '\0';
      option_spec(s, spec);
      if (gap) line(s, g_strchug(gap + 2));
    }
    while (*l && !**l) l++;
  }
  if (*l) {
    g_string_append(s, ".PP\n");
    prose(s, l);
  }
}

static const char exit_status[] =
    ".TP\n.B 0\nsuccess\n.TP\n.B 1\nan output could not be written\n"
    ".TP\n.B 2\nbad input or usage; nothing is written\n"
    ".TP\n.B 130\\fR, \\fB143\ninterrupted by SIGINT or SIGTERM; nothing is written\n";

static const char *const examples[][2] = {
  {"pcsim scenarios", "the shipped scenarios"},
  {"pcsim run liubo-2011 --policy immediate --policy pool:16", "the seed scenario under two policies"},
  {"pcsim run job.fio --model linux-6.18-btrfs", "a fio job on the Linux 6.18 btrfs scenario (the default model)"},
  {"pcsim scenarios --show linux-6.18-btrfs > my.ini", "a copy to edit; then: pcsim run my.ini"},
  {"pcsim sweep liubo-2011 --vary workload.threads=1,2,4,8 --out t.csv", "a sweep of thread counts"},
  {"pcsim plot t.csv --x workload.threads --y bios_per_mib", "its plot, with gnuplot"},
  {"pcsim replay liubo-diagram", "the seed's four-thread picture in the step model"},
};

static gboolean man_page(GString *s, GError **error) {
  g_autofree char *exe = g_file_read_link("/proc/self/exe", error);
  if (!exe) return FALSE;
  g_autofree char *main_help = NULL;
  const char *const main_args[] = {"--help", NULL};
  if (!run_self(exe, main_args, &main_help, error)) return FALSE;
  size_t n;
  const PcsCliCommand *cmds = pcs_cli_commands(&n);
  g_string_append_printf(s, ".TH PCSIM 1 \"\" \"pcsim %s\" \"User Commands\"\n", pcs_version());
  g_string_append(s, ".nh\n.ad l\n"); /* options are not hyphenated, nor spread */
  g_string_append(s, ".SH NAME\npcsim \\- simulate Linux page\\-cache inserts and bio submission of threads reading "
                     "a file\n.SH SYNOPSIS\n");
  for (size_t i = 0; i < n; i++) {
    g_autofree char *help = NULL;
    const char *const args[] = {cmds[i].name, "--help", NULL};
    if (!run_self(exe, args, &help, error)) return FALSE;
    g_auto(GStrv) lines = g_strsplit(help, "\n", -1);
    for (char **l = lines; *l; l++)
      if (g_str_has_prefix(*l, "  pcsim ")) {
        g_string_append(s, i ? ".br\n" : "");
        line(s, g_strstrip(*l));
        break;
      }
  }
  g_string_append(s, ".SH DESCRIPTION\n");
  { /* pcsim --help without its "Usage:" line and command list */
    g_auto(GStrv) lines = g_strsplit(main_help, "\n", -1);
    GPtrArray *keep = g_ptr_array_new();
    gboolean in_list = FALSE;
    for (char **l = lines + 1; *l; l++) {
      if (g_str_has_prefix(*l, "Commands:")) in_list = TRUE;
      else if (in_list && !**l) in_list = FALSE;
      else if (!in_list) g_ptr_array_add(keep, *l);
    }
    while (keep->len && !*(char *)keep->pdata[0]) g_ptr_array_remove_index(keep, 0);
    g_ptr_array_add(keep, NULL);
    prose(s, (char **)keep->pdata);
    g_ptr_array_free(keep, TRUE);
  }
  g_string_append(s, ".SH COMMANDS\n");
  for (size_t i = 0; i < n; i++) {
    g_autofree char *help = NULL;
    const char *const args[] = {cmds[i].name, "--help", NULL};
    if (!run_self(exe, args, &help, error)) return FALSE;
    command_section(s, help);
  }
  g_string_append(s, ".SH \"YOUR OWN KERNEL\"\n");
  line(s, "Installed beside pcsim, two programs take a machine from a kernel capture to a calibrated prediction "
          "(docs/kernel-traces.md in the source tree has the whole path):");
  g_string_append(s, ".TP\n.B ");
  line(s, "pcsim-capture-kernel-trace --job JOB.fio --out DIR --loop-fs btrfs --loop-size 3G --numjobs 1,4 "
          "--bdi-read-ahead-kb 128,4096 --repeat 3");
  line(s, "As root: runs the fio job under ftrace (block, readahead and page-cache events) on a direct-I/O loop "
          "device it formats (or --device DEV), each combination of threads and read_ahead_kb, and writes "
          "DIR/NAME-repI/ with the trace, the job and fio's JSON, and DIR/machine.txt. --help lists every option.");
  g_string_append(s, ".TP\n.B ");
  line(s, "pcsim-predict-capture DIR [--compare]");
  line(s, "pcsim calibrate of DIR's two one-thread runs into DIR/host.ini, then every configuration predicted on "
          "it (median over seeds); --compare reads the real runs beside each row.");
  g_string_append(s, ".SH FILES\n.TP\n.I " PCSIM_DATADIR "/pcsim/\n");
  line(s, "The shipped scenarios, as installed (under PREFIX/share/pcsim/ for another prefix), to copy and edit. "
          "The same files are compiled into pcsim, which runs them by name from any directory: "
          "`pcsim scenarios` lists them, `pcsim scenarios --show NAME` prints one.");
  g_auto(GStrv) files = pcs_scenario_files(PCS_SCENARIO_ANY);
  for (char **f = files; *f; f++) {
    g_autofree char *about = pcs_scenario_describe(*f, 200);
    g_string_append(s, ".TP\n.I ");
    line(s, *f);
    line(s, about);
  }
  g_string_append(s, ".SH \"EXIT STATUS\"\n");
  g_string_append(s, exit_status);
  g_string_append(s, ".SH EXAMPLES\n");
  for (size_t i = 0; i < G_N_ELEMENTS(examples); i++) {
    g_string_append(s, ".TP\n.B ");
    line(s, examples[i][0]);
    line(s, examples[i][1]);
  }
  g_string_append(s, ".SH \"SEE ALSO\"\n.BR fio (1),\n.BR blkparse (1),\n.BR btt (1),\n.BR gnuplot (1)\n");
  return TRUE;
}

int pcs_cmd_man(int argc, char **argv) {
  if (argc != 2) return pcs_cli_usage_error("expected one output FILE");
  GError *error = NULL;
  g_autoptr(GString) s = g_string_new(NULL);
  if (!man_page(s, &error) || !pcs_cli_write_file(argv[1], s, &error)) return pcs_cli_fail(error);
  return PCS_EXIT_OK;
}
