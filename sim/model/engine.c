/* engine.c - fio's async engines over buffered reads: libaio and io_uring.
 *
 * What the kernel does with a buffered read each engine issues (direct=0):
 *   libaio: io_submit() -> aio_read() -> call_read_iter() -> filemap_read()
 *     without IOCB_NOWAIT (fs/aio.c): the read runs in the submitting
 *     thread, to its end, blocking on the folios it waits for, one iocb
 *     after the other.  Nothing is in flight when io_submit() returns, so
 *     the reads, readahead and bios are those of ioengine=sync; only the
 *     system calls around them differ.
 *   io_uring: io_read() tries the read with IOCB_NOWAIT (io_uring/rw.c);
 *     filemap_get_pages() still runs sync readahead on a miss and async
 *     readahead on a marked folio (IOCB_NOIO is not set), copies what is
 *     up to date, and on a folio still locked under read I/O returns what
 *     it copied or -EAGAIN; io_rw_should_retry() arms IOCB_WAITQ
 *     (io_async_buf_func()) and the retry, finding the folio locked, parks
 *     the request on it (__folio_lock_async(): -EIOCBQUEUED).  When end-io
 *     unlocks the folio the retry is queued as task work, which fio 3.33's
 *     ring (IORING_SETUP_DEFER_TASKRUN) runs in the thread's next
 *     io_uring_enter(IORING_ENTER_GETEVENTS).  So up to iodepth reads are
 *     in flight per thread, and readahead sees them arrive in order.
 * What fio does around them (backend.c do_io(), ioengines.c td_io_queue(),
 * td_io_commit(), td_io_getevents(), io_u.c io_u_queued_complete(), init.c
 * fixup_options()): queue a read; once iodepth_batch are queued, commit
 * (libaio: one io_submit(); io_uring: one io_uring_enter(to_submit,
 * GETEVENTS)); when cur_depth reaches iodepth, wait_for_completions():
 * getevents of at least min(iodepth_batch_complete_min, cur_depth) (at
 * least 1) and at most iodepth_batch_complete_max (which fio raises to
 * the min: one by default), again while cur_depth > iodepth_low (iodepth
 * by default: once).  libaio's getevents is one io_getevents() call;
 * io_uring's reaps the CQ ring in user space and enters the kernel only
 * when the ring holds fewer than it needs, to wait.
 *
 * This file keeps fio's side: the options as fixup_options() leaves them,
 * the queue's counters and, under io_uring, the reads in flight in
 * submission order (an array of iodepth, allocated once: the hot path does
 * not allocate).  reader.c runs each io_uring attempt through its v6.18
 * filemap_read() states and asks here what fio does next.
 *
 * fio's clat of a read runs from its queueing to its reap (io_completed()
 * stamps it then): with 16 queued and one reaped per read, about 16
 * reads' time, however fast each read was.
 *
 * Differs from fio and the kernel: libaio's system calls are charged
 * before the read they come with (fio's io_getevents() runs after it,
 * and the reads it reaps are stamped at the next read's start);
 * with iodepth_batch > 1 each libaio read still runs when fio queues it
 * (the kernel runs the batch in the io_submit() after the last); fio's
 * end-of-job reap of the reads still queued costs nothing; an io_uring
 * thread asleep in io_uring_enter() sleeps on its oldest parked read's
 * folio (the kernel wakes it on any retry's task work: the oldest is the
 * first a sequential reader's device completes); io_uring's punt to an
 * io-wq worker (a miss sync readahead did not fill) is a blocking read in
 * the thread.  Not modelled, refused by name (fio.c): sqthread_poll,
 * registerfiles, fixedbufs, hipri, direct=1, io_submit_mode=offload,
 * libaio's userspace_reap.
 */
#include "engine.h"

#include <string.h>

PcsEngineKind pcs_engine_kind(const PcsParams *p) {
  if (!strcmp(p->workload_ioengine, "libaio")) return PCS_ENGINE_LIBAIO;
  if (!strcmp(p->workload_ioengine, "io_uring")) return PCS_ENGINE_URING;
  return PCS_ENGINE_SYNC;
}

uint64_t pcs_engine_bytes(const PcsParams *p) {
  PcsEngineKind k = pcs_engine_kind(p);
  return k == PCS_ENGINE_URING ? p->workload_iodepth * sizeof(PcsUringRead)
         : k == PCS_ENGINE_LIBAIO ? 2 * p->workload_iodepth * sizeof(PcsTime) : 0;
}

void pcs_engine_init(PcsEngine *e, const PcsParams *p) {
  memset(e, 0, sizeof *e);
  e->kind = pcs_engine_kind(p);
  e->iodepth = (uint32_t)p->workload_iodepth;
  /* init.c fixup_options() */
  e->low = p->workload_iodepth_low && p->workload_iodepth_low <= e->iodepth ? (uint32_t)p->workload_iodepth_low : e->iodepth;
  e->batch = p->workload_iodepth_batch && p->workload_iodepth_batch <= e->iodepth ? (uint32_t)p->workload_iodepth_batch : e->iodepth;
  e->cmin = (uint32_t)p->workload_iodepth_batch_complete_min;
  e->cmax = (uint32_t)MAX(p->workload_iodepth_batch_complete_max, p->workload_iodepth_batch_complete_min);
  if (e->kind == PCS_ENGINE_URING) e->reads = g_new0(PcsUringRead, e->iodepth);
  if (e->kind == PCS_ENGINE_LIBAIO) e->starts = g_new0(PcsTime, e->iodepth), e->done = g_new0(PcsTime, e->iodepth);
}

void pcs_engine_clear(PcsEngine *e) {
  g_clear_pointer(&e->reads, g_free);
  g_clear_pointer(&e->starts, g_free);
  g_clear_pointer(&e->done, g_free);
}

/* libaio: fio reaps the N oldest reads (io_getevents() returns them in
 * the order they completed, the order io_submit() ran them); their clat
 * ends with the call (pcs_engine_libaio_flush()). */
static void libaio_reap(PcsEngine *e, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t at = (e->head + e->iodepth - e->depth) % e->iodepth;
    g_assert(e->ndone < e->iodepth);
    e->done[e->ndone++] = e->starts[at];
    e->depth--;
  }
}

void pcs_engine_libaio_flush(PcsEngine *e, PcsEngineReaped reaped, void *ctx) {
  for (uint32_t i = 0; i < e->ndone; i++) reaped(ctx, e->done[i]);
  e->ndone = 0;
}

/* td_io_getevents()'s min and max for a call wanting MIN (io_u_queued_complete()). */
static void getevents_limits(const PcsEngine *e, uint32_t min, uint32_t *lo, uint32_t *hi) {
  min = MIN(min, e->depth);
  uint32_t max = MIN(e->cmax, e->depth);
  *lo = min;
  *hi = MAX(max, min);
}

/* wait_for_completions()'s min_evts: full, at least one. */
static uint32_t full_min(const PcsEngine *e) {
  uint32_t min = MIN(e->cmin, e->depth);
  return min && e->cmin ? min : 1;
}

uint32_t pcs_engine_libaio_read(PcsEngine *e, PcsTime start) {
  uint32_t calls = 0;
  e->starts[e->head] = start;
  e->head = (e->head + 1) % e->iodepth;
  e->queued++, e->depth++;
  if (e->queued >= e->batch) calls++, e->queued = 0; /* td_io_commit(): io_submit(), the reads run */
  if (e->depth < e->iodepth) return calls;
  uint32_t min = full_min(e); /* the queue is full: wait_for_completions() */
  do {
    uint32_t lo, hi;
    getevents_limits(e, min, &lo, &hi);
    if (!hi) break;
    if (lo && e->queued) calls++, e->queued = 0; /* td_io_getevents() commits first */
    calls++; /* io_getevents(): every read has completed in io_submit(): it returns hi */
    libaio_reap(e, hi);
  } while (e->depth > e->low);
  return calls;
}

void pcs_engine_libaio_drain(PcsEngine *e) {
  libaio_reap(e, e->depth);
  e->queued = 0;
}

gboolean pcs_engine_uring_queue(PcsEngine *e, uint64_t pos, uint64_t end, PcsTime start) {
  g_assert(e->depth < e->iodepth);
  e->reads[e->depth++] = (PcsUringRead){pos, end, start, FALSE, FALSE};
  if (++e->queued < e->batch) return FALSE;
  e->queued = 0;
  return TRUE;
}

void pcs_engine_uring_reap_begin(PcsEngine *e, gboolean drain) {
  e->reaping = TRUE;
  e->full = !drain;
  e->reaped = 0;
  if (drain) e->reap_min = e->reap_max = e->depth; /* cleanup_pending_aio(): all of them */
  else getevents_limits(e, full_min(e), &e->reap_min, &e->reap_max);
}

void pcs_engine_uring_reap(PcsEngine *e, PcsEngineReaped reaped, void *ctx) {
  uint32_t k = MIN(e->cqes, e->reap_max - e->reaped), w = 0;
  for (uint32_t i = 0, left = k; i < e->depth; i++) {
    if (left && e->reads[i].done) {
      reaped(ctx, e->reads[i].start);
      left--;
      continue;
    }
    e->reads[w++] = e->reads[i];
  }
  e->depth -= k, e->cqes -= k, e->reaped += k;
}

uint32_t pcs_engine_uring_next(const PcsEngine *e, gboolean (*uptodate)(const void *, uint64_t), const void *ctx) {
  for (uint32_t i = 0; i < e->depth; i++)
    if (!e->reads[i].issued) return i; /* io_submit_sqes() before the task work */
  for (uint32_t i = 0; i < e->depth; i++)
    if (!e->reads[i].done && uptodate(ctx, e->reads[i].pos)) return i;
  return UINT32_MAX;
}
