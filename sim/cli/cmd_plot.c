/* cmd_plot.c - `pcsim plot`: a result file drawn by gnuplot.
 *
 * Builds the gnuplot script (plot.c), runs gnuplot with its output going to
 * a temporary file that becomes FILE when gnuplot succeeded (renamed over
 * it, or copied to a device or pipe such as /dev/stdout: PcsCliOutput).  --terminal dumb
 * (the default without --out) draws in the terminal.
 */
#include "cli.h"

#include "pcsim/fio.h"
#include "pcsim/plot.h"
#include "pcsim/results.h"
#include "pcsim/text.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char *x, *y, *by, *out, *terminal, *title, *script, *pages, *policy;
  char **where;
  gboolean logx, logy, histogram, timeline;
} PlotOpts;

static void plot_opts_clear(PlotOpts *o) {
  g_free(o->x), g_free(o->y), g_free(o->by), g_free(o->out);
  g_free(o->terminal), g_free(o->title), g_free(o->script), g_free(o->pages), g_free(o->policy);
  g_strfreev(o->where);
}

/* The terminal an output file's extension names: .png, .svg, else none. */
static const char *extension_terminal(const char *out) {
  return !out ? NULL : g_str_has_suffix(out, ".png") ? "png" : g_str_has_suffix(out, ".svg") ? "svg" : NULL;
}

/* --terminal, else the one --out's extension names, else dumb without --out;
 * a --terminal that contradicts --out's extension is refused. */
static gboolean plot_terminal(const PlotOpts *o, PcsPlotTerminal *t, GError **error) {
  const char *named = extension_terminal(o->out);
  if (o->terminal) {
    if (!pcs_plot_terminal_parse(o->terminal, t, error)) return FALSE;
    PcsPlotTerminal want;
    if (named && pcs_plot_terminal_parse(named, &want, NULL) && want != *t) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--terminal %s: --out %s names a .%s file (drop --terminal, or "
                  "name the file for the terminal)", o->terminal, o->out, named);
      return FALSE;
    }
    return TRUE;
  }
  if (!o->out) return *t = PCS_PLOT_DUMB, TRUE;
  if (named) return pcs_plot_terminal_parse(named, t, error);
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--out %s: expected a .png or .svg file (or --terminal)", o->out);
  return FALSE;
}

/* The script for a result file R, or for the trace file of --timeline. */
static gboolean plot_script(const PcsResults *r, const char *trace, const PcsPlotSpec *spec, GString *out,
                            GError **error) {
  return trace ? pcs_plot_timeline_script(trace, spec, out, error) : pcs_plot_script(r, spec, out, error);
}

/* --pages A-B (default: the 32 pages after the trace's first readahead window). */
static gboolean plot_pages(const char *text, PcsPlotSpec *spec, GError **error) {
  spec->pages_given = text != NULL;
  if (!text) return TRUE;
  g_auto(GStrv) ab = g_strsplit(text, "-", 2);
  if (!ab[0] || !ab[1] || !pcs_parse_u64(ab[0], &spec->first_page) || !pcs_parse_u64(ab[1], &spec->last_page) ||
      spec->first_page > spec->last_page) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--pages '%s': expected A-B with A <= B, e.g. 16-47", text);
    return FALSE;
  }
  return TRUE;
}

/* What a file other than plot's input is, from its first line that is
 * not blank or a comment; NULL for what may be a result file or a trace
 * of `pcsim run --trace` (their loaders judge those). */
static const char *plot_other_input(const char *path, const char *text) {
  g_auto(GStrv) lines = g_strsplit(text, "\n", 64);
  for (char **l = lines; *l; l++) {
    const char *w = *l;
    while (g_ascii_isspace(*w)) w++;
    if (!*w || *w == '#' || *w == ';') continue;
    if (*w == '[') return pcs_fio_is_job_file(path) ? "a fio job file" : "a scenario";
    if (g_str_has_prefix(w, "threads ") || g_str_has_prefix(w, "pages ") || g_str_has_prefix(w, "steps "))
      return "a schedule of `pcsim replay`";
    guint maj, min;
    if (strstr(w, "block_bio_queue:") || strstr(w, "block_rq_issue:") || strstr(w, "tracer: ") ||
        sscanf(w, "%u,%u ", &maj, &min) == 2)
      return "a kernel block trace";
    return NULL;
  }
  return NULL;
}

/* Refuses, saying what plot takes, a scenario, fio job, schedule or kernel
 * trace given as RESULTS (`pcsim plot st.ini`), before its loader would
 * misread it as a CSV. */
static gboolean plot_input_check(const char *path, const PlotOpts *o, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_GZIP, &text, NULL, NULL)) return TRUE; /* the loader says why */
  const char *what = plot_other_input(path, text);
  if (!what) return TRUE;
  if (!strcmp(what, "a kernel block trace"))
    return pcs_input_error(error, path, 0, "is %s, not a result file: read it with `pcsim trace-stats %s` or hold it "
                           "against a scenario with `pcsim compare %s SCENARIO`", what, path, path);
  if (!strcmp(what, "a schedule of `pcsim replay`"))
    return pcs_input_error(error, path, 0, "is %s, not a result file: `pcsim replay %s` prints its bios", what, path);
  if (o->timeline)
    return pcs_input_error(error, path, 0, "is %s, not a trace: run it with `pcsim run %s --policy P --trace r.tsv`, "
                           "then `pcsim plot r.tsv --timeline`", what, path);
  if (o->histogram)
    return pcs_input_error(error, path, 0, "is %s, not a result file: run it with `pcsim run %s --format json > r.json`, "
                           "then `pcsim plot r.json --histogram`", what, path);
  return pcs_input_error(error, path, 0, "is %s, not a result file: run it with `pcsim run %s --format csv > r.csv` "
                         "(or `pcsim sweep %s --vary KEY=LIST --out r.csv`), then plot r.csv", what, path, path);
}

/* gnuplot runs SCRIPT from a temporary file; what it prints (the dumb
 * terminal's drawing) into DRAWN. */
static gboolean run_gnuplot(const GString *script, GString *drawn, GError **error) {
  g_autofree char *script_path = NULL;
  int fd = g_file_open_tmp("pcsim-plot-XXXXXX.gp", &script_path, error);
  if (fd < 0) return FALSE;
  gboolean ok = write(fd, script->str, script->len) == (ssize_t)script->len;
  close(fd);
  if (!ok) g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "%s: cannot write the gnuplot script", script_path);
  if (ok) ok = pcs_plot_gnuplot(script_path, drawn, error);
  g_unlink(script_path);
  return ok;
}

/* The figure: gnuplot draws into OUT's temporary file, which becomes OUT
 * when drawn (renamed over it, or copied to a device or pipe:
 * PcsCliOutput), or in the terminal.  The saved --script draws into OUT
 * itself and is written only when the figure was made. */
static gboolean plot_render(const PcsResults *r, const char *trace, const PlotOpts *o, PcsPlotSpec *spec,
                            GError **error) {
  PcsCliOutput out = {0};
  if (o->out && !pcs_cli_output_open(&out, o->out, error)) return FALSE;
  if (out.f) fclose(out.f), out.f = NULL; /* gnuplot writes the temporary file by its name */
  g_autoptr(GString) saved = g_string_new(NULL);
  g_autoptr(GString) script = g_string_new(NULL);
  g_autoptr(GString) drawn = g_string_new(NULL);
  gboolean ok = TRUE;
  if (o->script) {
    spec->output = o->out;
    ok = plot_script(r, trace, spec, saved, error);
  }
  spec->output = out.tmp;
  spec->quiet = o->script != NULL; /* its notes came with the saved script */
  ok = ok && plot_script(r, trace, spec, script, error) && run_gnuplot(script, drawn, error);
  if (o->out && ok) ok = pcs_cli_output_commit(&out, error);
  else if (o->out) pcs_cli_output_abort(&out);
  if (ok && o->script) ok = pcs_cli_write_file(o->script, saved, error);
  if (ok && !o->out) ok = pcs_cli_write_file(NULL, drawn, error);
  return ok;
}

int pcs_cmd_plot(int argc, char **argv) {
  PlotOpts o = {0};
  GOptionEntry entries[] = {
    {"x", 'x', 0, G_OPTION_ARG_STRING, &o.x, "Column on the x axis, e.g. pool, workload.threads, device.latency", "KEY"},
    {"y", 'y', 0, G_OPTION_ARG_STRING, &o.y, "Column on the y axis, e.g. bios_per_mib, aggregate_mib_s", "KEY"},
    {"by", 'b', 0, G_OPTION_ARG_STRING, &o.by, "One line per value of this column, e.g. policy", "KEY"},
    {"where", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &o.where,
     "Only rows whose column equals VALUE, e.g. --where workload.threads=4 (repeatable)", "KEY=VALUE"},
    {"logx", 0, 0, G_OPTION_ARG_NONE, &o.logx, "Logarithmic x axis", NULL},
    {"logy", 0, 0, G_OPTION_ARG_NONE, &o.logy, "Logarithmic y axis", NULL},
    {"histogram", 0, 0, G_OPTION_ARG_NONE, &o.histogram,
     "Bio size histogram per policy, from the JSON of `pcsim run --format json` (no --x/--y)", NULL},
    {"timeline", 0, 0, G_OPTION_ARG_NONE, &o.timeline,
     "The seed's diagram as a picture, from the trace of `pcsim run --trace FILE` (RESULTS is that file): one "
     "column per thread, adds and reads down the page, each bio a bracket (no --x/--y)", NULL},
    {"pages", 0, 0, G_OPTION_ARG_STRING, &o.pages, "With --timeline: the file pages shown (default: the 32 after the first readahead window, as `pcsim run "
     "--timeline`; at most 500 events are drawn)", "A-B"},
    {"policy", 'p', 0, G_OPTION_ARG_STRING, &o.policy,
     "With --timeline: the policy shown, when the trace holds several runs", "P"},
    {"title", 't', 0, G_OPTION_ARG_STRING, &o.title, "Plot title (default: scenario name and axes)", "TEXT"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "Write FILE.png (pngcairo) or FILE.svg (svg), atomically", "FILE"},
    {"terminal", 0, 0, G_OPTION_ARG_STRING, &o.terminal, "png, svg or dumb (text in the terminal; the default without --out)", "T"},
    {"script", 0, 0, G_OPTION_ARG_FILENAME, &o.script, "Also save the gnuplot script (data inline) to FILE", "FILE"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
  g_autoptr(GOptionContext) ctx = pcs_cli_context("RESULTS - plot a pcsim CSV or JSON result file with gnuplot",
      "Examples:\n"
      "  pcsim sweep liubo-2011 --vary workload.threads=1,2,4,8 --vary pool=1..64*2 --out pool.csv\n"
      "  pcsim plot pool.csv --x pool --y bios_per_mib --by workload.threads --logx --out pool.png\n"
      "  pcsim run liubo-2011 --format json > seed.json\n"
      "  pcsim plot seed.json --histogram --out hist.svg\n"
      "  pcsim run liubo-2011 --policy immediate --trace seed.tsv\n"
      "  pcsim plot seed.tsv --timeline --pages 16-47 --out race.svg\n"
      "Needs gnuplot (Debian: apt-get install gnuplot-nox).  Exit status 2 for bad\n"
      "input or a missing gnuplot, 1 when the output could not be written or\n"
      "gnuplot failed (its message is passed on).", entries);
  GError *error = NULL;
  int rc = 0;
  PcsResults r = {0};
  PcsPlotSpec spec = {0};
  if (!pcs_cli_parse(ctx, &argc, &argv, &error)) {
    rc = pcs_cli_fail(error);
  } else if (argc != 2) {
    rc = pcs_cli_usage_error("expected one RESULTS file");
  } else if (!plot_input_check(argv[1], &o, &error)) {
    rc = pcs_cli_fail(error);
  } else if (!o.histogram && !o.timeline && (!o.x || !o.y)) {
    rc = pcs_cli_usage_error("--x KEY and --y KEY are required (or --histogram, or --timeline)");
  } else if (!o.timeline && (o.pages || o.policy)) {
    rc = pcs_cli_usage_error("--pages and --policy choose what --timeline shows: add --timeline");
  } else if (o.timeline && (o.histogram || o.x || o.y || o.by || o.where || o.logx || o.logy)) {
    rc = pcs_cli_usage_error("--timeline draws a trace file: no --x, --y, --by, --where, --logx, --logy or --histogram");
  } else if (!pcs_cli_output_check("--out", o.out, FALSE, &error) ||
             !pcs_cli_output_check("--script", o.script, FALSE, &error) || !plot_terminal(&o, &spec.terminal, &error) ||
             !plot_pages(o.pages, &spec, &error) ||
             (!o.timeline && !pcs_results_load(&r, argv[1], &error))) {
    rc = pcs_cli_fail(error);
  } else {
    spec.policy = o.policy;
    spec.x = o.x, spec.y = o.y, spec.by = o.by, spec.where = o.where, spec.logx = o.logx, spec.logy = o.logy;
    spec.histogram = o.histogram, spec.title = o.title;
    if (!plot_render(&r, o.timeline ? argv[1] : NULL, &o, &spec, &error)) {
      if (pcs_cli_signal) { /* gnuplot died of the same Ctrl-C */
        g_clear_error(&error);
        g_set_error(&error, PCS_ERROR, PCS_ERROR_CANCELLED, "interrupted");
      }
      rc = pcs_cli_fail(error);
    }
  }
  if (r.path) pcs_results_clear(&r);
  plot_opts_clear(&o);
  return rc;
}
