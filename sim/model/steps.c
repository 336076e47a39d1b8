/* steps.c - the step model behind `pcsim replay` and `pcsim explore`.
 *
 * The timing simulator (reader.c) decides who wins each insert from CPU
 * costs; here a schedule decides it, so one interleaving can be replayed
 * exactly and all of them can be counted.  The programs are the
 * extent_readpages() loops of reader.c reduced to their order of effects:
 *   immediate      INSERT p; on success READ p
 *   pool:N         INSERT into the pool; N pooled -> READ each in order;
 *                  after the last INSERT, READ what is left
 *   pool-contig:N  as pool:N, and a failed INSERT with a non-empty pool
 *                  READs the pool first
 *   window         a failed INSERT with a non-empty batch READs the batch
 *                  and submits the open bio; at the end READ and submit
 * READ p appends to the open bio if it ends at p-1, else submits it and
 * opens a new one; a finished thread's open bio is submitted (not a step).
 *
 * explore walks the state graph depth first with memoisation: a state is
 * the page-presence mask plus each thread's (next insert, pool mask,
 * flushing, open bio); its value is the histogram of bios still to come
 * over all schedules from it, and the expected count under a uniformly
 * random scheduler.  Counts are exact 64-bit integers; overflow is refused.
 */
#include "pcsim/steps.h"

#include "pcsim/params.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  uint8_t next;      /* next page to INSERT */
  uint8_t flushing;  /* reading the pool out */
  uint16_t pool;     /* inserted, not yet read (bit per page) */
  uint8_t bio_first, bio_len;
  uint8_t done;
} ThreadState;

typedef struct {
  uint16_t present;
  ThreadState t[PCS_STEPS_MAX_THREADS];
} State;

typedef struct {
  const PcsPolicy *policy;
  uint32_t threads, pages;
} Model;

static gboolean finished(const Model *m, const ThreadState *t) {
  return t->next >= m->pages && !t->pool && !t->flushing;
}

/* Submits the open bio; returns 1 if there was one. */
static uint32_t submit(ThreadState *t, uint32_t id, GArray *bios) {
  if (!t->bio_len) return 0;
  if (bios) {
    PcsStepBio b = {id + 1, t->bio_first, t->bio_len};
    g_array_append_val(bios, b);
  }
  t->bio_len = 0;
  return 1;
}

static uint32_t read_page(ThreadState *t, uint32_t id, uint32_t p, GArray *bios) {
  if (t->bio_len && t->bio_first + t->bio_len == p) {
    t->bio_len++;
    return 0;
  }
  uint32_t n = submit(t, id, bios);
  t->bio_first = (uint8_t)p;
  t->bio_len = 1;
  return n;
}

/* Thread ID takes one step; returns the bios it submitted. */
static uint32_t step(const Model *m, State *s, uint32_t id, GArray *bios) {
  ThreadState *t = &s->t[id];
  PcsPolicyKind kind = m->policy->kind;
  uint32_t n = 0;
  if (t->flushing) {
    uint32_t p = (uint32_t)__builtin_ctz(t->pool);
    t->pool &= (uint16_t)~(1u << p);
    n += read_page(t, id, p, bios);
    if (!t->pool) {
      t->flushing = 0;
      if (kind == PCS_POLICY_WINDOW) n += submit(t, id, bios);
    }
  } else {
    uint32_t p = t->next++;
    if (!(s->present & (1u << p))) {
      s->present |= (uint16_t)(1u << p);
      t->pool |= (uint16_t)(1u << p);
      if (m->policy->pool && (uint32_t)__builtin_popcount(t->pool) >= m->policy->pool) t->flushing = 1;
    } else if (t->pool && (kind == PCS_POLICY_POOL_CONTIG || kind == PCS_POLICY_WINDOW)) {
      t->flushing = 1;
    }
    if (t->next >= m->pages && t->pool) t->flushing = 1;
  }
  if (finished(m, t)) {
    t->done = 1;
    n += submit(t, id, bios);
  }
  return n;
}

static void state_init(const Model *m, State *s) {
  memset(s, 0, sizeof *s);
  for (uint32_t i = m->threads; i < PCS_STEPS_MAX_THREADS; i++) s->t[i].done = 1;
}

/* ---- schedule files ---- */

void pcs_schedule_clear(PcsSchedule *s) {
  if (s->steps) g_array_free(s->steps, TRUE);
  if (s->step_lines) g_array_free(s->step_lines, TRUE);
  s->steps = s->step_lines = NULL;
}

static gboolean sched_error(GError **error, const char *path, guint line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean sched_error(GError **error, const char *path, guint line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", path, line, msg);
  return FALSE;
}

static gboolean sched_number(const char *word, const char *path, guint line, const char *key,
                             uint64_t lo, uint64_t hi, uint64_t *out, GError **error) {
  if (!pcs_parse_u64(word, out) || *out < lo || *out > hi)
    return sched_error(error, path, line, "%s '%s': expected an integer from %" G_GUINT64_FORMAT
                       " to %" G_GUINT64_FORMAT, key, word, lo, hi);
  return TRUE;
}

gboolean pcs_schedule_load(PcsSchedule *s, const char *path, GError **error) {
  memset(s, 0, sizeof *s);
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (g_file_test(path, G_FILE_TEST_IS_DIR))
    return sched_error(error, path, 0, "is a directory, expected a schedule file");
  if (!g_file_get_contents(path, &text, &len, &e)) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: cannot read: %s", path, e->message);
    g_error_free(e);
    return FALSE;
  }
  return pcs_schedule_load_text(s, path, text, len, error);
}

gboolean pcs_schedule_load_text(PcsSchedule *s, const char *path, const char *data, size_t len, GError **error) {
  memset(s, 0, sizeof *s);
  if (memchr(data, 0, len) || !g_utf8_validate(data, (gssize)len, NULL))
    return sched_error(error, path, 1, "not a text file");
  g_autofree char *text = g_strndup(data, len);
  s->steps = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GArray *step_lines = g_array_new(FALSE, FALSE, sizeof(guint));
  gboolean ok = TRUE;
  for (guint i = 0; ok && lines[i]; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash) *hash = 0;
    g_auto(GStrv) split = g_strsplit_set(g_strstrip(lines[i]), " \t\r", -1);
    g_autofree const char **words = g_new0(const char *, g_strv_length(split) + 1);
    guint nw = 0;
    for (guint w = 0; split[w]; w++)
      if (*split[w]) words[nw++] = split[w];
    if (!nw) continue;
    uint64_t v;
    if (!strcmp(words[0], "threads") || !strcmp(words[0], "pages")) {
      gboolean th = words[0][0] == 't';
      if (nw != 2) { ok = sched_error(error, path, i + 1, "'%s' takes one number", words[0]); break; }
      ok = sched_number(words[1], path, i + 1, words[0], 1, th ? PCS_STEPS_MAX_THREADS : PCS_STEPS_MAX_PAGES, &v, error);
      if (ok) *(th ? &s->threads : &s->pages) = (uint32_t)v;
    } else if (!strcmp(words[0], "steps")) {
      for (guint w = 1; ok && w < nw; w++) {
        ok = sched_number(words[w], path, i + 1, "step", 1, PCS_STEPS_MAX_THREADS, &v, error);
        uint32_t id = (uint32_t)v;
        guint line = i + 1;
        if (ok) g_array_append_val(s->steps, id), g_array_append_val(step_lines, line);
      }
    } else {
      ok = sched_error(error, path, i + 1, "unknown keyword '%s': expected threads, pages or steps", words[0]);
    }
  }
  if (ok && (!s->threads || !s->pages))
    ok = sched_error(error, path, 1, "missing '%s N'", s->threads ? "pages" : "threads");
  s->step_lines = step_lines; /* replay names the line of a bad step */
  if (!ok) pcs_schedule_clear(s);
  return ok;
}

/* ---- replay ---- */

gboolean pcs_steps_replay(const PcsSchedule *sched, const PcsPolicy *policy, GArray *bios,
                          const char *path, GError **error) {
  Model m = {policy, sched->threads, sched->pages};
  State s;
  state_init(&m, &s);
  for (guint i = 0; i < sched->steps->len; i++) {
    uint32_t id = g_array_index(sched->steps, uint32_t, i);
    guint line = g_array_index(sched->step_lines, guint, i);
    if (id > m.threads)
      return sched_error(error, path, line, "step %u names thread %u, but there are only %u threads",
                         i + 1, id, m.threads);
    if (s.t[id - 1].done)
      return sched_error(error, path, line, "step %u names thread %u, which has already finished under %s",
                         i + 1, id, policy->name);
    step(&m, &s, id - 1, bios);
  }
  for (uint32_t id = 0; id < m.threads; id++)
    while (!s.t[id].done) step(&m, &s, id, bios);
  return TRUE;
}

/* ---- explore ---- */

typedef struct {
  uint64_t *hist; /* bios still to come -> schedules */
  double expected;
} Value;

typedef struct {
  Model m;
  GHashTable *memo; /* State bytes -> Value */
  uint32_t hist_len;
  gboolean overflow;
  guint limit;
} Explorer;

static void value_free(gpointer p) {
  Value *v = p;
  g_free(v->hist);
  g_free(v);
}

static guint state_hash(gconstpointer p) {
  const guchar *b = p;
  guint h = 2166136261u;
  for (size_t i = 0; i < sizeof(State); i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

static gboolean state_equal(gconstpointer a, gconstpointer b) { return memcmp(a, b, sizeof(State)) == 0; }

static const Value *explore_state(Explorer *x, const State *s) {
  Value *v = g_hash_table_lookup(x->memo, s);
  if (v) return v;
  v = g_new0(Value, 1);
  v->hist = g_new0(uint64_t, x->hist_len);
  uint32_t runnable = 0;
  for (uint32_t id = 0; id < x->m.threads; id++) {
    if (s->t[id].done) continue;
    runnable++;
    State next = *s;
    uint32_t n = step(&x->m, &next, id, NULL);
    const Value *sub = explore_state(x, &next);
    for (uint32_t k = 0; k + n < x->hist_len; k++)
      if (sub->hist[k] && __builtin_add_overflow(v->hist[k + n], sub->hist[k], &v->hist[k + n]))
        x->overflow = TRUE;
    v->expected += n + sub->expected;
  }
  if (runnable)
    v->expected /= runnable;
  else
    v->hist[0] = 1; /* the empty schedule from a final state */
  g_hash_table_insert(x->memo, g_memdup2(s, sizeof *s), v);
  return v;
}

gboolean pcs_steps_explore(uint32_t threads, uint32_t pages, const PcsPolicy *policy,
                           PcsExplore *out, GError **error) {
  memset(out, 0, sizeof *out);
  if (threads < 1 || threads > 6 || pages < 1 || pages > 12 || threads * pages > 24) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "explore: --threads %u --pages %u is too large to enumerate here: "
                "at most 6 threads, 12 pages and threads*pages <= 24 (e.g. 2x8, 3x6, 4x4)", threads, pages);
    return FALSE;
  }
  Explorer x = {{policy, threads, pages}, NULL, threads * pages + 2, FALSE, 0};
  x.memo = g_hash_table_new_full(state_hash, state_equal, g_free, value_free);
  State s;
  state_init(&x.m, &s);
  const Value *root = explore_state(&x, &s);
  gboolean ok = !x.overflow;
  if (!ok) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "explore: --threads %u --pages %u under %s has more schedules than 64-bit counts hold",
                threads, pages, policy->name);
  } else {
    out->hist_len = x.hist_len;
    out->histogram = g_memdup2(root->hist, x.hist_len * sizeof(uint64_t));
    out->random_expected_bios = root->expected;
    unsigned __int128 total = 0, weighted = 0;
    out->min_bios = UINT32_MAX;
    for (uint32_t k = 0; k < x.hist_len; k++) {
      if (!root->hist[k]) continue;
      total += root->hist[k];
      weighted += (unsigned __int128)k * root->hist[k];
      out->min_bios = MIN(out->min_bios, k);
      out->max_bios = k;
    }
    if (total > UINT64_MAX) {
      ok = FALSE;
      g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT, "explore: schedule count overflows 64 bits");
    }
    out->schedules = (uint64_t)total;
    out->mean_bios = (double)((long double)weighted / (long double)total);
  }
  g_hash_table_destroy(x.memo);
  return ok;
}

void pcs_explore_clear(PcsExplore *e) { g_clear_pointer(&e->histogram, g_free); }
