/* reader.c - one fio reader thread: the read() loop and ->readpages.
 *
 * Mirrors do_generic_file_read() (mm/filemap.c, v3.x) for each page of a
 * read() call:
 *   1. look the page up; on a miss run synchronous readahead and look again;
 *   2. still missing: the single-page fallback (no_cached_page: insert,
 *      ->readpage, submit at once; -EEXIST goes back to the lookup);
 *   3. PG_readahead set: clear it and run asynchronous readahead;
 *   4. not up to date: sleep on the page lock until its bio completes;
 *   5. copy it to the user buffer.
 * and btrfs extent_readpages() for the list readahead hands over, under the
 * run's policy (see policy.h):
 *   immediate      INSERT p; on success READ p                (pool of 1)
 *   pool:N         INSERT into a pool of N; full pool -> READ each, in order
 *   pool-contig:N  as pool:N, and a failed INSERT flushes a non-empty pool
 *   window         INSERT all; a failed INSERT or a page present at lookup
 *                  ends the batch, which is READ and submitted on its own
 * READ p is __extent_read_full_page(): per-page setup, then
 * submit_extent_page() (bio.c) appends p to the thread's open bio or
 * submits it and opens a new one.  The open bio survives from one pool to
 * the next and is submitted when the call ends.  The call runs inside
 * blk_start_plug()/blk_finish_plug() (read_pages()).
 *
 * Every action that costs CPU is one step: reader_step() is called when it
 * has run, applies its effect, and picks the next.  Decisions that cost
 * nothing (lookups, policy bookkeeping) are made in between, at one instant.
 */
#include "internal.h"

#include <string.h>

static void step(PcsSim *s, PcsReader *r, PcsReaderPhase phase, uint64_t base_cost) {
  r->phase = phase;
  pcs_cpu_run(s, r->id, pcs_cpu_cost(s, r->id, base_cost));
}

void pcs_reader_init(PcsSim *s, PcsReader *r, uint32_t id) {
  memset(r, 0, sizeof *r);
  r->id = id;
  r->phase = PCS_RD_START;
  r->list.cap = (uint32_t)(2 * s->window_pages + s->block_pages);
  r->list.pages = g_new(uint64_t, r->list.cap);
  r->list.marker = UINT64_MAX;
  r->pool_cap = r->list.cap;
  r->pool = g_new(uint64_t, r->pool_cap);
  r->open_bio = PCS_NONE;
}

void pcs_reader_clear(PcsReader *r) {
  g_clear_pointer(&r->list.pages, g_free);
  g_clear_pointer(&r->pool, g_free);
}

/* add_to_page_cache_lru() of PAGE by R: the insert race (pagecache.c), then
 * the frame the page got (alloc.c).  *CPU gets the CPU time, spinning included. */
static gboolean add_to_page_cache(PcsSim *s, PcsReader *r, uint64_t page, PcsTime *cpu) {
  if (pcs_pc_insert(&s->pc, page, s->evq.now, cpu) == -EEXIST) {
    s->res->eexist++;
    pcs_alloc_free(&s->alloc, r->id); /* its private page goes back */
    pcs_trace(s, r->id + 1, PCS_TRACE_EEXIST, page, 0);
    return FALSE;
  }
  if (page == r->list.marker) pcs_pc_set_readahead(&s->pc, page);
  if (pcs_alloc_page(&s->alloc, r->id, page)) pcs_pc_set_frame_contig(&s->pc, page);
  pcs_trace(s, r->id + 1, PCS_TRACE_INSERT, page, 0);
  return TRUE;
}

static void file_next(PcsSim *s, PcsReader *r);

/* ---- ->readpages ---------------------------------------------------------- */

static void readpages_begin(PcsSim *s, PcsReader *r, const PcsPolicy *policy, gboolean plugged) {
  r->in_readpages = TRUE;
  r->rp_policy = *policy;
  r->pool_n = r->pool_i = 0;
  r->flushing = r->open_after_submit = FALSE;
  if (plugged) pcs_blk_start_plug(s, r->id);
}

static void readpages_end(PcsSim *s, PcsReader *r) {
  r->in_readpages = FALSE;
  pcs_blk_finish_plug(s, r->id);
  file_next(s, r);
}

/* Pick and start the next step of the current ->readpages call. */
static void readpages_next(PcsSim *s, PcsReader *r) {
  const PcsParams *p = s->p;
  PcsPolicyKind kind = r->rp_policy.kind;
  for (;;) {
    if (r->flushing) {
      if (r->pool_i < r->pool_n) {
        r->cur_page = r->pool[r->pool_i++];
        step(s, r, PCS_RD_READ, p->cost_read_setup);
        return;
      }
      r->pool_n = r->pool_i = 0;
      r->flushing = FALSE;
      if (kind == PCS_POLICY_WINDOW && r->open_bio != PCS_NONE) {
        step(s, r, PCS_RD_SUBMIT, p->cost_bio_submit); /* each batch its own bio */
        return;
      }
      continue;
    }
    if (r->list.next < r->list.n) {
      uint64_t page = r->list.pages[r->list.next];
      if (kind == PCS_POLICY_WINDOW && r->pool_n && page != r->pool[r->pool_n - 1] + 1) {
        r->flushing = TRUE; /* a page present at lookup splits the batch */
        continue;
      }
      r->list.next++;
      r->cur_page = page;
      PcsTime spin;
      r->insert_won = add_to_page_cache(s, r, page, &spin);
      step(s, r, PCS_RD_INSERT, spin + (r->insert_won ? p->cost_insert_won : p->cost_insert_lost));
      return;
    }
    if (r->pool_n) {
      r->flushing = TRUE; /* the list ended: read what is pooled */
      continue;
    }
    if (r->open_bio != PCS_NONE) {
      step(s, r, PCS_RD_SUBMIT, p->cost_bio_submit);
      return;
    }
    readpages_end(s, r);
    return;
  }
}

static void insert_done(PcsSim *s, PcsReader *r) {
  PcsPolicyKind kind = r->rp_policy.kind;
  if (r->insert_won) {
    r->pool[r->pool_n++] = r->cur_page;
    if (r->rp_policy.pool && r->pool_n >= r->rp_policy.pool) r->flushing = TRUE;
  } else if (r->pool_n && (kind == PCS_POLICY_POOL_CONTIG || kind == PCS_POLICY_WINDOW)) {
    r->flushing = TRUE;
  }
  readpages_next(s, r);
}

static void read_done(PcsSim *s, PcsReader *r) {
  pcs_trace(s, r->id + 1, PCS_TRACE_READ, r->cur_page, 0);
  if (pcs_bio_add_page(s, &r->open_bio, r->id, r->cur_page)) {
    readpages_next(s, r);
    return;
  }
  r->open_after_submit = TRUE; /* not contiguous or full: submit, then open */
  step(s, r, PCS_RD_SUBMIT, s->p->cost_bio_submit);
}

static void submit_done(PcsSim *s, PcsReader *r) {
  pcs_bio_submit(s, &r->open_bio);
  if (r->open_after_submit) {
    r->open_after_submit = FALSE;
    pcs_bio_open(s, &r->open_bio, r->id, r->cur_page);
  }
  readpages_next(s, r);
}

/* ---- do_generic_file_read() ----------------------------------------------- */

static void finish(PcsSim *s, PcsReader *r) {
  r->phase = PCS_RD_DONE;
  r->done_at = s->evq.now;
  s->readers_done++;
  pcs_trace(s, r->id + 1, PCS_TRACE_FINISH, r->pos, 0);
  pcs_cpu_release(s, r->id);
}

static void file_next(PcsSim *s, PcsReader *r) {
  static const PcsPolicy single_page = {PCS_POLICY_IMMEDIATE, 1, "immediate"};
  for (;;) {
    uint64_t page = r->pos;
    if (page == r->call_end) {
      if (page == s->npages) {
        finish(s, r);
        return;
      }
      r->call_end = MIN(page + s->block_pages, s->npages);
      pcs_trace(s, r->id + 1, PCS_TRACE_SYSCALL, page, r->call_end - page);
      step(s, r, PCS_RD_SYSCALL, s->p->cost_syscall);
      return;
    }
    uint64_t req = r->call_end - page;
    if (!pcs_pc_present(&s->pc, page)) {
      if (!r->tried_ra) {
        r->tried_ra = TRUE;
        if (pcs_ra_sync(s, r->id, &r->ra, &r->list, page, req)) {
          readpages_begin(s, r, &s->policy, TRUE);
          readpages_next(s, r);
          return;
        }
        continue;
      }
      /* no_cached_page: ->readpage() of this one page, unplugged */
      s->res->fallback_reads++;
      r->list.pages[0] = page;
      r->list.n = 1;
      r->list.next = 0;
      r->list.marker = UINT64_MAX;
      readpages_begin(s, r, &single_page, FALSE);
      readpages_next(s, r);
      return;
    }
    if (pcs_pc_test_clear_readahead(&s->pc, page)) { /* first toucher only */
      if (pcs_ra_async(s, r->id, &r->ra, &r->list, page, req)) {
        readpages_begin(s, r, &s->policy, TRUE);
        readpages_next(s, r);
        return;
      }
      continue;
    }
    if (!pcs_pc_uptodate(&s->pc, page)) {
      r->phase = PCS_RD_SLEEP;
      pcs_pc_wait(&s->pc, r->id, page);
      s->res->waits++;
      pcs_trace(s, r->id + 1, PCS_TRACE_WAIT, page, 0);
      pcs_cpu_release(s, r->id);
      return;
    }
    step(s, r, PCS_RD_COPY, s->p->cost_copy);
    return;
  }
}

void pcs_reader_start(PcsSim *s, PcsReader *r) { file_next(s, r); }

void pcs_reader_wake(PcsSim *s, PcsReader *r) {
  g_assert(r->phase == PCS_RD_SLEEP);
  file_next(s, r);
}

/* A CPU step of R has run: apply its effect and pick the next. */
void pcs_reader_step(PcsSim *s, PcsReader *r) {
  switch (r->phase) {
  case PCS_RD_SYSCALL:
    file_next(s, r);
    break;
  case PCS_RD_COPY:
    pcs_trace(s, r->id + 1, PCS_TRACE_COPY, r->pos, 0);
    r->ra.prev_index = r->pos;
    r->ra.prev_valid = TRUE;
    r->pos++;
    r->tried_ra = FALSE;
    s->res->thread_bytes[r->id] += PCS_PAGE_SIZE;
    file_next(s, r);
    break;
  case PCS_RD_INSERT:
    insert_done(s, r);
    break;
  case PCS_RD_READ:
    read_done(s, r);
    break;
  case PCS_RD_SUBMIT:
    submit_done(s, r);
    break;
  default:
    g_assert_not_reached();
  }
}
