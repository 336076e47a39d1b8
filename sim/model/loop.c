/* loop.c - the loop device's worker: each request becomes a direct I/O on
 * the host file.
 *
 * Mirrors drivers/block/loop.c of 6.x with lo->use_dio (losetup
 * --direct-io=on): loop_queue_rq() puts an issued request on the worker's
 * list and queues its work on the unbound "loop%d" workqueue, which wakes a
 * kworker; loop_process_work() then takes the list and, for each request,
 * loop_handle_cmd() -> lo_rw_aio() submits a direct read to the backing
 * file, whose host serves it (device.c).  The worker is a task like the
 * readers and the end-io workers (cpu.c): it competes with them for the
 * CPUs, and a request is served only once the worker has run for it.  A run
 * costs cost.loop_worker (the kworker's wake-up to its work function, the
 * list taken), then cost.loop_request per request in turn, each request
 * starting its service when its submission ends; the worker goes on while
 * requests wait, and sleeps when none does.  The captures time a run from
 * the kworker's switch-in to its switch-out after fio woke it: one request
 * 19-20 us, two 24-25, seven 47 (median; scripts/pcsim-trace loop-worker).  Its
 * completion (lo_rw_aio_complete() in the host's interrupt) costs no CPU
 * here.  Off (cost.loop_worker = 0): a request starts its service when it
 * is issued, as pcsim did before.  The worker wakes onto the CPU it last
 * ran on and queues there when that one is busy (pcs_cpu_wake_prev()).
 * Differs from the kernel: one worker (the root cgroup's: fio runs in one);
 * requests issued while it runs wait for their turn in the same run, none
 * is taken by a second kworker.
 */
#include "internal.h"

void pcs_loop_init(PcsLoop *l, const PcsParams *p, uint32_t task) {
  *l = (PcsLoop){.task = p->cost_loop_worker ? task : UINT32_MAX};
  if (!pcs_loop_on(l)) return;
  l->cap = (uint32_t)p->device_queue_depth;
  l->queue = g_new(uint32_t, l->cap);
}

void pcs_loop_clear(PcsLoop *l) {
  g_assert(l->len == 0);
  g_clear_pointer(&l->queue, g_free);
}

/* The worker's next step: a waiting request's submission, else it sleeps. */
static void loop_next(PcsSim *s, PcsLoop *l) {
  if (!l->len) {
    l->busy = FALSE;
    pcs_cpu_release(s, l->task, PCS_TASK_IDLE);
    return;
  }
  l->in_request = TRUE;
  pcs_cpu_run(s, l->task, pcs_cpu_cost(&s->cpu, l->task, s->p->cost_loop_request));
}

void pcs_loop_queue(PcsSim *s, uint32_t rq) {
  PcsLoop *l = &s->loop;
  g_assert(l->len < l->cap); /* at most device.queue_depth issued */
  l->queue[(l->head + l->len++) % l->cap] = rq;
  if (l->busy) return;
  l->busy = TRUE;
  l->in_request = FALSE; /* the run's start: the wake-up, the list taken */
  pcs_cpu_wake_prev(&s->cpu, l->task);
  if (G_UNLIKELY(s->opt.trace)) pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_WAKE, l->task + 1, pcs_cpu_wake_cpu(&s->cpu, l->task));
  pcs_cpu_run(s, l->task, pcs_cpu_cost(&s->cpu, l->task, s->p->cost_loop_worker));
}

void pcs_loop_step(PcsSim *s) {
  PcsLoop *l = &s->loop;
  if (l->in_request) {
    uint32_t rq = l->queue[l->head];
    l->head = (l->head + 1) % l->cap;
    l->len--;
    pcs_dev_start(s, rq); /* lo_rw_aio(): the host serves it from now */
  }
  loop_next(s, l);
}
