/* plot.c - turning result files into gnuplot scripts and running gnuplot.
 *
 * Models nothing.  Axis labels come from the column list (report.h) and the
 * parameter list (params.h), so a plot names its units the way the CSV and
 * `pcsim params` do; time columns are shown in us and sizes in KiB when that
 * reads better.  Data is inlined as gnuplot datablocks so one script file
 * reproduces the figure.
 */
#include "pcsim/plot.h"

#include <math.h>
#include <string.h>

static const char *const terminal_names[] = {
#define X(name, text) text,
  PCS_PLOT_TERMINALS(X)
#undef X
};

gboolean pcs_plot_terminal_parse(const char *text, PcsPlotTerminal *out, GError **error) {
  for (size_t i = 0; i < G_N_ELEMENTS(terminal_names); i++)
    if (!strcmp(text, terminal_names[i])) {
      *out = (PcsPlotTerminal)i;
      return TRUE;
    }
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--terminal '%s': expected png, svg or dumb", text);
  return FALSE;
}

static void quoted(GString *out, const char *s) {
  g_string_append_c(out, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') g_string_append_c(out, '\\');
    g_string_append_c(out, *s);
  }
  g_string_append_c(out, '"');
}

/* ---- axes ---- */

typedef struct {
  int col;
  double scale;  /* value shown = value / scale */
  char *label;
} Axis;

static const char *scenario_value(const PcsResults *r, const char *key) {
  size_t n = strlen(key);
  for (guint i = 0; i < r->scenario->len; i++) {
    const char *a = g_ptr_array_index(r->scenario, i);
    if (!strncmp(a, key, n) && a[n] == '=') return a + n + 1;
  }
  return NULL;
}

static double cell_number(const char *cell, gboolean *ok) {
  char *end;
  double v = g_ascii_strtod(cell, &end);
  *ok = *cell && !*end && isfinite(v);
  return v;
}

static double column_min(const PcsResults *r, int col) {
  double lo = INFINITY;
  for (guint i = 0; i < r->rows->len; i++) {
    gboolean ok;
    double v = cell_number(((char **)g_ptr_array_index(r->rows, i))[col], &ok);
    if (ok && v < lo) lo = v;
  }
  return lo;
}

static gboolean axis_init(Axis *a, const PcsResults *r, const char *column, GError **error) {
  a->col = pcs_results_column(r, column);
  a->scale = 1;
  if (a->col < 0) {
    g_autoptr(GString) cols = g_string_new(NULL);
    for (guint i = 0; i < r->columns->len; i++)
      g_string_append_printf(cols, "%s%s", i ? ", " : "", (char *)g_ptr_array_index(r->columns, i));
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: no column '%s' (columns: %s)", r->path, column, cols->str);
    return FALSE;
  }
  const char *label = pcs_report_column_label(column);
  const PcsParamInfo *info = pcs_params_find_dotted(column);
  if (label) {
    a->label = g_strdup(label);
  } else if (!strcmp(column, "workload.threads")) {
    a->label = g_strdup("reader threads (workload.threads)");
  } else if (!strcmp(column, "pool")) {
    a->label = g_strdup("pool size (pages)");
  } else if (info && info->kind == PCS_KIND_TIME) {
    gboolean us = column_min(r, a->col) >= PCS_NS_PER_US;
    a->scale = us ? PCS_NS_PER_US : 1;
    a->label = g_strdup_printf("%s (%s)", column, us ? "us" : "ns");
  } else if (info && (info->kind == PCS_KIND_SIZE || info->kind == PCS_KIND_RATE)) {
    gboolean kib = column_min(r, a->col) >= PCS_KIB;
    a->scale = kib ? PCS_KIB : 1;
    a->label = g_strdup_printf("%s (%s%s)", column, kib ? "KiB" : "bytes", info->kind == PCS_KIND_RATE ? "/s" : "");
  } else {
    a->label = g_strdup(column);
  }
  return TRUE;
}

/* ---- script ---- */

static void preamble(GString *out, const PcsResults *r, const PcsPlotSpec *spec, const char *what) {
  switch (spec->terminal) {
  case PCS_PLOT_PNG: g_string_append(out, "set terminal pngcairo size 960,600 font 'DejaVu Sans,12' noenhanced\n"); break;
  case PCS_PLOT_SVG: g_string_append(out, "set terminal svg size 960,600 font 'DejaVu Sans,12' noenhanced\n"); break;
  case PCS_PLOT_DUMB: g_string_append(out, "set terminal dumb size 100,32 noenhanced\n"); break;
  }
  if (spec->output) {
    g_string_append(out, "set output ");
    quoted(out, spec->output);
    g_string_append_c(out, '\n');
  }
  const char *name = scenario_value(r, "scenario.name");
  g_autofree char *title = spec->title ? g_strdup(spec->title)
                                       : g_strdup_printf("%s: %s", name ? name : r->path, what);
  g_string_append(out, "set title ");
  quoted(out, title);
  g_string_append(out, "\nset grid\nset key top left box opaque\n");
}

typedef struct {
  double x, y;
} Point;

static gint point_cmp(gconstpointer a, gconstpointer b) {
  double x = ((const Point *)a)->x, y = ((const Point *)b)->x;
  return (x > y) - (x < y);
}

/* --where KEY=VALUE: the row's cell equals VALUE (as text or as number). */
static gboolean row_selected(const PcsResults *r, char **cells, char **where) {
  for (char **w = where; w && *w; w++) {
    const char *eq = strchr(*w, '=');
    g_autofree char *key = g_strndup(*w, (gsize)(eq - *w));
    const char *cell = cells[pcs_results_column(r, key)];
    gboolean a, b;
    double x = cell_number(cell, &a), y = cell_number(eq + 1, &b);
    if (strcmp(cell, eq + 1) != 0 && !(a && b && x == y)) return FALSE;
  }
  return TRUE;
}

static gboolean check_where(const PcsResults *r, char **where, GError **error) {
  for (char **w = where; w && *w; w++) {
    const char *eq = strchr(*w, '=');
    g_autofree char *key = eq ? g_strndup(*w, (gsize)(eq - *w)) : NULL;
    if (!eq || pcs_results_column(r, key) < 0) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--where '%s': expected COLUMN=VALUE with a column of %s", *w,
                  r->path);
      return FALSE;
    }
  }
  return TRUE;
}

/* Rows grouped by the --by cell, groups in order of first appearance. */
static gboolean collect_series(const PcsResults *r, const Axis *ax, const Axis *ay, int by, char **spec_where,
                               GPtrArray *names, GPtrArray *series, GError **error) {
  g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < r->rows->len; i++) {
    char **cells = g_ptr_array_index(r->rows, i);
    if (!row_selected(r, cells, spec_where)) continue;
    const char *key = by >= 0 ? cells[by] : "";
    gpointer slot;
    if (!g_hash_table_lookup_extended(index, key, NULL, &slot)) {
      slot = GUINT_TO_POINTER(series->len);
      g_hash_table_insert(index, (gpointer)key, slot);
      g_ptr_array_add(names, (gpointer)key);
      g_ptr_array_add(series, g_array_new(FALSE, FALSE, sizeof(Point)));
    }
    gboolean okx, oky;
    Point p = {cell_number(cells[ax->col], &okx) / ax->scale, cell_number(cells[ay->col], &oky) / ay->scale};
    if (!okx || !oky) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: row %u: '%s' is not a number", r->path, i + 1,
                  cells[!okx ? ax->col : ay->col]);
      return FALSE;
    }
    g_array_append_val(g_ptr_array_index(series, GPOINTER_TO_UINT(slot)), p);
  }
  return TRUE;
}

static char *series_title(const PcsPlotSpec *spec, const char *value) {
  if (!spec->by) return g_strdup(spec->y);
  if (!strcmp(spec->by, "policy")) return g_strdup(value);
  if (!strcmp(spec->by, "workload.threads") || !strcmp(spec->by, "threads"))
    return g_strdup_printf("%s thread%s", value, strcmp(value, "1") ? "s" : "");
  if (!strcmp(spec->by, "pool")) return g_strdup_printf("pool:%s", value);
  return g_strdup_printf("%s=%s", spec->by, value);
}

static gboolean line_plot(const PcsResults *r, const PcsPlotSpec *spec, GString *out, GError **error) {
  Axis ax = {0}, ay = {0};
  g_autoptr(GPtrArray) names = g_ptr_array_new();
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  int by = spec->by ? pcs_results_column(r, spec->by) : -1;
  gboolean ok = axis_init(&ax, r, spec->x, error) && axis_init(&ay, r, spec->y, error);
  if (ok && spec->by && by < 0) {
    Axis tmp = {0};
    ok = axis_init(&tmp, r, spec->by, error);
  }
  if (ok) ok = check_where(r, spec->where, error) && collect_series(r, &ax, &ay, by, spec->where, names, series, error);
  if (ok && !series->len) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: no row matches --where", r->path);
    ok = FALSE;
  }
  if (ok) {
    g_autofree char *what = g_strdup_printf("%s against %s", ay.label, ax.label);
    preamble(out, r, spec, what);
    g_string_append(out, "set xlabel ");
    quoted(out, ax.label);
    g_string_append(out, "\nset ylabel ");
    quoted(out, ay.label);
    g_string_append_printf(out, "\n%s%s", spec->logx ? "set logscale x\n" : "", spec->logy ? "set logscale y\n" : "");
    if (!spec->logy) g_string_append(out, "set yrange [0:*]\n");
    for (guint s = 0; s < series->len; s++) {
      GArray *pts = g_ptr_array_index(series, s);
      g_array_sort(pts, point_cmp);
      for (guint i = 1; i < pts->len; i++)
        if (g_array_index(pts, Point, i).x == g_array_index(pts, Point, i - 1).x) {
          g_printerr("pcsim: note: line '%s' has several rows at %s = %g: narrow it with --where or --by\n",
                     (char *)g_ptr_array_index(names, s), spec->x, g_array_index(pts, Point, i).x);
          break;
        }
      g_string_append_printf(out, "$s%u << EOD\n", s);
      for (guint i = 0; i < pts->len; i++) {
        Point *p = &g_array_index(pts, Point, i);
        g_string_append_printf(out, "%.10g %.10g\n", p->x, p->y);
      }
      g_string_append(out, "EOD\n");
    }
    g_string_append(out, "plot ");
    for (guint s = 0; s < series->len; s++) {
      g_autofree char *t = series_title(spec, g_ptr_array_index(names, s));
      g_string_append_printf(out, "%s$s%u using 1:2 with linespoints lw 2 pt 7 ps 0.8 title ", s ? ", \\\n     " : "", s);
      quoted(out, t);
    }
    g_string_append_c(out, '\n');
  }
  g_free(ax.label);
  g_free(ay.label);
  return ok;
}

/* Power-of-two size classes of bio_pages_hist: class c holds bios of
 * (2^(c-1), 2^c] pages. */
#define HIST_CLASSES 21

static gboolean histogram_plot(const PcsResults *r, const PcsPlotSpec *spec, GString *out, GError **error) {
  int pc = pcs_results_column(r, "policy");
  guint64 bins[64][HIST_CLASSES] = {{0}};
  guint nser = MIN(r->rows->len, 64), top = 0;
  for (guint i = 0; i < nser; i++) {
    GArray *h = g_ptr_array_index(r->hists, i);
    if (!h || pc < 0) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                  "%s: --histogram needs bio_pages_hist: the JSON of `pcsim run --format json`", r->path);
      return FALSE;
    }
    for (guint k = 1; k < h->len; k++) {
      guint c = 0;
      while (c + 1 < HIST_CLASSES && (1u << c) < k) c++;
      bins[i][c] += g_array_index(h, guint64, k);
      if (g_array_index(h, guint64, k)) top = MAX(top, c);
    }
  }
  preamble(out, r, spec, "bios by size");
  g_string_append(out, "set xlabel \"bio size (KiB, up to)\"\nset ylabel \"bios\"\nset logscale y\n"
                       "set style data histograms\nset style histogram clustered gap 1\n"
                       "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset yrange [0.8:*]\n$h << EOD\n");
  for (guint c = 0; c <= top; c++) {
    g_string_append_printf(out, "%u", 4u << c);
    for (guint i = 0; i < nser; i++) g_string_append_printf(out, " %" G_GUINT64_FORMAT, bins[i][c]);
    g_string_append_c(out, '\n');
  }
  g_string_append(out, "EOD\nplot ");
  for (guint i = 0; i < nser; i++) {
    g_string_append_printf(out, "%s$h using %u:xtic(1) title ", i ? ", " : "", i + 2);
    quoted(out, ((char **)g_ptr_array_index(r->rows, i))[pc]);
  }
  g_string_append_c(out, '\n');
  return TRUE;
}

gboolean pcs_plot_script(const PcsResults *r, const PcsPlotSpec *spec, GString *out, GError **error) {
  if (!r->rows->len) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: no result rows to plot", r->path);
    return FALSE;
  }
  return spec->histogram ? histogram_plot(r, spec, out, error) : line_plot(r, spec, out, error);
}

gboolean pcs_plot_gnuplot(const char *script, GString *out, GError **error) {
  g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "plot: gnuplot is not installed; install it with `apt-get install gnuplot-nox` "
                "(Debian/Ubuntu) or your system's gnuplot package");
    return FALSE;
  }
  char *argv[] = {gnuplot, (char *)script, NULL};
  g_autofree char *sout = NULL, *serr = NULL;
  int status = 0;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &sout, &serr, &status, error)) return FALSE;
  if (!g_spawn_check_wait_status(status, NULL)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "plot: gnuplot failed: %s", serr ? g_strstrip(serr) : "");
    return FALSE;
  }
  g_string_append(out, sout);
  return TRUE;
}
