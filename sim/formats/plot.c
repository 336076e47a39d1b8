/* plot.c - turning result files into gnuplot scripts and running gnuplot.
 *
 * Models nothing.  Axis labels come from the column list (report.h) and the
 * parameter list (params.h), so a plot names its units the way the CSV and
 * `pcsim params` do; time columns are shown in us and sizes in KiB when that
 * reads better.  Data is inlined as gnuplot datablocks so one script file
 * reproduces the figure.
 */
#include "pcsim/plot.h"
#include "pcsim/text.h"

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
    if (*s == '\n') {
      g_string_append(out, "\\n"); /* a line break in a title */
      continue;
    }
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

/* "device.latency" -> "device latency", "cost.read_setup" -> "read setup
 * cost": a parameter's key as words, the section last where it names what
 * the key is (a cost, a limit of the block layer). */
static char *readable_name(const char *dotted) {
  const char *dot = strchr(dotted, '.');
  g_autofree char *section = dot ? g_strndup(dotted, (gsize)(dot - dotted)) : g_strdup("");
  g_autofree char *key = g_strdup(dot ? dot + 1 : dotted);
  g_strdelimit(key, "_", ' ');
  if (!strcmp(section, "cost")) return g_strdup_printf("%s cost", key);
  if (!strcmp(section, "workload") || !strcmp(section, "scenario") || !*section) return g_strdup(key);
  return g_strdup_printf("%s %s", section, key);
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
    g_autofree char *name = readable_name(column);
    a->scale = us ? PCS_NS_PER_US : 1;
    a->label = g_strdup_printf("%s (%s)", name, us ? "us" : "ns");
  } else if (info && (info->kind == PCS_KIND_SIZE || info->kind == PCS_KIND_RATE)) {
    gboolean kib = column_min(r, a->col) >= PCS_KIB;
    g_autofree char *name = readable_name(column);
    a->scale = kib ? PCS_KIB : 1;
    a->label = g_strdup_printf("%s (%s%s)", name, kib ? "KiB" : "bytes", info->kind == PCS_KIND_RATE ? "/s" : "");
  } else if (info) {
    g_autofree char *name = readable_name(column);
    a->label = info->kind == PCS_KIND_COUNT ? g_strdup(name) : g_strdup_printf("%s (%s)", name, pcs_params_kind_unit(info->kind));
  } else {
    a->label = g_strdup(column);
  }
  return TRUE;
}

/* ---- script ---- */

/* The terminal, W x H pixels, and the output file. */
static void terminal(GString *out, const PcsPlotSpec *spec, guint w, guint h, guint font) {
  switch (spec->terminal) {
  case PCS_PLOT_PNG: g_string_append_printf(out, "set terminal pngcairo size %u,%u font 'DejaVu Sans,%u' noenhanced\n", w, h, font); break;
  case PCS_PLOT_SVG: g_string_append_printf(out, "set terminal svg size %u,%u font 'DejaVu Sans,%u' noenhanced\n", w, h, font); break;
  case PCS_PLOT_DUMB: g_string_append(out, "set terminal dumb size 100,32 noenhanced\n"); break;
  }
  if (spec->output) {
    g_string_append(out, "set output ");
    quoted(out, spec->output);
    g_string_append_c(out, '\n');
  }
}

/* The title, and under it the conditions COND shared by every point (or NULL). */
static void title(GString *out, const char *name, const PcsPlotSpec *spec, const char *what, const char *cond) {
  g_autofree char *t = spec->title ? g_strdup(spec->title) : g_strdup_printf("%s: %s", name, what);
  g_autofree char *full = cond ? g_strdup_printf("%s\n%s", t, cond) : g_strdup(t);
  g_string_append(out, "set title ");
  quoted(out, full);
  g_string_append_c(out, '\n');
}

static void preamble(GString *out, const PcsResults *r, const PcsPlotSpec *spec, const char *what, const char *cond) {
  const char *name = scenario_value(r, "scenario.name");
  terminal(out, spec, 960, 600, 12);
  title(out, name ? name : r->path, spec, what, cond);
  /* the key beside the plot, not over its first points */
  g_string_append(out, "set grid\nset key outside right top box opaque\n");
}

typedef struct {
  double x, y;
} Point;

static gint point_cmp(gconstpointer a, gconstpointer b) {
  double x = ((const Point *)a)->x, y = ((const Point *)b)->x;
  return (x > y) - (x < y);
}

/* VALUE of --where KEY=VALUE as a number: a parameter's value in its own
 * units as a scenario file writes it (10us, 32k), else a plain number. */
static double where_number(const char *key, const char *value, gboolean *ok) {
  const PcsParamInfo *info = pcs_params_find_dotted(key);
  uint64_t n;
  if (info && info->kind == PCS_KIND_TIME && pcs_parse_time(value, &n)) return *ok = TRUE, (double)n;
  if (info && (info->kind == PCS_KIND_SIZE || info->kind == PCS_KIND_RATE) && pcs_parse_size(value, &n))
    return *ok = TRUE, (double)n;
  return cell_number(value, ok);
}

/* --where KEY=VALUE: the row's cell equals VALUE (as text or as number). */
static gboolean row_selected(const PcsResults *r, char **cells, char **where) {
  for (char **w = where; w && *w; w++) {
    const char *eq = strchr(*w, '=');
    g_autofree char *key = g_strndup(*w, (gsize)(eq - *w));
    const char *cell = cells[pcs_results_column(r, key)];
    gboolean a, b;
    double x = cell_number(cell, &a), y = where_number(key, eq + 1, &b);
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

/* Does series B lie on series A on the page (same x values, y within 1%)? */
static gboolean same_line(GArray *a, GArray *b) {
  if (a->len != b->len) return FALSE;
  for (guint i = 0; i < a->len; i++) {
    Point *p = &g_array_index(a, Point, i), *q = &g_array_index(b, Point, i);
    if (p->x != q->x || fabs(p->y - q->y) > 0.01 * MAX(fabs(p->y), fabs(q->y))) return FALSE;
  }
  return TRUE;
}

static gint double_cmp(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* On a log axis over few values (powers of two, a latency ladder), tick at
 * the data's own values instead of gnuplot's 1/10/100. */
#define PLOT_MAX_DATA_TICS 20

static void data_tics(GString *out, const char *axis, GPtrArray *series, gboolean use_x) {
  g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint s = 0; s < series->len; s++) {
    GArray *pts = g_ptr_array_index(series, s);
    for (guint i = 0; i < pts->len; i++) {
      Point *p = &g_array_index(pts, Point, i);
      double x = use_x ? p->x : p->y;
      if (x > 0) g_array_append_val(v, x);
    }
  }
  g_array_sort(v, double_cmp);
  guint n = 0;
  for (guint i = 0; i < v->len; i++)
    if (!n || g_array_index(v, double, i) != g_array_index(v, double, n - 1)) g_array_index(v, double, n++) = g_array_index(v, double, i);
  if (n < 2 || n > PLOT_MAX_DATA_TICS) return;
  g_string_append_printf(out, "set %stics (", axis);
  for (guint i = 0; i < n; i++) g_string_append_printf(out, "%s\"%g\" %.10g", i ? ", " : "", g_array_index(v, double, i), g_array_index(v, double, i));
  g_string_append(out, ")\n");
}

/* What every point of the plot shares: the scenario's workload and the
 * --where filters, minus what the axes and lines vary. */
static char *conditions(const PcsResults *r, const PcsPlotSpec *spec) {
  static const char *const shown[] = {"workload.threads", "workload.file_size", "workload.block_size",
                                      "readahead.read_ahead_kb", "device.latency"};
  g_autoptr(GString) s = g_string_new(NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(shown); i++) {
    const char *k = shown[i], *v = scenario_value(r, k);
    gboolean varied = FALSE;
    for (guint j = 0; j < r->varied->len; j++) varied |= !strcmp(g_ptr_array_index(r->varied, j), k);
    for (char **w = spec->where; w && *w; w++) varied |= g_str_has_prefix(*w, k) && (*w)[strlen(k)] == '=';
    if (!v || varied || !strcmp(k, spec->x) || (spec->by && !strcmp(k, spec->by))) continue;
    const PcsParamInfo *info = pcs_params_find_dotted(k);
    g_autofree char *name = readable_name(k);
    uint64_t n = g_ascii_strtoull(v, NULL, 10);
    g_autofree char *val = NULL;
    if (!strcmp(k, "workload.threads")) {
      g_string_append_printf(s, "%s%s reader thread%s", s->len ? ", " : "", v, n == 1 ? "" : "s");
      continue;
    }
    if (!strcmp(k, "readahead.read_ahead_kb")) {
      g_string_append_printf(s, "%sread_ahead_kb %s", s->len ? ", " : "", v);
      continue;
    }
    if (info && info->kind == PCS_KIND_SIZE) val = pcs_report_bytes(n);
    else if (info && info->kind == PCS_KIND_TIME) val = n % PCS_NS_PER_US ? g_strdup_printf("%s ns", v) : g_strdup_printf("%" G_GUINT64_FORMAT " us", n / PCS_NS_PER_US);
    else val = g_strdup(v);
    g_string_append_printf(s, "%s%s %s", s->len ? ", " : "", name, val);
  }
  for (char **w = spec->where; w && *w; w++)
    g_string_append_printf(s, "%s%s", w == spec->where ? (s->len ? "; where " : "where ") : ", ", *w);
  gboolean empty = s->len == 0; /* read before the steal: argument order is unspecified */
  return g_string_free(g_steal_pointer(&s), empty);
}

static void series_data(GString *out, const PcsPlotSpec *spec, GPtrArray *names, GPtrArray *series) {
  for (guint s = 0; s < series->len; s++) {
    GArray *pts = g_ptr_array_index(series, s);
    g_array_sort(pts, point_cmp);
    for (guint i = 1; i < pts->len; i++)
      if (g_array_index(pts, Point, i).x == g_array_index(pts, Point, i - 1).x) {
        if (!spec->quiet)
          g_printerr("%s: note: line '%s' has several rows at %s = %g: narrow it with --where or --by\n", g_get_prgname(),
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
}

/* Each line its own dash and point type, so lines that lie on each other
 * stay visible; a line equal to an earlier one says so in the key. */
static const int point_types[] = {7, 5, 9, 11, 13, 4, 6, 8};

static void series_plot(GString *out, const PcsPlotSpec *spec, GPtrArray *names, GPtrArray *series) {
  g_string_append(out, "plot ");
  for (guint s = 0; s < series->len; s++) {
    g_autofree char *t = series_title(spec, g_ptr_array_index(names, s));
    for (guint e = 0; e < s; e++)
      if (same_line(g_ptr_array_index(series, e), g_ptr_array_index(series, s))) {
        g_autofree char *first = series_title(spec, g_ptr_array_index(names, e));
        g_autofree char *note = g_strdup_printf("%s (within 1%% of %s)", t, first);
        g_free(t);
        t = g_steal_pointer(&note);
        break;
      }
    g_string_append_printf(out, "%s$s%u using 1:2 with linespoints lw 2 dt %u pt %d ps 1.1 title ", s ? ", \\\n     " : "", s,
                           s % 5 + 1, point_types[s % G_N_ELEMENTS(point_types)]);
    quoted(out, t);
  }
  g_string_append_c(out, '\n');
}

/* Several policies on one line would zigzag: without --by, rows of more
 * than one policy are drawn one line per policy. */
static const char *effective_by(const PcsResults *r, const PcsPlotSpec *spec) {
  if (spec->by) return spec->by;
  int pc = pcs_results_column(r, "policy");
  if (pc < 0) return NULL;
  const char *first = NULL;
  for (guint i = 0; i < r->rows->len; i++) {
    char **cells = g_ptr_array_index(r->rows, i);
    if (!row_selected(r, cells, spec->where)) continue;
    if (!first) first = cells[pc];
    else if (strcmp(first, cells[pc])) {
      if (!spec->quiet)
        g_printerr("%s: note: %s holds several policies: one line per policy (--by policy)\n", g_get_prgname(), r->path);
      return "policy";
    }
  }
  return NULL;
}

static gboolean line_plot(const PcsResults *r, const PcsPlotSpec *given, GString *out, GError **error) {
  Axis ax = {0}, ay = {0};
  g_autoptr(GPtrArray) names = g_ptr_array_new();
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  PcsPlotSpec spec_by = *given;
  const PcsPlotSpec *spec = &spec_by;
  gboolean ok = axis_init(&ax, r, spec->x, error) && axis_init(&ay, r, spec->y, error);
  if (ok && spec->by && pcs_results_column(r, spec->by) < 0) {
    Axis tmp = {0};
    ok = axis_init(&tmp, r, spec->by, error);
  }
  if (ok) ok = check_where(r, spec->where, error);
  if (ok) spec_by.by = effective_by(r, given);
  int by = spec->by ? pcs_results_column(r, spec->by) : -1;
  if (ok) ok = collect_series(r, &ax, &ay, by, spec->where, names, series, error);
  if (ok && !series->len) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: no row matches --where", r->path);
    ok = FALSE;
  }
  if (ok) {
    g_autofree char *what = g_strdup_printf("%s against %s", ay.label, ax.label);
    g_autofree char *cond = conditions(r, spec);
    preamble(out, r, spec, what, cond);
    g_string_append(out, "set xlabel ");
    quoted(out, ax.label);
    g_string_append(out, "\nset ylabel ");
    quoted(out, ay.label);
    g_string_append_printf(out, "\n%s%s", spec->logx ? "set logscale x\n" : "", spec->logy ? "set logscale y\n" : "");
    /* the x axis ends where the data does (gnuplot would stretch a log axis to the next
     * power of ten), the end points kept off the border */
    g_string_append(out, "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n");
    if (spec->logx) data_tics(out, "x", series, TRUE);
    if (spec->logy) data_tics(out, "y", series, FALSE);
    if (!spec->logy) g_string_append(out, "set yrange [0:*]\n");
    series_data(out, spec, names, series);
    series_plot(out, spec, names, series);
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
  preamble(out, r, spec, "bios by size", NULL);
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
                "gnuplot is not installed; install it with `apt-get install gnuplot-nox` "
                "(Debian/Ubuntu) or your system's gnuplot package");
    return FALSE;
  }
  char *argv[] = {gnuplot, (char *)script, NULL};
  g_autofree char *sout = NULL, *serr = NULL;
  int status = 0;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &sout, &serr, &status, error)) return FALSE;
  if (!g_spawn_check_wait_status(status, NULL)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "gnuplot failed: %s", serr ? g_strstrip(serr) : "");
    return FALSE;
  }
  g_string_append(out, sout);
  return TRUE;
}

/* ---- --timeline: the seed's diagram from a `pcsim run --trace` file ---- */

typedef struct {
  double t_us;
  guint thread;
  char kind; /* 'A' add, 'R' read, 'S' submit */
  uint64_t a, b;
} TlEvent;

/* What the trace holds for the policy shown. */
typedef struct {
  GArray *events;        /* TlEvent: every add, read and submit of a reader, in order */
  GPtrArray *policies;   /* every policy the trace holds, in order */
  guint threads;         /* the highest reader thread that added, read or submitted */
  gboolean ra_seen;      /* its first ra_sync: the first readahead window */
  uint64_t ra_start, ra_pages;
} TlTrace;

/* One line of `pcsim run --trace` (policy, time_ns, thread, kind, a, b). */
static gboolean tl_line(const char *path, guint lineno, char *line, const char *policy, TlTrace *tr, GError **error) {
  g_auto(GStrv) f = g_strsplit(line, "\t", -1);
  if (g_strv_length(f) != 6)
    return pcs_input_error(error, path, lineno, "expected 6 tab-separated fields (policy, time_ns, thread, kind, a, b), "
                           "as `pcsim run --trace FILE` writes");
  gboolean known = FALSE;
  for (guint i = 0; i < tr->policies->len; i++) known |= !strcmp(g_ptr_array_index(tr->policies, i), f[0]);
  if (!known) g_ptr_array_add(tr->policies, g_strdup(f[0]));
  if ((policy && strcmp(policy, f[0])) || (!policy && strcmp(g_ptr_array_index(tr->policies, 0), f[0]))) return TRUE;
  gboolean ra = !strcmp(f[3], "ra_sync");
  char kind = !strcmp(f[3], "add") ? 'A' : !strcmp(f[3], "read") ? 'R' : !strcmp(f[3], "submit") ? 'S' : 0;
  if ((!kind && !ra) || !strcmp(f[2], "-")) return TRUE;
  uint64_t t, thread, a, b;
  if (!pcs_parse_u64(f[1], &t) || !pcs_parse_u64(f[2], &thread) || !pcs_parse_u64(f[4], &a) ||
      !pcs_parse_u64(f[5], &b) || thread == 0)
    return pcs_input_error(error, path, lineno, "time_ns, thread, a and b must be unsigned integers (thread from 1)");
  if (ra) {
    if (!tr->ra_seen) tr->ra_seen = TRUE, tr->ra_start = a, tr->ra_pages = b;
    return TRUE;
  }
  TlEvent e = {(double)t / PCS_NS_PER_US, (guint)thread, kind, a, b};
  g_array_append_val(tr->events, e);
  tr->threads = MAX(tr->threads, (guint)thread);
  return TRUE;
}

static uint64_t tl_last_page(const TlEvent *e) { return e->kind == 'S' ? e->a + e->b - 1 : e->a; }

/* Too many rows for one picture: the largest range from FIRST that fits. */
static gboolean tl_too_long(const char *path, const GArray *ev, uint64_t first, uint64_t last, GError **error) {
  g_autofree guint *at = g_new0(guint, last - first + 1); /* rows by page (a bio: its first page in range) */
  for (guint i = 0; i < ev->len; i++) {
    const TlEvent *e = &g_array_index(ev, TlEvent, i);
    at[MAX(e->a, first) - first]++;
  }
  uint64_t fit = first;
  for (guint rows = 0; fit <= last && rows + at[fit - first] <= PCS_PLOT_TIMELINE_MAX_ROWS; fit++) rows += at[fit - first];
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--pages %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT ": %s holds %u "
              "events there, a timeline draws at most %u (one row each, %u pixels high): try --pages %" G_GUINT64_FORMAT
              "-%" G_GUINT64_FORMAT " or a narrower range", first, last, path, ev->len, PCS_PLOT_TIMELINE_MAX_ROWS,
              60 + 16 * PCS_PLOT_TIMELINE_MAX_ROWS, first, MAX(fit, first + 1) - 1);
  return FALSE;
}

/* The events of the pages shown, into EVENTS; *FIRST..*LAST the pages. */
static gboolean tl_load(const char *path, const PcsPlotSpec *spec, GArray *events, guint *threads, uint64_t *first,
                        uint64_t *last, GError **error) {
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_GZIP, &text, NULL, error)) return FALSE;
  if (!g_str_has_prefix(text, "policy\ttime_ns\tthread\tkind\ta\tb\n"))
    return pcs_input_error(error, path, 1, "not a `pcsim run --trace FILE` file (its header is "
                           "policy, time_ns, thread, kind, a, b, tab-separated)");
  g_autoptr(GPtrArray) policies = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(TlEvent));
  TlTrace tr = {all, policies, 0, FALSE, 0, 0};
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 1; lines[i]; i++)
    if (*lines[i] && !tl_line(path, i + 1, lines[i], spec->policy, &tr, error)) return FALSE;
  if (!spec->policy && policies->len > 1) {
    g_ptr_array_add(policies, NULL); /* g_strjoinv() needs the NULL end */
    g_autofree char *list = g_strjoinv(", ", (char **)policies->pdata);
    return pcs_input_error(error, path, 0, "holds several policies (%s): pick one with --policy", list);
  }
  /* the pages `pcsim run --timeline` shows by default: the 32 after the first window */
  *first = spec->pages_given ? spec->first_page : tr.ra_seen ? tr.ra_start + tr.ra_pages : 0;
  *last = spec->pages_given ? spec->last_page : *first + 31;
  for (guint i = 0; i < all->len; i++) {
    const TlEvent *e = &g_array_index(all, TlEvent, i);
    if (tl_last_page(e) >= *first && e->a <= *last) g_array_append_val(events, *e);
  }
  if (!events->len)
    return pcs_input_error(error, path, 0, "no add, read or submit event of pages %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
                           "%s%s: try another --pages", *first, *last, spec->policy ? " under policy " : "",
                           spec->policy ? spec->policy : "");
  if (events->len > PCS_PLOT_TIMELINE_MAX_ROWS) return tl_too_long(path, events, *first, *last, error);
  *threads = tr.threads;
  return TRUE;
}

/* The cell `pcsim run --timeline` prints for E (cmd_run.c), so the picture
 * and the text name pages alike. */
static char *tl_label(const TlEvent *e) {
  if (e->kind == 'S') return g_strdup_printf("submit bio %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, e->a, e->a + e->b - 1);
  return g_strdup_printf("%s Page %" G_GUINT64_FORMAT, e->kind == 'A' ? "add" : "read", e->a);
}

/* One column per thread; events down the page in the order they happened
 * (row i, its time on the left axis), each labelled to the right of its
 * point as `pcsim run --timeline` writes it; each bio a bracket to the left
 * of its thread's points, from the read of its first page to its
 * submission, where no label reaches. */
gboolean pcs_plot_timeline_script(const char *trace, const PcsPlotSpec *spec, GString *out, GError **error) {
  g_autoptr(GArray) ev = g_array_new(FALSE, FALSE, sizeof(TlEvent));
  guint threads = 0;
  uint64_t first = 0, last = 0;
  if (!tl_load(trace, spec, ev, &threads, &first, &last, error)) return FALSE;
  g_autofree char *what = g_strdup_printf("timeline of pages %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "%s%s", first,
                                          last, spec->policy ? ", " : "", spec->policy ? spec->policy : "");
  guint rows = ev->len;
  terminal(out, spec, MAX(960, 260 * threads), MAX(600, 60 + 16 * rows), 10);
  title(out, trace, spec, what,
        spec->terminal == PCS_PLOT_DUMB ? NULL
                                        : "add Page p: page p inserted (the insert won); read Page p: page p set up and "
                                          "added to the thread's bio\n"
                                          "bracket: one bio, from the read of its first page to its submission");
  g_string_append_printf(out, "unset key\nunset grid\nset border 0\nset xrange [0.6:%u.9] noextend\nset yrange [%u:-1]\n",
                         threads, rows);
  g_string_append(out, "set xtics (");
  for (guint t = 1; t <= threads; t++) g_string_append_printf(out, "%s\"thread %u\" %u", t > 1 ? ", " : "", t, t);
  g_string_append(out, ") scale 0\nunset x2tics\nset ylabel \"simulated time (us), events in order\"\nset ytics (");
  guint step = MAX(1, rows / 40);
  for (guint i = 0; i < rows; i += step)
    g_string_append_printf(out, "%s\"%.3f\" %u", i ? ", " : "", g_array_index(ev, TlEvent, i).t_us, i);
  g_string_append(out, ")\n");
  /* a bio's bracket: its thread's most recent reads back to the first of
   * its pages, left of the points (labels go right); a thread's brackets
   * alternate between two offsets so that one ending where the next starts
   * stays two */
  g_autofree guint *nbio = g_new0(guint, threads + 1);
  for (guint i = 0; i < rows; i++) {
    TlEvent *e = &g_array_index(ev, TlEvent, i);
    if (e->kind != 'S') continue;
    guint top = i;
    for (guint j = i; j-- > 0;) {
      TlEvent *r = &g_array_index(ev, TlEvent, j);
      if (r->thread != e->thread) continue;
      if (r->kind == 'R' && r->a >= e->a && r->a < e->a + e->b) top = j;
      if (r->kind == 'R' && r->a == e->a) break;
    }
    double x = e->thread - 0.08 - 0.06 * (nbio[e->thread]++ % 2);
    g_string_append_printf(out, "set arrow from %.2f,%u to %.2f,%u nohead lw 2 lc rgb '#1f77b4'\n", x, top, x, i);
    g_string_append_printf(out, "set arrow from %.2f,%u to %.2f,%u nohead lw 2 lc rgb '#1f77b4'\n", x, top, x + 0.04, top);
    g_string_append_printf(out, "set arrow from %.2f,%u to %.2f,%u nohead lw 2 lc rgb '#1f77b4'\n", x, i, x + 0.04, i);
  }
  g_string_append(out, "$ev << EOD\n");
  for (guint i = 0; i < rows; i++) {
    TlEvent *e = &g_array_index(ev, TlEvent, i);
    g_autofree char *label = tl_label(e);
    g_string_append_printf(out, "%u %u \"%s\" %d\n", e->thread, i, label, e->kind == 'S' ? 3 : e->kind == 'A' ? 1 : 2);
  }
  g_string_append(out, "EOD\n"
                       "plot $ev using 1:2:3:4 with labels left offset 1,0 point pt 7 ps 0.6 lc variable tc variable\n");
  return TRUE;
}
