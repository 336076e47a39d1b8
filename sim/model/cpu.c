/* cpu.c - simulated CPUs shared by reader threads and end-io workers.
 *
 * A task (reader or worker) runs in steps: it asks for COST nanoseconds of
 * CPU and gets a PCS_EV_TASK_STEP event when they have elapsed.  cpu.count
 * CPUs exist; a task that finds none free waits in a FIFO run queue.  A task
 * keeps its CPU from step to step until it sleeps, finishes, or has run for
 * cpu.slice while another task waits (then it goes to the back of the queue):
 * a round-robin scheduler with a fixed slice, coarser than CFS but with the
 * property that matters here: more runnable threads than CPUs stretch every
 * step.  Spinning on tree_lock is CPU time (pagecache.c adds it to the step).
 */
#include "internal.h"

PcsTime pcs_cpu_cost(PcsSim *s, uint32_t task, uint64_t base) {
  PcsRng *rng = s->tasks[task].rng;
  if (!rng || base == 0) return base;
  double u = (double)pcs_rng_u32(rng) / 4294967296.0; /* [0,1) */
  double scaled = (double)base * (1.0 + s->jitter * (2.0 * u - 1.0));
  return scaled < 0.0 ? 0 : (PcsTime)scaled;
}

static void cpu_start(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->tasks[t];
  task->on_cpu = TRUE;
  task->slice_start = s->evq.now;
  pcs_evq_push(&s->evq, s->evq.now + task->cost, PCS_EV_TASK_STEP, t);
}

static void runq_push(PcsSim *s, uint32_t t) {
  g_assert(s->runq_len < s->ntasks);
  s->runq[(s->runq_head + s->runq_len++) % s->ntasks] = t;
}

static uint32_t runq_pop(PcsSim *s) {
  uint32_t t = s->runq[s->runq_head];
  s->runq_head = (s->runq_head + 1) % s->ntasks;
  s->runq_len--;
  return t;
}

void pcs_cpu_run(PcsSim *s, uint32_t t, PcsTime cost) {
  PcsTask *task = &s->tasks[t];
  task->cost = cost;
  if (task->on_cpu) {
    if (s->runq_len && s->evq.now - task->slice_start >= s->p->cpu_slice) {
      task->on_cpu = FALSE; /* slice used up: hand the CPU over */
      uint32_t next = runq_pop(s);
      runq_push(s, t);
      cpu_start(s, next);
      return;
    }
    pcs_evq_push(&s->evq, s->evq.now + cost, PCS_EV_TASK_STEP, t);
    return;
  }
  if (s->cpus_free) {
    s->cpus_free--;
    cpu_start(s, t);
  } else {
    runq_push(s, t);
  }
}

void pcs_cpu_release(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->tasks[t];
  if (!task->on_cpu) return;
  task->on_cpu = FALSE;
  if (s->runq_len)
    cpu_start(s, runq_pop(s));
  else
    s->cpus_free++;
}
