/* grid.c - expanding `--vary KEY=LIST` options into a sweep grid.
 *
 * Models nothing; it decides which scenarios a sweep runs and in what
 * order.  Every value is parsed and range-checked here, before anything
 * runs, so a typo in the last --vary fails at once and not an hour in.
 * Values are kept in the key's base unit (bytes, ns) so the sweep's columns
 * are plain numbers a plot can use.
 */
#include "pcsim/grid.h"

#include <string.h>

#define MAX_AXIS_VALUES 10000u

static void axis_free(PcsAxis *a) {
  if (!a) return;
  g_free(a->key);
  g_ptr_array_unref(a->assign);
  g_ptr_array_unref(a->column);
  g_free(a);
}

static PcsAxis *axis_new(const char *key, const PcsParamInfo *info) {
  PcsAxis *a = g_new0(PcsAxis, 1);
  a->key = g_strdup(key);
  a->info = info;
  a->assign = g_ptr_array_new_with_free_func(g_free);
  a->column = g_ptr_array_new_with_free_func(g_free);
  return a;
}

void pcs_grid_init(PcsGrid *g) {
  memset(g, 0, sizeof *g);
  g->axes = g_ptr_array_new_with_free_func((GDestroyNotify)axis_free);
  g->policies = g_array_new(FALSE, FALSE, sizeof(PcsPolicy));
  g->specs = g_ptr_array_new_with_free_func(g_free);
}

void pcs_grid_clear(PcsGrid *g) {
  g_clear_pointer(&g->axes, g_ptr_array_unref);
  g_clear_pointer(&g->policy_axis, axis_free);
  g_clear_pointer(&g->policies, g_array_unref);
  g_clear_pointer(&g->specs, g_ptr_array_unref);
}

/* ---- values ---- */

static gboolean parse_number(const PcsParamInfo *info, const char *s, uint64_t *out) {
  switch (info ? info->kind : PCS_KIND_COUNT) {
  case PCS_KIND_COUNT: return pcs_parse_u64(s, out);
  case PCS_KIND_SIZE:
  case PCS_KIND_RATE: return pcs_parse_size(s, out);
  case PCS_KIND_TIME: return pcs_parse_time(s, out);
  default: return FALSE;
  }
}

static gboolean add_number(const PcsParamInfo *info, uint64_t v, GPtrArray *assign, GPtrArray *column,
                           GError **error) {
  if (column->len >= MAX_AXIS_VALUES) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "more than %u values: use a larger step, START..END+STEP (e.g. 1..100000+100), or START..END*FACTOR",
                MAX_AXIS_VALUES);
    return FALSE;
  }
  g_ptr_array_add(column, g_strdup_printf("%" G_GUINT64_FORMAT, v));
  gboolean time = info && info->kind == PCS_KIND_TIME;
  g_ptr_array_add(assign, g_strdup_printf("%" G_GUINT64_FORMAT "%s", v, time ? "ns" : ""));
  return TRUE;
}

/* A fraction as its column prints it: "%.15g", so ".5" and "5e-1" both
 * print 0.5, a number CSV and JSON readers take (bad text is kept as
 * given; pcs_params_set() refuses it). */
static char *frac_column(const char *item) {
  char *end, buf[G_ASCII_DTOSTR_BUF_SIZE];
  double v = g_ascii_strtod(item, &end);
  return *end || end == item ? g_strdup(item) : g_strdup(g_ascii_formatd(buf, sizeof buf, "%.15g", v));
}

/* One end or step TEXT of range ITEM in INFO's units; a bad one says why
 * (a time without its unit, a decimal that is no whole number of ns or
 * bytes) with the key's units. */
static gboolean range_number(const PcsParamInfo *info, const char *item, const char *what, const char *text,
                             uint64_t *out, GError **error) {
  if (parse_number(info, text, out)) return TRUE;
  if (!info || info->kind == PCS_KIND_COUNT || !*text) return FALSE; /* the generic message */
  g_autofree char *expected = pcs_params_expectation(info, text);
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "range '%s': %s '%s' of %s.%s: expected %s", item, what, text,
              info->section, info->key, expected);
  return FALSE;
}

/* "A..B", "A..B+STEP" or "A..B*FACTOR"; A, B and STEP in the key's units
 * (64M..256M+64M, 10us..1ms+100us), FACTOR a plain integer.  A STEP without
 * a unit is in base units (bytes, ns), as the columns print. */
static gboolean expand_range(const PcsParamInfo *info, const char *item, GPtrArray *assign, GPtrArray *column,
                             GError **error) {
  const char *dots = strstr(item, "..");
  g_autofree char *a = g_strndup(item, (gsize)(dots - item));
  g_autofree char *b = g_strdup(dots + 2);
  char *op = strpbrk(b, "*+");
  uint64_t lo = 0, hi = 0, by = 1;
  char how = op ? *op : '+';
  if (op) *op = 0;
  GError *why = NULL;
  gboolean ok = range_number(info, item, "start", a, &lo, &why) && range_number(info, item, "end", b, &hi, &why);
  if (ok && op && !pcs_parse_u64(op + 1, &by)) /* a FACTOR, or a STEP in base units */
    ok = how == '+' && range_number(info, item, "step", op + 1, &by, &why);
  if (why) {
    g_propagate_error(error, why);
    return FALSE;
  }
  if (!ok || lo > hi || (how == '*' && (by < 2 || lo == 0)) || by == 0) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "range '%s': expected A..B, A..B+STEP or A..B*FACTOR with A <= B, STEP >= 1, FACTOR >= 2 and A >= 1",
                item);
    return FALSE;
  }
  for (uint64_t v = lo; v <= hi;) {
    if (!add_number(info, v, assign, column, error)) return FALSE;
    uint64_t next = how == '*' ? v * by : v + by;
    if ((how == '*' && next / by != v) || next <= v) break; /* overflow */
    v = next;
  }
  return TRUE;
}

gboolean pcs_grid_expand(const PcsParamInfo *info, const char *list, GPtrArray *assign, GPtrArray *column,
                         GError **error) {
  g_auto(GStrv) items = g_strsplit(list, ",", -1);
  gboolean numeric = !info || (info->kind != PCS_KIND_FRAC && info->kind != PCS_KIND_TEXT);
  for (char **it = items; *it; it++) {
    char *item = g_strstrip(*it);
    uint64_t v;
    if (!*item) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "empty value in list '%s'", list);
      return FALSE;
    }
    if (numeric && strstr(item, "..")) {
      if (!expand_range(info, item, assign, column, error)) return FALSE;
    } else if (numeric && parse_number(info, item, &v)) {
      if (!add_number(info, v, assign, column, error)) return FALSE;
    } else if (numeric && !info) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "'%s': expected an integer or a range such as 1..64*2", item);
      return FALSE;
    } else {
      g_ptr_array_add(assign, g_strdup(item)); /* checked by pcs_params_set() below */
      g_ptr_array_add(column, info && info->kind == PCS_KIND_FRAC ? frac_column(item) : g_strdup(item));
    }
  }
  return TRUE;
}

/* ---- axes ---- */

static gboolean check_values(const PcsAxis *a, GError **error) {
  PcsParams scratch;
  pcs_params_init(&scratch);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < a->assign->len; i++)
    ok = pcs_params_set(&scratch, a->info, g_ptr_array_index(a->assign, i), "--vary", error);
  pcs_params_clear(&scratch);
  return ok;
}

static gboolean add_policy_axis(PcsGrid *g, const char *key, const char *list, GError **error) {
  if (g->policy_axis) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--vary %s: policies are already varied by --vary %s", key,
                g->policy_axis->key);
    return FALSE;
  }
  PcsAxis *a = axis_new(key, NULL);
  g->policy_axis = a;
  if (!strcmp(key, "policy")) return pcs_policy_parse_list(list, g->policies, error);
  if (!pcs_grid_expand(NULL, list, a->assign, a->column, error)) return FALSE;
  for (guint i = 0; i < a->column->len; i++) {
    g_autofree char *name = g_strdup_printf("pool:%s", (char *)g_ptr_array_index(a->column, i));
    PcsPolicy pol;
    if (!pcs_policy_parse(name, &pol, error)) return FALSE;
    g_array_append_val(g->policies, pol);
  }
  return TRUE;
}

gboolean pcs_grid_add(PcsGrid *g, const char *spec, GError **error) {
  const char *eq = strchr(spec, '=');
  g_autofree char *key = eq ? g_strstrip(g_strndup(spec, (gsize)(eq - spec))) : NULL;
  gboolean ok;
  if (!eq || !*key || !eq[1]) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--vary '%s': expected KEY=LIST, e.g. workload.threads=1..8", spec);
    return FALSE;
  }
  g_ptr_array_add(g->specs, g_strdup(spec));
  if (!strcmp(key, "policy") || !strcmp(key, "pool")) {
    ok = add_policy_axis(g, key, eq + 1, error);
  } else {
    if (!strchr(key, '.')) { /* a bare key: name the section it lives in */
      const PcsParamInfo *hint = pcs_params_suggest(NULL, key);
      if (hint)
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--vary %s: unknown key '%s' (did you mean '%s.%s'?)", spec,
                    key, hint->section, hint->key);
      else
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                    "--vary %s: unknown key '%s' (keys are SECTION.KEY; `pcsim params` lists every key)", spec, key);
      return FALSE;
    }
    const PcsParamInfo *info = pcs_params_lookup(key, "--vary", error);
    if (!info) return FALSE;
    for (guint i = 0; i < g->axes->len; i++)
      if (((PcsAxis *)g_ptr_array_index(g->axes, i))->info == info) {
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--vary %s: the key is varied twice", key);
        return FALSE;
      }
    PcsAxis *a = axis_new(key, info);
    g_ptr_array_add(g->axes, a);
    ok = pcs_grid_expand(info, eq + 1, a->assign, a->column, error) && check_values(a, error);
  }
  if (!ok) g_prefix_error(error, "--vary %s: ", spec);
  return ok;
}

gboolean pcs_grid_finish(PcsGrid *g, const PcsParams *base, char **policies, GError **error) {
  if (g->policy_axis && policies && *policies) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--policy and --vary %s both set the policies: use one",
                g->policy_axis->key);
    return FALSE;
  }
  if (!g->policy_axis) {
    g_autofree char *at = pcs_params_where(base, "scenario.policies");
    g_autofree char *where = g_strdup_printf("%s: scenario.policies", at);
    if (!pcs_policy_parse_given(policies, base->scenario_policies, where, g->policies, error)) return FALSE;
  }
  g->points = 1;
  for (guint i = 0; i < g->axes->len; i++) {
    guint len = ((PcsAxis *)g_ptr_array_index(g->axes, i))->assign->len;
    if (g->points * len / len != g->points || g->points * len * g->policies->len > PCS_GRID_MAX_ROWS) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT, "--vary: the grid has more than %" G_GUINT64_FORMAT " rows",
                  PCS_GRID_MAX_ROWS);
      return FALSE;
    }
    g->points *= len;
  }
  return TRUE;
}

/* ---- points ---- */

guint pcs_grid_coord(const PcsGrid *g, guint axis, uint64_t point) {
  uint64_t inner = 1;
  for (guint i = axis + 1; i < g->axes->len; i++) inner *= ((PcsAxis *)g_ptr_array_index(g->axes, i))->assign->len;
  PcsAxis *a = g_ptr_array_index(g->axes, axis);
  return (guint)((point / inner) % a->assign->len);
}

gboolean pcs_grid_apply(const PcsGrid *g, uint64_t point, PcsParams *p, GError **error) {
  for (guint i = 0; i < g->axes->len; i++) {
    PcsAxis *a = g_ptr_array_index(g->axes, i);
    if (!pcs_params_set(p, a->info, g_ptr_array_index(a->assign, pcs_grid_coord(g, i, point)), "--vary", error))
      return FALSE;
  }
  /* the checks of a varied key name --vary, not the scenario's line; marked
   * once all are set, so a scenario.kernel or filesystem axis sets its
   * profile's keys (those nothing set: line 0) as it did */
  for (guint i = 0; i < g->axes->len; i++) {
    PcsAxis *a = g_ptr_array_index(g->axes, i);
    g_autofree char *key = g_strdup_printf("%s.%s", a->info->section, a->info->key);
    pcs_params_mark(p, key, PCS_LINE_VARY);
  }
  return TRUE;
}

/* The policy axis' column sits where its --vary was given. */
static guint policy_axis_slot(const PcsGrid *g) {
  guint slot = 0;
  for (guint i = 0; i < g->specs->len; i++) {
    const char *s = g_ptr_array_index(g->specs, i);
    if (g_str_has_prefix(s, "pool=") || g_str_has_prefix(s, "policy=")) return slot;
    slot++;
  }
  return slot;
}

void pcs_grid_columns(const PcsGrid *g, GPtrArray *out) {
  guint slot = policy_axis_slot(g);
  for (guint i = 0; i <= g->axes->len; i++) {
    if (i == slot && g->policy_axis && !strcmp(g->policy_axis->key, "pool")) g_ptr_array_add(out, "pool");
    if (i < g->axes->len) g_ptr_array_add(out, ((PcsAxis *)g_ptr_array_index(g->axes, i))->key);
  }
}

void pcs_grid_cells(const PcsGrid *g, uint64_t point, guint policy, GPtrArray *out) {
  guint slot = policy_axis_slot(g);
  for (guint i = 0; i <= g->axes->len; i++) {
    if (i == slot && g->policy_axis && !strcmp(g->policy_axis->key, "pool"))
      g_ptr_array_add(out, g_ptr_array_index(g->policy_axis->column, policy));
    if (i < g->axes->len) {
      PcsAxis *a = g_ptr_array_index(g->axes, i);
      g_ptr_array_add(out, g_ptr_array_index(a->column, pcs_grid_coord(g, i, point)));
    }
  }
}

/* ---- shards ---- */

gboolean pcs_shard_parse(const char *text, PcsShard *out, GError **error) {
  g_auto(GStrv) kn = g_strsplit(text, "/", 2);
  uint64_t k, n;
  if (!kn[0] || !kn[1] || !pcs_parse_u64(kn[0], &k) || !pcs_parse_u64(kn[1], &n) || k < 1 || k > n ||
      n > 1000000) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "--shard '%s': expected K/N with 1 <= K <= N, e.g. 2/8", text);
    return FALSE;
  }
  out->k = (uint32_t)k;
  out->n = (uint32_t)n;
  return TRUE;
}
