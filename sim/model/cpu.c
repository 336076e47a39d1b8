/* cpu.c - simulated CPUs shared by reader threads and end-io workers.
 *
 * A task (reader or worker) runs in steps: it asks for COST nanoseconds of
 * CPU and gets a PCS_EV_TASK_STEP event when they have elapsed.  cpu.count
 * CPUs exist; a task that finds none free waits in a FIFO run queue.  A task
 * keeps its CPU from step to step until it sleeps, finishes, or has run for
 * cpu.slice while another task waits (then it goes to the back of the queue):
 * a round-robin scheduler with a fixed slice, coarser than CFS but with the
 * property that matters here: more runnable threads than CPUs stretch every
 * step.  Spinning on tree_lock is CPU time (pagecache.c returns it, reader.c
 * charges it with the insert).
 */
#include "internal.h"

void pcs_cpu_init(PcsCpus *c, const PcsParams *p, uint32_t ntasks) {
  *c = (PcsCpus){.ntasks = ntasks, .cpus_free = (uint32_t)p->cpu_count, .jitter = p->cost_jitter};
  c->tasks = g_new0(PcsTask, ntasks);
  c->runq = g_new(uint32_t, ntasks);
  for (uint32_t t = 0; c->jitter > 0 && t < ntasks; t++) {
    c->tasks[t].rng = g_new(PcsRng, 1); /* one stream per task */
    pcs_rng_init_stream(c->tasks[t].rng, p->scenario_seed, PCS_RNG_STREAM_JITTER(t));
  }
}

void pcs_cpu_clear(PcsCpus *c) {
  for (uint32_t t = 0; t < c->ntasks; t++) g_free(c->tasks[t].rng);
  g_clear_pointer(&c->tasks, g_free);
  g_clear_pointer(&c->runq, g_free);
}

PcsTime pcs_cpu_cost(PcsSim *s, uint32_t task, uint64_t base) {
  PcsRng *rng = s->cpu.tasks[task].rng;
  if (!rng || base == 0) return base;
  double u = (double)pcs_rng_u32(rng) / 4294967296.0; /* [0,1) */
  double scaled = (double)base * (1.0 + s->cpu.jitter * (2.0 * u - 1.0));
  return scaled < 0.0 ? 0 : (PcsTime)scaled;
}

static void cpu_start(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->cpu.tasks[t];
  task->on_cpu = TRUE;
  task->slice_start = s->evq.now;
  pcs_evq_push(&s->evq, s->evq.now + task->cost, PCS_EV_TASK_STEP, t);
}

static void runq_push(PcsSim *s, uint32_t t) {
  g_assert(s->cpu.runq_len < s->cpu.ntasks);
  s->cpu.runq[(s->cpu.runq_head + s->cpu.runq_len++) % s->cpu.ntasks] = t;
}

static uint32_t runq_pop(PcsSim *s) {
  uint32_t t = s->cpu.runq[s->cpu.runq_head];
  s->cpu.runq_head = (s->cpu.runq_head + 1) % s->cpu.ntasks;
  s->cpu.runq_len--;
  return t;
}

void pcs_cpu_run(PcsSim *s, uint32_t t, PcsTime cost) {
  PcsTask *task = &s->cpu.tasks[t];
  task->cost = cost;
  if (task->on_cpu) {
    if (s->cpu.runq_len && s->evq.now - task->slice_start >= s->p->cpu_slice) {
      task->on_cpu = FALSE; /* slice used up: hand the CPU over */
      uint32_t next = runq_pop(s);
      runq_push(s, t);
      cpu_start(s, next);
      return;
    }
    pcs_evq_push(&s->evq, s->evq.now + cost, PCS_EV_TASK_STEP, t);
    return;
  }
  if (s->cpu.cpus_free) {
    s->cpu.cpus_free--;
    cpu_start(s, t);
  } else {
    runq_push(s, t);
  }
}

void pcs_cpu_release(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->cpu.tasks[t];
  if (!task->on_cpu) return;
  task->on_cpu = FALSE;
  if (s->cpu.runq_len)
    cpu_start(s, runq_pop(s));
  else
    s->cpu.cpus_free++;
}
