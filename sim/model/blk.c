/* blk.c - the block layer: per-task plug, elevator merging, requests.
 *
 * Under [scenario] kernel = v3.5 it mirrors blk_queue_bio(), get_request()
 * and blk_flush_plug_list() (block/blk-core.c of v3.5) with CFQ's merge
 * rules (block/cfq-iosched.c, elevator.c):
 *   - a bio first tries to back- or front-merge into a request on the
 *     submitting task's plug list (attempt_plug_merge());
 *   - then into a request still queued in the elevator, but only one of
 *     the same task: cfq_allow_merge() refuses a sync bio (every read)
 *     whose cfq queue is not the request's, and cfq_merge() looks for a
 *     front merge in the task's own queue only.  A merged request then
 *     tries its queued neighbours of the same task (attempt_back_merge()
 *     and attempt_front_merge() take elv_rb_latter/former_request() from
 *     the task's cfq queue);
 *   - otherwise it needs a new request (get_request()): at most
 *     block.nr_requests exist at once (plugged, queued or in service); a
 *     task that finds none flushes its plug (schedule() does) and sleeps in
 *     get_request_wait() until one is freed, one sleeper woken per freed
 *     request (an exclusive wait queue).  The queue is congested from
 *     nr_requests - nr_requests/8 + 1 requests until it drops below
 *     nr_requests - nr_requests/8 - nr_requests/16 - 1
 *     (blk_queue_congestion_threshold()); readahead.c skips asynchronous
 *     readahead meanwhile (page_cache_async_readahead());
 *   - a new request goes on the plug list (flushed first if it already holds
 *     block.plug_max requests, BLK_MAX_REQUEST_COUNT = 16);
 *   - blk_finish_plug() flushes the plug list: each request is inserted
 *     with one more merge attempt (ELEVATOR_INSERT_SORT_MERGE), which in
 *     elv_attempt_insert_merge() is a back merge only, into a queued request
 *     of any task (attempt_merge() asks no scheduler), and nothing further;
 *     then the queue runs and dispatches up to the device's queue depth.
 * No request grows past block.max_sectors or block.max_segments (a segment
 * is a run of physically contiguous pages, see bio.c and alloc.c).
 *
 * Under [scenario] kernel = v6.18 the queue is blk-mq with scheduler "none"
 * (what loop devices get), mirroring blk_mq_submit_bio():
 *   - blk_mq_attempt_bio_merge(): a bio merges only into the request added
 *     last to the submitting task's own plug (blk_attempt_plug_merge()
 *     tries the plug list's tail on a single-queue plug); with no elevator
 *     there is no merge into a request another task queued, and no insert
 *     merge when the plug is flushed;
 *   - blk_add_rq_to_plug(): the plug is flushed before a new request joins
 *     it when it already holds block.plug_max requests (BLK_MAX_REQUEST_COUNT,
 *     32) or when its last request is block.plug_flush_size or larger
 *     (BLK_PLUG_FLUSH_SIZE, 128 KiB).
 *
 * With block.cfq_quantum > 0 (v3.5) requests leave as CFQ dispatches them
 * (cfq_dispatch_requests()): each task's requests form its cfq queue; only
 * the active queue dispatches, quantum/2 requests in service, up to quantum
 * while its slice is not nearly used (cfq_may_dispatch()), without limit
 * when it is the only busy queue; its slice (block.cfq_slice_sync, scaled
 * by low_latency) starts when its first request completes; it expires when
 * the slice is used or the queue is empty, and the busy queue first on the
 * service tree follows.  It never idles: on a non-rotational device with
 * NCQ (hw_tag) cfq_arm_slice_timer() returns at once and
 * cfq_should_idle() holds only for the last queue of its tree; queues of
 * cooperating tasks are not merged (cfq_close_cooperator() skips "seeky"
 * queues, which on such a device means requests under 32 KiB: what racing
 * readers make).  Within a queue requests leave oldest first (CFQ sorts by
 * sector; one task's requests are ascending already).
 *
 * Lookups (v3.5): the queued requests are hashed by first and by end
 * sector, as the kernel's elv_rqhash and cfq sort tree serve it; a lookup
 * returns exactly the request a walk of the FIFO from its head would meet
 * first (debug builds check every lookup against that walk).
 *
 * Differs from the kernel: with block.cfq_quantum = 0 requests leave the
 * elevator in insertion order; no idling (rotational devices); a full
 * queue makes no "batcher" (ioc_batching() lets the task that filled it
 * allocate up to 3/2 nr_requests); the plug is not sorted by sector at
 * flush (one task's requests are in order already).  Under v6.18, the per-CPU software
 * queue merge of blk_mq_sched_bio_merge() is left out: with "none" a
 * request waits in ctx->rq_lists only when a plug is flushed from
 * schedule() (blk_mq_dispatch_list()), which the model never does.
 */
#include "internal.h"

#include <string.h>

uint32_t pcs_blk_rq_max_pages(const PcsParams *p) {
  return (uint32_t)MIN(p->block_max_sectors / PCS_SECTORS_PER_PAGE, UINT32_MAX);
}

void pcs_blk_init(PcsBlkQueue *q, const PcsParams *p, uint32_t ntasks) {
  *q = (PcsBlkQueue){.elv_head = PCS_NONE, .elv_tail = PCS_NONE, .nplugs = ntasks};
  pcs_pool_init(&q->requests, sizeof(PcsRequest), offsetof(PcsRequest, next), 256);
  q->plug_max = (uint32_t)p->block_plug_max;
  q->plug_flush_sectors = p->block_plug_flush_size / PCS_SECTOR_SIZE;
  q->mq_none = pcs_params_kernel(p) == PCS_KERNEL_V6_18;
  if (!q->mq_none && p->block_nr_requests) { /* blk_queue_congestion_threshold() */
    uint32_t nr = (uint32_t)p->block_nr_requests;
    q->nr_requests = nr;
    q->congestion_on = MIN(nr - nr / 8 + 1, nr);
    q->congestion_off = nr - nr / 8 - nr / 16 > 1 ? nr - nr / 8 - nr / 16 - 1 : 1;
  }
  q->active = PCS_NONE;
  if (!q->mq_none && p->block_cfq_quantum) {
    q->cfq_quantum = (uint32_t)p->block_cfq_quantum;
    q->cfqq = g_new0(PcsCfqQueue, MAX(ntasks, 1));
  }
  if (!q->mq_none) { /* buckets: a power of two, at least 4 per request nr_requests allows */
    uint32_t n = 256;
    while (n < 4 * MIN(q->nr_requests, 1u << 20)) n *= 2;
    q->hash_mask = n - 1;
    q->hash_start = g_new(uint32_t, n);
    q->hash_end = g_new(uint32_t, n);
    for (uint32_t i = 0; i < n; i++) q->hash_start[i] = q->hash_end[i] = PCS_NONE;
  }
  q->waiters = g_new(uint32_t, MAX(ntasks, 1));
  q->rq_max_pages = pcs_blk_rq_max_pages(p);
  q->plugs = g_new0(PcsPlug, MAX(ntasks, 1));
  for (uint32_t t = 0; t < ntasks; t++) q->plugs[t].rqs = g_new(uint32_t, q->plug_max);
}

void pcs_blk_clear(PcsBlkQueue *q) {
  for (uint32_t t = 0; t < q->nplugs; t++) g_free(q->plugs[t].rqs);
  g_clear_pointer(&q->plugs, g_free);
  g_clear_pointer(&q->waiters, g_free);
  g_clear_pointer(&q->hash_start, g_free);
  g_clear_pointer(&q->hash_end, g_free);
  g_clear_pointer(&q->cfqq, g_free);
  pcs_pool_clear(&q->requests);
}

static inline PcsBio *bio_at(PcsSim *s, uint32_t id) { return pcs_bio_at(&s->bio, id); }
static inline PcsRequest *rq_at(PcsSim *s, uint32_t id) { return pcs_rq_at(&s->blk, id); }
static inline uint32_t bio_sectors(const PcsBio *b) { return b->npages * PCS_SECTORS_PER_PAGE; }
static inline uint64_t bio_sector(const PcsBio *b) { return b->first * PCS_SECTORS_PER_PAGE; }
static inline uint64_t rq_end(const PcsRequest *rq) { return rq->sector + rq->nsect; }

static gboolean fits(PcsSim *s, const PcsRequest *rq, uint32_t nsect, uint32_t nseg) {
  return rq->nsect + nsect <= s->p->block_max_sectors && rq->nseg + nseg <= s->p->block_max_segments;
}

/* ---- merging a bio into a request ---- */

/* Does a bio of NS sectors at SECTOR touch RQ's front or back?  The cheap
 * first test of every merge attempt: most requests a bio is tried against
 * (the elevator walk below) are nowhere near it. */
static inline gboolean adjacent(const PcsRequest *rq, uint64_t sector, uint32_t ns) {
  return rq_end(rq) == sector || sector + ns == rq->sector;
}

/* blk_try_merge(): how BIO would join RQ; PCS_TRACE_SUBMIT for not at all. */
static PcsTraceKind merge_kind(PcsSim *s, const PcsRequest *rq, const PcsBio *b) {
  uint32_t ns = bio_sectors(b);
  if (!fits(s, rq, ns, b->nseg)) return PCS_TRACE_SUBMIT;
  if (rq_end(rq) == bio_sector(b)) return PCS_TRACE_BACKMERGE;
  if (bio_sector(b) + ns == rq->sector) return PCS_TRACE_FRONTMERGE;
  return PCS_TRACE_SUBMIT;
}

/* ---- the elevator's hashes (v3.5) ----
 * Every queued request is on two chains: of its first sector and of its
 * end sector.  A lookup takes, of the requests a chain holds with the
 * sector asked for, the one first in the elevator's FIFO (the smallest
 * order stamp): exactly the request a walk of the FIFO from its head
 * would find first, at the cost of one short chain. */

static inline uint32_t *hash_bucket(PcsSim *s, uint32_t *heads, uint64_t sector) {
  return &heads[(sector / PCS_SECTORS_PER_PAGE) & s->blk.hash_mask];
}

static void hash_add(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t *bs = hash_bucket(s, s->blk.hash_start, rq->sector), *be = hash_bucket(s, s->blk.hash_end, rq_end(rq));
  rq->hnext_start = *bs, *bs = id;
  rq->hnext_end = *be, *be = id;
}

static void hash_del(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t *p = hash_bucket(s, s->blk.hash_start, rq->sector);
  while (*p != id) p = &rq_at(s, *p)->hnext_start;
  *p = rq->hnext_start;
  p = hash_bucket(s, s->blk.hash_end, rq_end(rq));
  while (*p != id) p = &rq_at(s, *p)->hnext_end;
  *p = rq->hnext_end;
}

/* Call before a queued request's sector or size changes; hash_add() after. */
static inline void hash_move_begin(PcsSim *s, uint32_t id) {
  if (rq_at(s, id)->in_elv && s->blk.hash_start) hash_del(s, id);
}
static inline void hash_move_end(PcsSim *s, uint32_t id) {
  if (rq_at(s, id)->in_elv && s->blk.hash_start) hash_add(s, id);
}

#ifdef PCSIM_CHECKED
/* hash_find()'s reference: the FIFO walked from its head. */
static uint32_t walk_find(PcsSim *s, uint64_t sector, gboolean by_end, uint32_t skip, uint32_t task, uint32_t nsect,
                          uint32_t nseg) {
  for (uint32_t id = s->blk.elv_head; id != PCS_NONE; id = rq_at(s, id)->next) {
    PcsRequest *rq = rq_at(s, id);
    if ((by_end ? rq_end(rq) : rq->sector) == sector && id != skip && (task == PCS_NONE || rq->task == task) &&
        fits(s, rq, nsect, nseg))
      return id;
  }
  return PCS_NONE;
}
#endif

/* The queued request first in the FIFO whose end (BY_END) or first sector
 * is SECTOR, not SKIP, of TASK (PCS_NONE: any), that can take NSECT more
 * sectors in NSEG more segments (0, 0: any). */
static uint32_t hash_find(PcsSim *s, uint64_t sector, gboolean by_end, uint32_t skip, uint32_t task, uint32_t nsect,
                          uint32_t nseg) {
  uint32_t best = PCS_NONE;
  uint64_t best_order = UINT64_MAX;
  uint32_t id = *hash_bucket(s, by_end ? s->blk.hash_end : s->blk.hash_start, sector);
  while (id != PCS_NONE) {
    PcsRequest *rq = rq_at(s, id);
    if ((by_end ? rq_end(rq) : rq->sector) == sector && id != skip && (task == PCS_NONE || rq->task == task) &&
        rq->order < best_order && fits(s, rq, nsect, nseg))
      best = id, best_order = rq->order;
    id = by_end ? rq->hnext_end : rq->hnext_start;
  }
#ifdef PCSIM_CHECKED
  g_assert_cmpuint(best, ==, walk_find(s, sector, by_end, skip, task, nsect, nseg));
#endif
  return best;
}

static gboolean try_merge_bio(PcsSim *s, uint32_t id, uint32_t bio) {
  PcsRequest *rq = rq_at(s, id);
  PcsBio *b = bio_at(s, bio);
  uint32_t ns = bio_sectors(b);
  PcsTraceKind how = merge_kind(s, rq, b); /* the callers that walk test adjacent() first */
  if (how == PCS_TRACE_SUBMIT) return FALSE;
  hash_move_begin(s, id);
  if (how == PCS_TRACE_BACKMERGE) {
    bio_at(s, rq->bio_tail)->next = bio;
    rq->bio_tail = bio;
  } else if (how == PCS_TRACE_FRONTMERGE) {
    b->next = rq->bio_head;
    rq->bio_head = bio;
    rq->sector = bio_sector(b);
  }
  rq->nsect += ns;
  rq->nseg += b->nseg;
  hash_move_end(s, id);
  pcs_trace(s, b->thread + 1, how, b->first, b->npages);
  return TRUE;
}

/* ---- the elevator queue (doubly linked, FIFO) ---- */

static void elv_unlink(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  if (s->blk.hash_start) hash_del(s, id);
  rq->in_elv = FALSE;
  if (rq->prev != PCS_NONE) rq_at(s, rq->prev)->next = rq->next; else s->blk.elv_head = rq->next;
  if (rq->next != PCS_NONE) rq_at(s, rq->next)->prev = rq->prev; else s->blk.elv_tail = rq->prev;
  rq->prev = rq->next = PCS_NONE;
  s->blk.elv_len--;
  if (s->blk.cfqq && --s->blk.cfqq[rq->task].queued == 0) s->blk.cfq_busy--;
}

static void elv_append(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  rq->in_elv = TRUE;
  rq->order = s->blk.elv_order++;
  if (s->blk.hash_start) hash_add(s, id);
  rq->prev = s->blk.elv_tail;
  rq->next = PCS_NONE;
  if (s->blk.elv_tail != PCS_NONE) rq_at(s, s->blk.elv_tail)->next = id; else s->blk.elv_head = id;
  s->blk.elv_tail = id;
  s->blk.elv_len++;
  if (s->blk.cfqq && s->blk.cfqq[rq->task].queued++ == 0) { /* cfq_add_cfqq_rr(): joins the service tree's end */
    s->blk.cfq_busy++;
    if (rq->task != s->blk.active) s->blk.cfqq[rq->task].rr_key = ++s->blk.rr_seq;
  }
}

/* ---- CFQ dispatch (v3.5, block.cfq_quantum > 0) ---- */

/* cfq_slice_idle (HZ/125) and cfq_target_latency (300 ms) of v3.5: the
 * first only enters cfq_slice_used_soon() here (no idling, see the top). */
#define CFQ_SLICE_IDLE (8000 * (PcsTime)PCS_NS_PER_US)
#define CFQ_TARGET_LATENCY (300000 * (PcsTime)PCS_NS_PER_US)

/* cfq_scaled_cfqq_slice() with low_latency on: the sync slice, shrunk so
 * that every busy queue gets its turn within cfq_target_latency. */
static PcsTime cfq_slice(PcsSim *s) {
  PcsTime slice = s->p->block_cfq_slice_sync;
  PcsTime expect = slice * MAX(s->blk.cfq_busy, 1);
  if (expect > CFQ_TARGET_LATENCY) {
    PcsTime low = MIN(slice, 2 * CFQ_SLICE_IDLE);
    slice = MAX(slice * CFQ_TARGET_LATENCY / expect, low);
  }
  return slice;
}

/* cfq_select_queue(): keep the active queue while its slice lasts and it
 * has requests; an empty one expires at once (a non-rotational device with
 * NCQ: cfq_arm_slice_timer() does not idle), one with requests left goes
 * back to the service tree's end; then the busy queue first in line. */
static uint32_t cfq_select(PcsSim *s) {
  PcsBlkQueue *q = &s->blk;
  if (q->active != PCS_NONE) {
    PcsCfqQueue *a = &q->cfqq[q->active];
    gboolean used = !q->slice_new && s->evq.now >= q->slice_end; /* cfq_slice_used() */
    if (!used && a->queued) return q->active;
    if (a->queued) a->rr_key = ++q->rr_seq; /* cfq_resort_rr_list() */
    q->active = PCS_NONE;
  }
  for (uint32_t t = 0; t < q->nplugs; t++)
    if (q->cfqq[t].queued && (q->active == PCS_NONE || q->cfqq[t].rr_key < q->cfqq[q->active].rr_key)) q->active = t;
  q->slice_new = TRUE;
  return q->active;
}

/* cfq_may_dispatch() for a sync queue: quantum/2 in service, up to quantum
 * while the slice is not nearly used, no limit when it is the only busy
 * queue. */
static gboolean cfq_may_dispatch(PcsSim *s, const PcsCfqQueue *a) {
  PcsBlkQueue *q = &s->blk;
  uint32_t max = MAX(q->cfq_quantum / 2, 1);
  if (a->dispatched < max) return TRUE;
  if (q->cfq_busy <= 1) return TRUE;
  gboolean used_soon = q->slice_new || s->evq.now + CFQ_SLICE_IDLE * a->dispatched > q->slice_end;
  return !used_soon && a->dispatched < q->cfq_quantum;
}

/* cfq_dispatch_requests(): the active queue's oldest request, if it may. */
static uint32_t cfq_next_request(PcsSim *s) {
  PcsBlkQueue *q = &s->blk;
  uint32_t task = cfq_select(s);
  if (task == PCS_NONE || !cfq_may_dispatch(s, &q->cfqq[task])) return PCS_NONE;
  uint32_t id = q->elv_head;
  while (rq_at(s, id)->task != task) id = rq_at(s, id)->next;
  q->cfqq[task].dispatched++;
  return id;
}

uint32_t pcs_blk_next_request(PcsSim *s) {
  uint32_t id = s->blk.cfqq ? cfq_next_request(s) : s->blk.elv_head;
  if (id != PCS_NONE) {
    elv_unlink(s, id);
    rq_at(s, id)->in_driver = TRUE;
  }
  return id;
}

/* cfq_completed_request(): the active queue's slice starts when its first
 * request completes (cfq_set_prio_slice()). */
static void cfq_completed(PcsSim *s, const PcsRequest *rq) {
  PcsBlkQueue *q = &s->blk;
  q->cfqq[rq->task].dispatched--;
  if (rq->task == q->active && q->slice_new) {
    q->slice_new = FALSE;
    q->slice_end = s->evq.now + cfq_slice(s);
  }
}

/* __blk_put_request() -> freed_request(): the request ID goes back; the
 * queue may stop being congested, and one task sleeping in
 * get_request_wait() is woken (it retries its bio on a CPU). */
void pcs_blk_put_request(PcsSim *s, uint32_t id) {
  PcsBlkQueue *q = &s->blk;
  if (q->cfqq && rq_at(s, id)->in_driver) cfq_completed(s, rq_at(s, id));
  pcs_pool_put(&q->requests, id);
  if (!q->nr_requests) return;
  if (q->requests.live < q->congestion_off) q->congested = FALSE;
  if (q->nwait && q->requests.live + 1 <= q->nr_requests) {
    uint32_t task = q->waiters[0];
    memmove(q->waiters, q->waiters + 1, --q->nwait * sizeof *q->waiters);
    pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_WAKE, task + 1, pcs_cpu_wake_cpu(&s->cpu, task));
    pcs_cpu_run(s, task, 0);
  }
}

/* Append SRC's bios to DST (SRC directly follows DST on disk; SRC not
 * queued) and free SRC. */
static void rq_absorb(PcsSim *s, uint32_t dst_id, uint32_t src_id) {
  PcsRequest *dst = rq_at(s, dst_id), *src = rq_at(s, src_id);
  g_assert(!src->in_elv);
  hash_move_begin(s, dst_id);
  bio_at(s, dst->bio_tail)->next = src->bio_head;
  dst->bio_tail = src->bio_tail;
  dst->nsect += src->nsect;
  dst->nseg += src->nseg;
  hash_move_end(s, dst_id);
  pcs_trace(s, src->task + 1, PCS_TRACE_RQ_MERGE, src->sector, src->nsect); /* its bios now leave as DST */
  pcs_blk_put_request(s, src_id);
}

/* A queued request of TASK whose end is SECTOR (back) or whose start is
 * SECTOR (front): elv_rqhash_find() / the cfq queue's sort tree. */
static uint32_t elv_find(PcsSim *s, uint64_t sector, gboolean by_end, uint32_t skip, uint32_t task) {
  return hash_find(s, sector, by_end, skip, task, 0, 0);
}

/* attempt_back_merge()/attempt_front_merge() after RQ grew: its neighbours
 * in the same task's cfq queue. */
static void elv_merge_neighbours(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t next = elv_find(s, rq_end(rq), FALSE, id, rq->task);
  if (next != PCS_NONE && fits(s, rq, rq_at(s, next)->nsect, rq_at(s, next)->nseg)) {
    elv_unlink(s, next);
    rq_absorb(s, id, next);
  }
  uint32_t prev = elv_find(s, rq->sector, TRUE, id, rq->task);
  if (prev != PCS_NONE && fits(s, rq_at(s, prev), rq->nsect, rq->nseg)) {
    elv_unlink(s, id);
    rq_absorb(s, prev, id);
  }
}

/* The queued request of TASK first in the FIFO that B can join at its
 * back or front: blk_try_merge() on each, as elv_merge() asks. */
static uint32_t elv_merge_target(PcsSim *s, uint32_t task, const PcsBio *b) {
  uint64_t sector = bio_sector(b);
  uint32_t ns = bio_sectors(b);
  uint32_t back = hash_find(s, sector, TRUE, PCS_NONE, task, ns, b->nseg);
  uint32_t front = hash_find(s, sector + ns, FALSE, PCS_NONE, task, ns, b->nseg);
  if (back == PCS_NONE) return front;
  if (front == PCS_NONE) return back;
  return rq_at(s, back)->order < rq_at(s, front)->order ? back : front;
}

/* elv_merge() under CFQ: a queued request of TASK the bio can join
 * (cfq_allow_merge() refuses every other task's). */
static gboolean elv_merge_bio(PcsSim *s, uint32_t task, uint32_t bio) {
  uint32_t id = elv_merge_target(s, task, bio_at(s, bio));
  if (id == PCS_NONE) return FALSE;
  gboolean merged = try_merge_bio(s, id, bio);
  g_assert(merged);
  elv_merge_neighbours(s, id);
  return TRUE;
}

/* Would BIO merge without a new request (plug or elevator)?  Asked before
 * get_request() may sleep; changes nothing. */
static gboolean bio_would_merge(PcsSim *s, uint32_t task, const PcsBio *b) {
  const PcsPlug *plug = &s->blk.plugs[task];
  for (uint32_t i = 0; plug->plugged && i < plug->n; i++)
    if (merge_kind(s, rq_at(s, plug->rqs[i]), b) != PCS_TRACE_SUBMIT) return TRUE;
  return elv_merge_target(s, task, b) != PCS_NONE;
}

/* ELEVATOR_INSERT_SORT_MERGE: elv_attempt_insert_merge() back-merges a
 * flushed request into a queued one of any task, and nothing more. */
static void elv_insert(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t prev = elv_find(s, rq->sector, TRUE, PCS_NONE, PCS_NONE);
  if (prev != PCS_NONE && fits(s, rq_at(s, prev), rq->nsect, rq->nseg)) {
    rq_absorb(s, prev, id);
    return;
  }
  elv_append(s, id);
}

/* ---- plug ---- */

void pcs_blk_start_plug(PcsSim *s, uint32_t task) {
  PcsPlug *plug = &s->blk.plugs[task];
  g_assert(!plug->plugged && plug->n == 0);
  plug->plugged = TRUE;
}

/* blk_flush_plug_list(): every held request into the elevator, then run the queue. */
static void flush_plug(PcsSim *s, uint32_t task) {
  PcsPlug *plug = &s->blk.plugs[task];
  for (uint32_t i = 0; i < plug->n; i++) {
    PcsRequest *rq = rq_at(s, plug->rqs[i]);
    pcs_trace(s, task + 1, PCS_TRACE_RQ_INSERT, rq->sector, rq->nsect);
    if (s->blk.mq_none) /* blk_mq_flush_plug_list(): no elevator, no insert merge */
      elv_append(s, plug->rqs[i]);
    else
      elv_insert(s, plug->rqs[i]);
  }
  plug->n = 0;
  pcs_dev_dispatch(s);
}

void pcs_blk_flush_plug(PcsSim *s, uint32_t task) {
  if (s->blk.plugs[task].plugged) flush_plug(s, task);
}

void pcs_blk_finish_plug(PcsSim *s, uint32_t task) {
  if (!s->blk.plugs[task].plugged) return;
  flush_plug(s, task);
  s->blk.plugs[task].plugged = FALSE;
}

/* ---- blk_queue_bio() / blk_mq_submit_bio() ---- */

/* attempt_plug_merge() (v3.5: any request on the plug) or
 * blk_attempt_plug_merge() (blk-mq: the plug's last request only). */
static gboolean plug_merge(PcsSim *s, const PcsPlug *plug, uint32_t bio) {
  if (s->blk.mq_none) return plug->n > 0 && try_merge_bio(s, plug->rqs[plug->n - 1], bio);
  const PcsBio *b = bio_at(s, bio);
  uint64_t sector = bio_sector(b);
  uint32_t ns = bio_sectors(b);
  for (uint32_t i = 0; i < plug->n; i++)
    if (adjacent(rq_at(s, plug->rqs[i]), sector, ns) && try_merge_bio(s, plug->rqs[i], bio)) return TRUE;
  return FALSE;
}

/* blk_add_rq_to_plug(): flush before a new request joins a full plug, or
 * (blk-mq) one whose last request is already block.plug_flush_size. */
static gboolean plug_wants_flush(PcsSim *s, const PcsPlug *plug) {
  if (plug->n >= s->blk.plug_max) return TRUE;
  return plug->n > 0 && s->blk.plug_flush_sectors > 0 &&
         rq_at(s, plug->rqs[plug->n - 1])->nsect >= s->blk.plug_flush_sectors;
}

static void queue_bio(PcsSim *s, uint32_t task, uint32_t bio) {
  PcsPlug *plug = &s->blk.plugs[task];
  PcsBio *b = bio_at(s, bio);
  b->next = PCS_NONE;
  if (plug->plugged && plug_merge(s, plug, bio)) return;
  if (!s->blk.mq_none && elv_merge_bio(s, task, bio)) return;

  uint32_t id = pcs_pool_get(&s->blk.requests);
  /* get_request(): the queue congests at congestion_on requests */
  if (s->blk.nr_requests && s->blk.requests.live >= s->blk.congestion_on) s->blk.congested = TRUE;
  PcsRequest *rq = rq_at(s, id);
  b = bio_at(s, bio);
  rq->task = task;
  rq->in_driver = rq->in_elv = FALSE;
  rq->sector = bio_sector(b);
  rq->nsect = bio_sectors(b);
  rq->nseg = b->nseg;
  rq->bio_head = rq->bio_tail = bio;
  rq->prev = rq->next = PCS_NONE;
  pcs_trace(s, task + 1, PCS_TRACE_REQUEST, rq->sector, rq->nsect);
  if (plug->plugged) {
    if (plug_wants_flush(s, plug)) flush_plug(s, task);
    plug->rqs[plug->n++] = id;
    return;
  }
  pcs_trace(s, task + 1, PCS_TRACE_RQ_INSERT, rq->sector, rq->nsect);
  elv_append(s, id);
  pcs_dev_dispatch(s);
}

/* A bio is counted once (blkparse Q).  One larger than a request may be
 * (block.max_sectors, block.max_segments) is cut into front parts of the
 * largest size that fits, as bio_split_to_limits() does in kernels that
 * let filesystems build multi-MiB bios (v4.13+); each part then merges or
 * starts a request on its own.  Differs from the kernel unless
 * bio.chained = 1: each part is completed by the end-io workers as a bio of
 * its own (no bio_chain()); each part remembers where it lies in the bio as
 * submitted (chain_off, chain_pages), for bio.chained and the cache-cold
 * copy (endio.c). */
gboolean pcs_blk_submit(PcsSim *s, uint32_t task, uint32_t bio) {
  PcsBio *b = bio_at(s, bio);
  PcsBlkQueue *q = &s->blk;
  if (q->nr_requests && q->requests.live >= q->nr_requests && !bio_would_merge(s, task, b)) {
    /* get_request_wait(): io_schedule() flushes the plug, then sleeps */
    if (q->plugs[task].plugged) flush_plug(s, task);
    g_assert(q->nwait < q->nplugs);
    q->waiters[q->nwait++] = task;
    pcs_trace(s, task + 1, PCS_TRACE_RQ_WAIT, b->first, b->npages);
    pcs_cpu_release(s, task, PCS_TASK_SLEEP);
    return FALSE;
  }
  if (!pcs_csum_is_leaf(b->first)) { /* a data bio (a checksum leaf's read is metadata: csum.c) */
    s->res->bios++;
    s->res->bio_pages_hist[b->npages]++;
  }
  pcs_trace(s, task + 1, PCS_TRACE_SUBMIT, b->first, b->npages);
  uint32_t max_pages = s->blk.rq_max_pages;
  uint32_t max_segs = (uint32_t)MIN(s->p->block_max_segments, UINT32_MAX);
  b->chain_off = 0;
  b->chain_pages = b->npages;
  while (b->npages > max_pages || b->nseg > max_segs) {
    uint32_t nseg, n = pcs_bio_fit(s, b->first, b->npages, max_pages, max_segs, &nseg);
    uint32_t front = pcs_pool_get(&s->bio.pool); /* may move the pool: look B up again */
    b = bio_at(s, bio);
    *bio_at(s, front) = (PcsBio){.first = b->first, .npages = n, .nseg = nseg, .thread = b->thread, .next = PCS_NONE,
                                 .chain_off = b->chain_off, .chain_pages = b->chain_pages};
    b->first += n;
    b->npages -= n;
    b->chain_off += n;
    pcs_bio_fit(s, b->first, b->npages, UINT32_MAX, UINT32_MAX, &b->nseg); /* the rest, recounted */
    pcs_trace(s, task + 1, PCS_TRACE_SPLIT, bio_at(s, front)->first, n);
    queue_bio(s, task, front);
    b = bio_at(s, bio);
  }
  queue_bio(s, task, bio);
  return TRUE;
}
