/* sweep.c - running a grid of scenarios on worker threads.
 *
 * Models nothing; it runs pcs_sim_run() once per (point, policy).  Workers
 * take the next point from an atomic counter and write its formatted rows
 * into that point's slot; the calling thread prints the slots in order, so
 * the output depends on the grid alone and never on scheduling.  Each run
 * owns all of its state, so runs share nothing but the read-only base
 * scenario and grid.
 *
 * Cancel: workers stop taking points once *cancel (set by a signal
 * handler, read atomically) is non-zero, a running point stops within a few
 * thousand events, and nothing is printed: a cancelled sweep has no output.
 * JSON rows are one line each, written by json.c like every other output.
 */
#include "pcsim/sweep.h"

#include "pcsim/sim.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const PcsSweep *sw;
  uint64_t *points;  /* the shard's points */
  guint npoints;
  guint *order;      /* slots, most expensive first */
  char **slots;      /* formatted rows of each point */
  gint next, done;   /* atomics */
  gint failed;
  GMutex lock;       /* guards error and events */
  uint64_t events;
  GError *error;
} SweepRun;

/* ---- header ---- */

static void csv_header(GString *out, const PcsSweep *sw, GPtrArray *cols) {
  const PcsGrid *g = sw->grid;
  pcs_report_csv_provenance(out, sw->base);
  g_string_append(out, "# sweep");
  for (guint i = 0; i < g->specs->len; i++) g_string_append_printf(out, " --vary %s", (char *)g_ptr_array_index(g->specs, i));
  g_string_append(out, "\n# varied ");
  for (guint i = 0; i < cols->len; i++) g_string_append_printf(out, "%s%s", i ? "," : "", (char *)g_ptr_array_index(cols, i));
  g_string_append(out, "\n# policies ");
  for (guint i = 0; i < g->policies->len; i++)
    g_string_append_printf(out, "%s%s", i ? "," : "", g_array_index(g->policies, PcsPolicy, i).name);
  g_string_append_printf(out, "\n# grid points=%" G_GUINT64_FORMAT " rows=%" G_GUINT64_FORMAT "\n", g->points,
                         g->points * g->policies->len);
  if (sw->shard.n > 1) g_string_append_printf(out, "# shard %u/%u\n", sw->shard.k, sw->shard.n);
  for (guint i = 0; i < cols->len; i++) g_string_append_printf(out, "%s,", (char *)g_ptr_array_index(cols, i));
  pcs_report_csv_header(out);
}

static void json_strings(PcsJson *w, const char *key, GPtrArray *a) {
  pcs_json_begin_array(w, key, PCS_JSON_INLINE);
  for (guint i = 0; i < a->len; i++) pcs_json_string(w, NULL, g_ptr_array_index(a, i));
  pcs_json_end(w);
}

/* Everything before the rows; the caller opens "results". */
static void json_header(PcsJson *w, const PcsSweep *sw, GPtrArray *cols) {
  const PcsGrid *g = sw->grid;
  pcs_json_begin_object(w, NULL, PCS_JSON_LINES);
  pcs_report_json_provenance(w, sw->base);
  pcs_json_begin_object(w, "sweep", PCS_JSON_INLINE);
  json_strings(w, "vary", g->specs);
  json_strings(w, "varied", cols);
  pcs_json_begin_array(w, "policies", PCS_JSON_INLINE);
  for (guint i = 0; i < g->policies->len; i++) pcs_json_string(w, NULL, g_array_index(g->policies, PcsPolicy, i).name);
  pcs_json_end(w);
  pcs_json_uint(w, "points", g->points);
  pcs_json_uint(w, "rows", g->points * g->policies->len);
  pcs_json_end(w);
  if (sw->shard.n > 1) {
    g_autofree char *shard = g_strdup_printf("%u/%u", sw->shard.k, sw->shard.n);
    pcs_json_string(w, "shard", shard);
  }
}

/* ---- rows ---- */

static gboolean axis_is_text(const PcsGrid *g, const char *column) {
  for (guint i = 0; i < g->axes->len; i++) {
    PcsAxis *a = g_ptr_array_index(g->axes, i);
    if (!strcmp(a->key, column)) return a->info->kind == PCS_KIND_TEXT;
  }
  return FALSE;
}

/* One row: CSV, or a JSON object on one line (the varied keys, then the
 * run's columns and histogram as `pcsim run` prints them), '\n' after it. */
static void format_row(GString *out, const PcsSweep *sw, uint64_t point, guint policy, const PcsResult *r) {
  g_autoptr(GPtrArray) cols = g_ptr_array_new();
  g_autoptr(GPtrArray) cells = g_ptr_array_new();
  pcs_grid_columns(sw->grid, cols);
  pcs_grid_cells(sw->grid, point, policy, cells);
  if (sw->format == PCS_FORMAT_CSV) {
    for (guint i = 0; i < cells->len; i++) g_string_append_printf(out, "%s,", (char *)g_ptr_array_index(cells, i));
    pcs_report_csv_row(out, r);
    return;
  }
  PcsJson w;
  pcs_json_init(&w, out);
  pcs_json_begin_object(&w, NULL, PCS_JSON_INLINE);
  for (guint i = 0; i < cells->len; i++) {
    const char *col = g_ptr_array_index(cols, i), *cell = g_ptr_array_index(cells, i);
    if (axis_is_text(sw->grid, col) || !pcs_json_is_number(cell))
      pcs_json_string(&w, col, cell);
    else
      pcs_json_raw(&w, col, cell);
  }
  pcs_report_json_columns(&w, r);
  pcs_json_hist(&w, "bio_pages_hist", r->bio_pages_hist, r->hist_len);
  pcs_json_end(&w);
  g_string_append_c(out, '\n');
}

/* A point's error keeps where the fault is first (the --vary value, or the
 * scenario's line) and names the point after it. */
static gboolean point_params(const PcsSweep *sw, uint64_t point, PcsParams *p, GError **error) {
  pcs_params_copy(p, sw->base);
  if (pcs_grid_apply(sw->grid, point, p, error) && pcs_params_validate(p, error)) return TRUE;
  if (error && *error) {
    char *msg = g_strdup_printf("%s (grid point %" G_GUINT64_FORMAT ")", (*error)->message, point + 1);
    g_free((*error)->message);
    (*error)->message = msg;
  }
  return FALSE;
}

static char *run_point(const PcsSweep *sw, uint64_t point, uint64_t *events, GError **error) {
  PcsParams p;
  if (!point_params(sw, point, &p, error)) {
    pcs_params_clear(&p);
    return NULL;
  }
  GString *rows = g_string_new(NULL);
  PcsRunOptions opt = {.cancel = sw->cancel};
  for (guint j = 0; j < sw->grid->policies->len; j++) {
    PcsResult r;
    if (!pcs_sim_run(&p, &g_array_index(sw->grid->policies, PcsPolicy, j), &opt, &r, error)) {
      g_string_free(rows, TRUE);
      pcs_params_clear(&p);
      return NULL;
    }
    format_row(rows, sw, point, j, &r);
    *events += r.events;
    pcs_result_clear(&r);
  }
  pcs_params_clear(&p);
  return g_string_free(rows, FALSE);
}

static gboolean cancelled(const PcsSweep *sw) { return sw->cancel && g_atomic_int_get(sw->cancel); }

static gpointer worker(gpointer data) {
  SweepRun *run = data;
  for (;;) {
    guint n = (guint)g_atomic_int_add(&run->next, 1);
    if (n >= run->npoints || g_atomic_int_get(&run->failed) || cancelled(run->sw)) break;
    guint i = run->order[n];
    GError *e = NULL;
    uint64_t events = 0;
    run->slots[i] = run_point(run->sw, run->points[i], &events, &e);
    g_mutex_lock(&run->lock);
    run->events += events;
    g_mutex_unlock(&run->lock);
    if (!run->slots[i]) {
      g_mutex_lock(&run->lock);
      if (!run->error) run->error = e; else g_error_free(e);
      g_mutex_unlock(&run->lock);
      g_atomic_int_set(&run->failed, 1);
      break;
    }
    g_atomic_int_inc(&run->done);
  }
  return NULL;
}

static GArray *shard_points(const PcsSweep *sw) {
  GArray *a = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  for (uint64_t i = sw->shard.k - 1; i < sw->grid->points; i += sw->shard.n) g_array_append_val(a, i);
  return a;
}

gboolean pcs_sweep_check(const PcsSweep *sw, GError **error) {
  g_autoptr(GArray) pts = shard_points(sw);
  for (guint i = 0; i < pts->len; i++) {
    PcsParams p;
    gboolean ok = point_params(sw, g_array_index(pts, uint64_t, i), &p, error);
    for (guint j = 0; ok && j < sw->grid->policies->len; j++)
      ok = pcs_sim_check_limits(&p, &g_array_index(sw->grid->policies, PcsPolicy, j), error);
    pcs_params_clear(&p);
    if (!ok) return FALSE;
  }
  return TRUE;
}

guint pcs_sweep_estimate(const PcsSweep *sw, uint64_t *events) {
  g_autoptr(GArray) pts = shard_points(sw);
  *events = 0;
  for (guint i = 0; i < pts->len; i++) {
    PcsParams p;
    if (point_params(sw, g_array_index(pts, uint64_t, i), &p, NULL))
      for (guint j = 0; j < sw->grid->policies->len; j++)
        *events += pcs_sim_estimate(&p, &g_array_index(sw->grid->policies, PcsPolicy, j)).events;
    pcs_params_clear(&p); /* point_params() copies the base even when it fails */
  }
  return pts->len;
}

/* Longest first: points are handed out in decreasing estimated events, so
 * the last points to finish are short ones and no worker idles at the end.
 * Only the order of work changes; rows are still printed by slot. */
typedef struct {
  uint64_t cost;
  guint slot;
} PointCost;

static gint cost_cmp(gconstpointer a, gconstpointer b) {
  const PointCost *x = a, *y = b;
  if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
  return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static guint *work_order(const PcsSweep *sw, const uint64_t *points, guint n) {
  PointCost *c = g_new(PointCost, MAX(n, 1));
  for (guint i = 0; i < n; i++) {
    PcsParams p;
    c[i] = (PointCost){0, i};
    if (point_params(sw, points[i], &p, NULL))
      for (guint j = 0; j < sw->grid->policies->len; j++)
        c[i].cost += pcs_sim_estimate(&p, &g_array_index(sw->grid->policies, PcsPolicy, j)).events;
    pcs_params_clear(&p);
  }
  qsort(c, n, sizeof *c, (int (*)(const void *, const void *))cost_cmp);
  guint *order = g_new(guint, MAX(n, 1));
  for (guint i = 0; i < n; i++) order[i] = c[i].slot;
  g_free(c);
  return order;
}

static void wait_workers(SweepRun *run, GThread **threads, guint n) {
  const PcsSweep *sw = run->sw;
  while (sw->progress) {
    guint done = (guint)g_atomic_int_get(&run->done);
    sw->progress(sw->progress_user, done, run->npoints);
    if (done >= run->npoints || g_atomic_int_get(&run->failed) || cancelled(sw)) break;
    g_usleep(100000);
  }
  for (guint t = 0; t < n; t++) g_thread_join(threads[t]);
}

/* Every slot: a failed or cancelled sweep leaves NULLs between filled ones. */
static void slots_free(char **slots, guint n) {
  for (guint i = 0; i < n; i++) g_free(slots[i]);
  g_free(slots);
}

static void print_csv(GString *out, const PcsSweep *sw, GPtrArray *cols, char **slots, guint n) {
  csv_header(out, sw, cols);
  for (guint i = 0; i < n; i++) g_string_append(out, slots[i]);
}

static void print_json(GString *out, const PcsSweep *sw, GPtrArray *cols, char **slots, guint n) {
  PcsJson w;
  pcs_json_init(&w, out);
  json_header(&w, sw, cols);
  pcs_json_begin_array(&w, "results", PCS_JSON_LINES);
  for (guint i = 0; i < n; i++) {
    g_auto(GStrv) rows = g_strsplit(slots[i], "\n", -1);
    for (char **row = rows; *row && **row; row++) pcs_json_raw(&w, NULL, *row);
  }
  pcs_json_end(&w);
  pcs_json_end_document(&w);
}

gboolean pcs_sweep_run(const PcsSweep *sw, GString *out, uint64_t *events, GError **error) {
  g_autoptr(GArray) pts = shard_points(sw);
  SweepRun run = {.sw = sw, .points = (uint64_t *)pts->data, .npoints = pts->len};
  run.order = work_order(sw, run.points, run.npoints);
  run.slots = g_new0(char *, pts->len + 1);
  g_mutex_init(&run.lock);
  guint n = MAX(1u, MIN(sw->jobs, pts->len));
  GThread **threads = g_new(GThread *, n);
  for (guint t = 0; t < n; t++) threads[t] = g_thread_new("pcsim-sweep", worker, &run);
  wait_workers(&run, threads, n);
  g_free(threads);
  g_free(run.order);
  g_mutex_clear(&run.lock);
  if (events) *events = run.events;
  /* a cancel after the last point still writes nothing */
  if (!run.error && cancelled(sw))
    g_set_error(&run.error, PCS_ERROR, PCS_ERROR_CANCELLED, "sweep cancelled");
  if (run.error) {
    g_propagate_error(error, run.error);
    slots_free(run.slots, pts->len);
    return FALSE;
  }
  g_autoptr(GPtrArray) cols = g_ptr_array_new();
  pcs_grid_columns(sw->grid, cols);
  if (sw->format == PCS_FORMAT_JSON)
    print_json(out, sw, cols, run.slots, pts->len);
  else
    print_csv(out, sw, cols, run.slots, pts->len);
  slots_free(run.slots, pts->len);
  return TRUE;
}
