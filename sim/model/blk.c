/* blk.c - the block layer: per-task plug, elevator merging, requests.
 *
 * Mirrors blk_queue_bio() and blk_flush_plug_list() (block/blk-core.c,
 * v3.1..v3.6) with a noop-style FIFO elevator:
 *   - a bio first tries to back- or front-merge into a request on the
 *     submitting task's plug list (attempt_plug_merge());
 *   - then into a request still queued in the elevator, from any task
 *     (elv_merge()); a merged request then tries to merge with its queued
 *     neighbour (attempt_back_merge()/attempt_front_merge());
 *   - otherwise it becomes a new request: on the plug list when plugged
 *     (flushed first if it already holds block.plug_max requests), else
 *     straight into the elevator;
 *   - blk_finish_plug() flushes the plug list: each request is inserted with
 *     one more merge attempt (ELEVATOR_INSERT_SORT_MERGE), then the queue
 *     runs and dispatches up to the device's queue depth (device.c).
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
 * Differs from the kernel: requests leave the elevator in insertion order
 * (noop), not CFQ's per-process order; nr_requests is unbounded (readahead
 * windows bound the queue anyway).  Under v6.18, the per-CPU software
 * queue merge of blk_mq_sched_bio_merge() is left out: with "none" a
 * request waits in ctx->rq_lists only when a plug is flushed from
 * schedule() (blk_mq_dispatch_list()), which the model never does.
 */
#include "internal.h"

uint32_t pcs_blk_rq_max_pages(const PcsParams *p) {
  return (uint32_t)MIN(p->block_max_sectors / PCS_SECTORS_PER_PAGE, UINT32_MAX);
}

void pcs_blk_init(PcsBlkQueue *q, const PcsParams *p, uint32_t ntasks) {
  *q = (PcsBlkQueue){.elv_head = PCS_NONE, .elv_tail = PCS_NONE, .nplugs = ntasks};
  pcs_pool_init(&q->requests, sizeof(PcsRequest), offsetof(PcsRequest, next), 256);
  q->plug_max = (uint32_t)p->block_plug_max;
  q->plug_flush_sectors = p->block_plug_flush_size / PCS_SECTOR_SIZE;
  q->mq_none = pcs_params_kernel(p) == PCS_KERNEL_V6_18;
  q->rq_max_pages = pcs_blk_rq_max_pages(p);
  q->plugs = g_new0(PcsPlug, MAX(ntasks, 1));
  for (uint32_t t = 0; t < ntasks; t++) q->plugs[t].rqs = g_new(uint32_t, q->plug_max);
}

void pcs_blk_clear(PcsBlkQueue *q) {
  for (uint32_t t = 0; t < q->nplugs; t++) g_free(q->plugs[t].rqs);
  g_clear_pointer(&q->plugs, g_free);
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

static gboolean try_merge_bio(PcsSim *s, PcsRequest *rq, uint32_t bio) {
  PcsBio *b = bio_at(s, bio);
  uint32_t ns = bio_sectors(b);
  if (!fits(s, rq, ns, b->nseg)) return FALSE;
  PcsTraceKind how;
  if (rq_end(rq) == bio_sector(b)) { /* back merge */
    bio_at(s, rq->bio_tail)->next = bio;
    rq->bio_tail = bio;
    how = PCS_TRACE_BACKMERGE;
  } else if (bio_sector(b) + ns == rq->sector) { /* front merge */
    b->next = rq->bio_head;
    rq->bio_head = bio;
    rq->sector = bio_sector(b);
    how = PCS_TRACE_FRONTMERGE;
  } else {
    return FALSE;
  }
  rq->nsect += ns;
  rq->nseg += b->nseg;
  pcs_trace(s, b->thread + 1, how, b->first, b->npages);
  return TRUE;
}

/* ---- the elevator queue (doubly linked, FIFO) ---- */

static void elv_unlink(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  if (rq->prev != PCS_NONE) rq_at(s, rq->prev)->next = rq->next; else s->blk.elv_head = rq->next;
  if (rq->next != PCS_NONE) rq_at(s, rq->next)->prev = rq->prev; else s->blk.elv_tail = rq->prev;
  rq->prev = rq->next = PCS_NONE;
  s->blk.elv_len--;
}

static void elv_append(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  rq->prev = s->blk.elv_tail;
  rq->next = PCS_NONE;
  if (s->blk.elv_tail != PCS_NONE) rq_at(s, s->blk.elv_tail)->next = id; else s->blk.elv_head = id;
  s->blk.elv_tail = id;
  s->blk.elv_len++;
}

uint32_t pcs_blk_next_request(PcsSim *s) {
  uint32_t id = s->blk.elv_head;
  if (id != PCS_NONE) elv_unlink(s, id);
  return id;
}

/* Append SRC's bios to DST (SRC directly follows DST on disk) and free SRC. */
static void rq_absorb(PcsSim *s, PcsRequest *dst, uint32_t src_id) {
  PcsRequest *src = rq_at(s, src_id);
  bio_at(s, dst->bio_tail)->next = src->bio_head;
  dst->bio_tail = src->bio_tail;
  dst->nsect += src->nsect;
  dst->nseg += src->nseg;
  pcs_pool_put(&s->blk.requests, src_id);
}

/* A queued request whose end is SECTOR (back) or whose start is SECTOR (front). */
static uint32_t elv_find(PcsSim *s, uint64_t sector, gboolean by_end, uint32_t skip) {
  for (uint32_t id = s->blk.elv_head; id != PCS_NONE; id = rq_at(s, id)->next) {
    if (id == skip) continue;
    PcsRequest *rq = rq_at(s, id);
    if ((by_end ? rq_end(rq) : rq->sector) == sector) return id;
  }
  return PCS_NONE;
}

/* attempt_back_merge()/attempt_front_merge() after RQ grew. */
static void elv_merge_neighbours(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t next = elv_find(s, rq_end(rq), FALSE, id);
  if (next != PCS_NONE && fits(s, rq, rq_at(s, next)->nsect, rq_at(s, next)->nseg)) {
    elv_unlink(s, next);
    rq_absorb(s, rq, next);
  }
  uint32_t prev = elv_find(s, rq->sector, TRUE, id);
  if (prev != PCS_NONE && fits(s, rq_at(s, prev), rq->nsect, rq->nseg)) {
    elv_unlink(s, id);
    rq_absorb(s, rq_at(s, prev), id);
  }
}

/* elv_merge(): a queued request the bio can join. */
static gboolean elv_merge_bio(PcsSim *s, uint32_t bio) {
  for (uint32_t id = s->blk.elv_head; id != PCS_NONE; id = rq_at(s, id)->next) {
    if (try_merge_bio(s, rq_at(s, id), bio)) {
      elv_merge_neighbours(s, id);
      return TRUE;
    }
  }
  return FALSE;
}

/* ELEVATOR_INSERT_SORT_MERGE: a flushed request joins a queued one if it can. */
static void elv_insert(PcsSim *s, uint32_t id) {
  PcsRequest *rq = rq_at(s, id);
  uint32_t prev = elv_find(s, rq->sector, TRUE, PCS_NONE);
  if (prev != PCS_NONE && fits(s, rq_at(s, prev), rq->nsect, rq->nseg)) {
    rq_absorb(s, rq_at(s, prev), id);
    elv_merge_neighbours(s, prev);
    return;
  }
  uint32_t next = elv_find(s, rq_end(rq), FALSE, PCS_NONE);
  if (next != PCS_NONE && fits(s, rq, rq_at(s, next)->nsect, rq_at(s, next)->nseg)) {
    /* front merge: RQ takes NEXT's place in the queue */
    PcsRequest *n = rq_at(s, next);
    bio_at(s, rq->bio_tail)->next = n->bio_head;
    n->bio_head = rq->bio_head;
    n->sector = rq->sector;
    n->nsect += rq->nsect;
    n->nseg += rq->nseg;
    pcs_pool_put(&s->blk.requests, id);
    elv_merge_neighbours(s, next);
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

void pcs_blk_finish_plug(PcsSim *s, uint32_t task) {
  if (!s->blk.plugs[task].plugged) return;
  flush_plug(s, task);
  s->blk.plugs[task].plugged = FALSE;
}

/* ---- blk_queue_bio() / blk_mq_submit_bio() ---- */

/* attempt_plug_merge() (v3.5: any request on the plug) or
 * blk_attempt_plug_merge() (blk-mq: the plug's last request only). */
static gboolean plug_merge(PcsSim *s, const PcsPlug *plug, uint32_t bio) {
  if (s->blk.mq_none) return plug->n > 0 && try_merge_bio(s, rq_at(s, plug->rqs[plug->n - 1]), bio);
  for (uint32_t i = 0; i < plug->n; i++)
    if (try_merge_bio(s, rq_at(s, plug->rqs[i]), bio)) return TRUE;
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
  if (!s->blk.mq_none && elv_merge_bio(s, bio)) return;

  uint32_t id = pcs_pool_get(&s->blk.requests);
  PcsRequest *rq = rq_at(s, id);
  b = bio_at(s, bio);
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
 * starts a request on its own.  Differs from the kernel: each part is
 * completed by the end-io workers as a bio of its own (no bio_chain()). */
void pcs_blk_submit(PcsSim *s, uint32_t task, uint32_t bio) {
  PcsBio *b = bio_at(s, bio);
  s->res->bios++;
  s->res->bio_pages_hist[b->npages]++;
  pcs_trace(s, task + 1, PCS_TRACE_SUBMIT, b->first, b->npages);
  uint32_t max_pages = s->blk.rq_max_pages;
  uint32_t max_segs = (uint32_t)MIN(s->p->block_max_segments, UINT32_MAX);
  while (b->npages > max_pages || b->nseg > max_segs) {
    uint32_t nseg, n = pcs_bio_fit(s, b->first, b->npages, max_pages, max_segs, &nseg);
    uint32_t front = pcs_pool_get(&s->bio.pool); /* may move the pool: look B up again */
    b = bio_at(s, bio);
    *bio_at(s, front) = (PcsBio){.first = b->first, .npages = n, .nseg = nseg, .thread = b->thread, .next = PCS_NONE};
    b->first += n;
    b->npages -= n;
    pcs_bio_fit(s, b->first, b->npages, UINT32_MAX, UINT32_MAX, &b->nseg); /* the rest, recounted */
    pcs_trace(s, task + 1, PCS_TRACE_SPLIT, bio_at(s, front)->first, n);
    queue_bio(s, task, front);
    b = bio_at(s, bio);
  }
  queue_bio(s, task, bio);
}
