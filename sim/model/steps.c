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
 * A schedule is a sequence of turns.  Policies take different numbers of
 * steps for the same pages (immediate reads between inserts, pool:N does
 * not), so a schedule written for one policy may name a thread that has
 * already finished under another.  `pcsim replay` lets such a turn pass
 * idle (pcs_steps_replay_turns()) and says which; the strict replay, used
 * to hold this model against reader.c step for step, refuses it.
 *
 * Agreement with reader.c is tested, not assumed: tests/test_steps.c runs
 * the full simulator on small races and replays each of its ->readpages
 * calls here (the caller as thread 1, thread 2 taking the pages the caller
 * did not get), requiring the caller's trace from pcs_steps_trace()
 * (INSERT, EEXIST, READ, SUBMIT) to match step for step.  Where the models
 * differ by design (no readahead lookup here: every thread tries every
 * page; one ->readpages call per thread; no bio size or stripe limits; a
 * submit costs no time) is written down beside that test.
 *
 * explore walks the state graph depth first with memoisation: a state is
 * the page-presence mask plus each thread's (next insert, pool mask,
 * flushing, open bio); its value is the histogram of bios still to come
 * over all schedules from it, and the expected count under a uniformly
 * random scheduler.  Counts are exact 64-bit integers; overflow is refused.
 */
#include "pcsim/steps.h"

#include "pcsim/params.h"
#include "pcsim/text.h"

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

G_STATIC_ASSERT(PCS_STEPS_MAX_PAGES <= 8 * sizeof(((State *)0)->present));
G_STATIC_ASSERT(PCS_STEPS_MAX_PAGES <= 8 * sizeof(((ThreadState *)0)->pool));
G_STATIC_ASSERT(PCS_EXPLORE_MAX_THREADS <= PCS_STEPS_MAX_THREADS);
G_STATIC_ASSERT(PCS_EXPLORE_MAX_PAGES <= PCS_STEPS_MAX_PAGES);
G_STATIC_ASSERT(PCS_EXPLORE_MAX_CELLS <= PCS_EXPLORE_MAX_THREADS * PCS_EXPLORE_MAX_PAGES);

typedef struct {
  const PcsPolicy *policy;
  uint32_t threads, pages;
} Model;

/* Where a replay tells its effects; explore passes none. */
typedef struct {
  PcsTraceFn fn;
  void *user;
  PcsTime step; /* 1-based number of the step being taken */
} Sink;

static void tell(const Sink *k, uint32_t id, PcsTraceKind kind, uint64_t a, uint64_t b) {
  if (k && k->fn) k->fn(k->user, k->step, id + 1, kind, a, b);
}

static gboolean finished(const Model *m, const ThreadState *t) {
  return t->next >= m->pages && !t->pool && !t->flushing;
}

/* Submits the open bio; returns 1 if there was one. */
static uint32_t submit(ThreadState *t, uint32_t id, const Sink *k) {
  if (!t->bio_len) return 0;
  tell(k, id, PCS_TRACE_SUBMIT, t->bio_first, t->bio_len);
  t->bio_len = 0;
  return 1;
}

/* READ p: models submit_extent_page()'s contiguity check. */
static uint32_t read_page(ThreadState *t, uint32_t id, uint32_t p, const Sink *k) {
  tell(k, id, PCS_TRACE_READ, p, 0);
  if (t->bio_len && t->bio_first + t->bio_len == p) {
    t->bio_len++;
    return 0;
  }
  uint32_t n = submit(t, id, k);
  t->bio_first = (uint8_t)p;
  t->bio_len = 1;
  return n;
}

/* Thread ID takes one step; returns the bios it submitted. */
static uint32_t step(const Model *m, State *s, uint32_t id, const Sink *k) {
  ThreadState *t = &s->t[id];
  PcsPolicyKind kind = m->policy->kind;
  uint32_t n = 0;
  if (t->flushing) {
    uint32_t p = (uint32_t)__builtin_ctz(t->pool);
    t->pool &= (uint16_t)~(1u << p);
    n += read_page(t, id, p, k);
    if (!t->pool) {
      t->flushing = 0;
      if (kind == PCS_POLICY_WINDOW) n += submit(t, id, k);
    }
  } else {
    uint32_t p = t->next++;
    if (!(s->present & (1u << p))) {
      tell(k, id, PCS_TRACE_INSERT, p, 0);
      s->present |= (uint16_t)(1u << p);
      t->pool |= (uint16_t)(1u << p);
      if (m->policy->pool && (uint32_t)__builtin_popcount(t->pool) >= m->policy->pool) t->flushing = 1;
    } else {
      tell(k, id, PCS_TRACE_EEXIST, p, 0);
      if (t->pool && (kind == PCS_POLICY_POOL_CONTIG || kind == PCS_POLICY_WINDOW)) t->flushing = 1;
    }
    if (t->next >= m->pages && t->pool) t->flushing = 1;
  }
  if (finished(m, t)) {
    t->done = 1;
    n += submit(t, id, k);
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

static gboolean sched_number(const char *word, const char *path, guint line, const char *key,
                             uint64_t lo, uint64_t hi, uint64_t *out, GError **error) {
  if (!pcs_parse_u64(word, out) || *out < lo || *out > hi)
    return pcs_input_error(error, path, line, "%s '%s': expected an integer from %" G_GUINT64_FORMAT
                           " to %" G_GUINT64_FORMAT, key, word, lo, hi);
  return TRUE;
}

/* One line's words (comment stripped): "threads N", "pages N" or "steps ID...". */
static gboolean sched_line(PcsSchedule *s, const char *path, guint line, const char **words, guint nw,
                           GError **error) {
  uint64_t v;
  if (!strcmp(words[0], "threads") || !strcmp(words[0], "pages")) {
    gboolean th = words[0][0] == 't';
    if (nw != 2) return pcs_input_error(error, path, line, "'%s' takes one number", words[0]);
    if (!sched_number(words[1], path, line, words[0], 1, th ? PCS_STEPS_MAX_THREADS : PCS_STEPS_MAX_PAGES, &v,
                      error))
      return FALSE;
    *(th ? &s->threads : &s->pages) = (uint32_t)v;
    return TRUE;
  }
  if (!strcmp(words[0], "steps")) {
    for (guint w = 1; w < nw; w++) {
      if (!sched_number(words[w], path, line, "step", 1, PCS_STEPS_MAX_THREADS, &v, error)) return FALSE;
      uint32_t id = (uint32_t)v;
      g_array_append_val(s->steps, id);
      g_array_append_val(s->step_lines, line); /* replay names the line of a bad step */
    }
    return TRUE;
  }
  return pcs_input_error(error, path, line, "unknown keyword '%s': expected threads, pages or steps", words[0]);
}

/* Parses TEXT (modified in place). */
static gboolean sched_parse(PcsSchedule *s, const char *path, char *text, GError **error) {
  s->steps = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  s->step_lines = g_array_new(FALSE, FALSE, sizeof(guint));
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  gboolean ok = TRUE;
  for (guint i = 0; ok && lines[i]; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash) *hash = 0;
    g_auto(GStrv) split = g_strsplit_set(g_strstrip(lines[i]), " \t\r", -1);
    g_autofree const char **words = g_new0(const char *, g_strv_length(split) + 1);
    guint nw = 0;
    for (guint w = 0; split[w]; w++)
      if (*split[w]) words[nw++] = split[w];
    if (nw) ok = sched_line(s, path, i + 1, words, nw, error);
  }
  if (ok && (!s->threads || !s->pages))
    ok = pcs_input_error(error, path, 1, "missing '%s N'", s->threads ? "pages" : "threads");
  if (!ok) pcs_schedule_clear(s);
  return ok;
}

gboolean pcs_schedule_load(PcsSchedule *s, const char *path, GError **error) {
  memset(s, 0, sizeof *s);
  g_autofree char *text = NULL;
  if (!pcs_text_read(path, PCS_TEXT_PLAIN, &text, NULL, error)) return FALSE;
  return sched_parse(s, path, text, error);
}

gboolean pcs_schedule_load_text(PcsSchedule *s, const char *path, const char *data, size_t len, GError **error) {
  memset(s, 0, sizeof *s);
  if (!pcs_text_check(path, data, len, error)) return FALSE;
  g_autofree char *text = g_strndup(data, len);
  return sched_parse(s, path, text, error);
}

/* ---- replay ---- */

/* Runs SCHED; with IDLE, a step naming a finished thread passes (its
 * number goes into IDLE), without it that step is an error. */
static gboolean steps_run(const PcsSchedule *sched, const PcsPolicy *policy, PcsTraceFn trace, void *user,
                          GArray *idle, const char *path, GError **error) {
  Model m = {policy, sched->threads, sched->pages};
  State s;
  state_init(&m, &s);
  Sink k = {trace, user, 0};
  for (guint i = 0; i < sched->steps->len; i++) {
    uint32_t id = g_array_index(sched->steps, uint32_t, i);
    guint line = g_array_index(sched->step_lines, guint, i);
    if (id > m.threads)
      return pcs_input_error(error, path, line, "step %u names thread %u, but there are only %u threads",
                             i + 1, id, m.threads);
    if (s.t[id - 1].done && idle) {
      guint n = i + 1;
      g_array_append_val(idle, n);
      continue;
    }
    if (s.t[id - 1].done)
      return pcs_input_error(error, path, line,
                             "step %u names thread %u, which has already finished under %s", i + 1, id,
                             policy->name);
    k.step++;
    step(&m, &s, id - 1, &k);
  }
  for (uint32_t id = 0; id < m.threads; id++)
    while (!s.t[id].done) {
      k.step++;
      step(&m, &s, id, &k);
    }
  return TRUE;
}

gboolean pcs_steps_trace(const PcsSchedule *sched, const PcsPolicy *policy, PcsTraceFn trace, void *user,
                         const char *path, GError **error) {
  return steps_run(sched, policy, trace, user, NULL, path, error);
}

static void collect_bio(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  (void)t;
  if (kind != PCS_TRACE_SUBMIT) return;
  PcsStepBio bio = {thread, (uint32_t)a, (uint32_t)b};
  g_array_append_val((GArray *)user, bio);
}

gboolean pcs_steps_replay(const PcsSchedule *sched, const PcsPolicy *policy, GArray *bios,
                          const char *path, GError **error) {
  return pcs_steps_trace(sched, policy, collect_bio, bios, path, error);
}

gboolean pcs_steps_replay_turns(const PcsSchedule *sched, const PcsPolicy *policy, GArray *bios, GArray *idle,
                                const char *path, GError **error) {
  return steps_run(sched, policy, collect_bio, bios, idle, path, error);
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
  if (threads < 1 || threads > PCS_EXPLORE_MAX_THREADS || pages < 1 || pages > PCS_EXPLORE_MAX_PAGES ||
      threads * pages > PCS_EXPLORE_MAX_CELLS) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "--threads %u --pages %u is too large to enumerate here: "
                "at most %u threads, %u pages and threads*pages <= %u (e.g. 2x8, 3x6, 4x4)", threads, pages,
                PCS_EXPLORE_MAX_THREADS, PCS_EXPLORE_MAX_PAGES, PCS_EXPLORE_MAX_CELLS);
    return FALSE;
  }
  Explorer x = {{policy, threads, pages}, NULL, threads * pages + 2, FALSE};
  x.memo = g_hash_table_new_full(state_hash, state_equal, g_free, value_free);
  State s;
  state_init(&x.m, &s);
  const Value *root = explore_state(&x, &s);
  gboolean ok = !x.overflow;
  if (!ok) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "--threads %u --pages %u under %s has more schedules than 64-bit counts hold",
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
      g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT, "schedule count overflows 64 bits");
    }
    out->schedules = (uint64_t)total;
    out->mean_bios = (double)((long double)weighted / (long double)total);
  }
  g_hash_table_destroy(x.memo);
  return ok;
}

void pcs_explore_clear(PcsExplore *e) { g_clear_pointer(&e->histogram, g_free); }
