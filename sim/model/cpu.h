/* cpu.h - simulated CPUs shared by readers and end-io workers (see cpu.c). */
#ifndef PCSIM_MODEL_CPU_H
#define PCSIM_MODEL_CPU_H

#include "evq.h"
#include "pcsim/params.h"
#include "pcsim/units.h"
#include "pool.h"
#include "rng.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  PcsTime cost;        /* CPU time of the step being run or waited for */
  PcsTime slice_end;   /* when its slice, counted from its getting the CPU, is used up */
  PcsTime slice_due;   /* when it yields to a task already waiting: slice_end, or the first tick from it (cpu.tick) */
  gboolean on_cpu;
  uint32_t cpu;        /* the CPU it runs on (or last ran on): 0..cpu.count-1 */
  PcsRng *rng;         /* cost jitter stream, NULL without jitter */
  double *factors;     /* PCS_CPU_FACTORS jitter factors drawn from rng, one MT19937 block (pcs_cpu_cost()) */
  uint32_t factors_next;
  uint32_t wake_cpu;   /* per-CPU queues: the CPU a woken reader is queued on when it next needs one; PCS_NONE: none */
  PcsTime queued_at;   /* per-CPU queues: when it was queued */
  /* cpu.wake_preempt (EEVDF): its virtual runtime, ns (all tasks weigh the
   * same): vruntime while off CPU, at run_since while on it */
  int64_t vruntime, deadline, vprot, vlag;
  PcsTime run_since;
  uint32_t rq;         /* the CPU whose run queue holds it while runnable or delayed; PCS_NONE asleep */
  uint32_t vr_cpu;     /* cpu.cfs_wake_preempt: the CPU whose min_vruntime its vruntime is counted against */
  gboolean delayed;    /* asleep but still on rq (DELAY_DEQUEUE) */
  PcsTime idle_exit;   /* cpu.idle_wake_*: the idle-exit delay of the idle CPU it took, charged at cpu_start() */
  gboolean woke_busy;  /* cpu.idle_wake_*: a reader woken onto a busy CPU (it paid cpu.wake_latency): no idle exit */
  /* cpu.wake_select = 2: its PELT load (kernel/sched/pelt.c), as a share of its
   * weight (all tasks nice 0): the decayed runnable time, at load_at */
  double load;
  PcsTime load_at;
  gboolean runnable;
} PcsTask;

#define PCS_CPU_FACTORS PCS_RNG_N
#define PCS_LRU_BATCH PCS_PAGEVEC_SIZE /* folios in a CPU's LRU add batch (cpu_fbatches.lru_add) */

/* The CPUs and their run queue.  Tasks: readers 0..threads-1, then end-io workers. */
typedef struct {
  PcsTask *tasks;
  uint32_t ntasks;
  uint32_t cpus_free;
  uint32_t *free_ids; /* the free CPUs' ids, [0, cpus_free) */
  uint32_t *free_pos; /* per CPU id: its index in free_ids, UINT32_MAX when busy */
  uint32_t *runq; /* ring of task ids waiting for a CPU */
  uint32_t runq_head, runq_len;
  double jitter; /* cost.jitter */
  uint32_t inline_task; /* the task whose step event is being handled, if it may go on inline; else PCS_NONE */
  PcsTime wake_latency; /* cpu.wake_latency (median); 0: none */
  PcsTime wake_latency_local; /* cpu.wake_latency_local (median onto the waker's CPU); 0: wake_latency */
  double wake_jitter;   /* cpu.wake_jitter (lognormal sigma) */
  PcsRng *wake_rng;     /* its stream, NULL without a spread */
  /* cpu.idle_wake_short / _long / _poll: per CPU, when it last went idle
   * (NULL: off, no idle-exit latency) */
  PcsTime idle_short, idle_long, idle_poll;
  PcsTime *idle_since;
  /* cpu.migration_cost > 0: a run queue per CPU (ring of ntasks each) beside
   * the shared one, which then holds only tasks that have no CPU of their own */
  PcsTime migration_cost;
  uint32_t ncpus;
  uint32_t *cpuq, *cpuq_head, *cpuq_len;
  double wake_affine;   /* cpu.wake_affine */
  gboolean wake_select; /* cpu.wake_select: select_task_rq_fair() instead of cpu.wake_affine */
  gboolean pelt;        /* cpu.wake_select = 2: wake_affine_weight() on PELT loads */
  uint32_t nreaders;    /* tasks 0..nreaders-1 are readers (cpu.wake_select weighs them) */
  uint32_t *lru_batch;  /* per CPU (cpu.count): folios in its folio batch for the LRU, with cost.lru_drain */
  PcsRng *place_rng;    /* its stream, NULL when 0 */
  PcsTime tick;         /* cpu.tick; 0: a slice ends at its step */
  PcsTime *queued_for;  /* with cpu.tick, per CPU: when a task was last queued to run on it */
  /* cpu.wake_preempt: per CPU, the task on it (PCS_NONE: idle), the
   * queue's average vruntime when it last emptied, and a woken task that
   * preempts the one on it (PCS_NONE: none) */
  gboolean wake_preempt;
  uint32_t cpu_count;
  uint32_t *curr, *preempt_by;
  PcsTime *preempted_due; /* the preempted task's slice_due, back if its preempter runs elsewhere */
  int64_t *vclock;
  int64_t slice, lag_limit;
  /* cpu.cfs_wake_preempt (v3.x CFS): vclock is then each CPU's
   * min_vruntime; sysctl_sched_latency and sysctl_sched_wakeup_granularity
   * scaled for cpu.count */
  gboolean cfs_preempt;
  int64_t cfs_latency, cfs_gran;
} PcsCpus;

/* Called once per run for NTASKS tasks; seeds one jitter stream per task from scenario.seed. */
void pcs_cpu_init(PcsCpus *c, const PcsParams *p, uint32_t ntasks);
/* Frees the tasks and their streams. */
void pcs_cpu_clear(PcsCpus *c);
/* Refills TASK's factors (cpu.c). */
void pcs_cpu_draw_factors(PcsCpus *c, PcsTask *task);
/* BASE ns of work for TASK with cost.jitter applied (draws from TASK's
 * stream; none for a cost of 0).  Inline: one per step.  The cast through
 * int64_t is exact for any cost below 2^63 ns and cheaper than a u64's. */
static inline PcsTime pcs_cpu_cost(PcsCpus *c, uint32_t task, uint64_t base) {
  PcsTask *tk = &c->tasks[task];
  if (!tk->rng || base == 0) return base;
  if (G_UNLIKELY(tk->factors_next == PCS_CPU_FACTORS)) pcs_cpu_draw_factors(c, tk);
  double scaled = (double)base * tk->factors[tk->factors_next++];
  return scaled < 0.0 ? 0 : (PcsTime)(int64_t)scaled;
}
/* TASK, on its CPU with another task waiting for it, has used up its
 * slice: at slice_due; with cpu.tick, also once a task was queued for its
 * CPU after slice_end (EEVDF's update_curr() runs at the tick and at an
 * enqueue, and either reschedules a task past its deadline).  Inline:
 * pcs_cpu_run_last() asks it whenever a task waits. */
static inline gboolean pcs_cpu_slice_over(const PcsCpus *c, const PcsTask *task, PcsTime now) {
  if (now >= task->slice_due) return TRUE;
  return c->tick && now >= task->slice_end && c->queued_for[task->cpu] >= task->slice_end;
}
/* A woken task's wait before it runs again (cpu.wake_latency, spread by
 * cpu.wake_jitter from its own stream); 0 without it.  LOCAL: it was woken
 * onto its waker's own CPU (cpu.wake_latency_local, when set). */
PcsTime pcs_cpu_wake_latency(PcsCpus *c, gboolean local);
/* A task waits that the one on CPU yields to once its slice is used up:
 * in the shared run queue, or (per-CPU run queues) in CPU's own.  Inline:
 * pcs_cpu_run_last() asks it at every step. */
static inline gboolean pcs_cpu_waiting(const PcsCpus *c, uint32_t cpu) {
  return c->runq_len || (c->migration_cost && c->cpuq_len[cpu]);
}
/* TASK, at NOW, keeps its CPU for its next step: it is on one, and no
 * task waiting for it finds its slice used up.  Inline: asked at every
 * reader step (pcs_cpu_run_last(), reader.c fold_copies()). */
static inline gboolean pcs_cpu_keeps(const PcsCpus *c, const PcsTask *task, PcsTime now) {
  return task->on_cpu && !(pcs_cpu_waiting(c, task->cpu) && pcs_cpu_slice_over(c, task, now));
}
/* With per-CPU run queues: READER, woken by the task WAKER (an end-io
 * worker), will queue on WAKER's CPU (cpu.wake_affine) or its own last one
 * when it next needs a CPU.  No-op with one run queue. */
void pcs_cpu_wake_target(PcsCpus *c, uint32_t reader, uint32_t waker, PcsTime now);
/* With per-CPU run queues: TASK, a kworker woken from an unbound workqueue,
 * goes to the CPU it last ran on (select_task_rq_fair()'s prev_cpu) and
 * queues there if it is busy, even while the other CPU idles, as the
 * captures show for woken readers (docs/validation.md, "Woken readers queue
 * on one CPU") and for the loop kworker (scripts/pcsim-trace loop-worker: waits of
 * 0.1-1 ms with 4 threads).  No-op with one run queue. */
static inline void pcs_cpu_wake_prev(PcsCpus *c, uint32_t task) {
  if (c->migration_cost) c->tasks[task].wake_cpu = c->tasks[task].cpu;
}
/* The CPU a woken TASK is sent to: the one pcs_cpu_wake_target() chose, else its last. */
static inline uint32_t pcs_cpu_wake_cpu(const PcsCpus *c, uint32_t task) {
  return c->tasks[task].wake_cpu != PCS_NONE ? c->tasks[task].wake_cpu : c->tasks[task].cpu;
}
/* cpu.idle_wake_*: TASK, woken now, would take an idle CPU (per-CPU run
 * queues: the one it is sent to; one run queue: any).  FALSE when off. */
static inline gboolean pcs_cpu_wakes_onto_idle(const PcsCpus *c, uint32_t task) {
  if (!c->idle_since) return FALSE;
  if (c->migration_cost) return c->free_pos[pcs_cpu_wake_cpu(c, task)] != UINT32_MAX;
  return c->cpus_free > 0;
}
/* cpu.idle_wake_*: the delay before a task woken at NOW onto CPU, idle
 * since IDLE_SINCE, runs: cpu.idle_wake_short when it idled at most
 * cpu.idle_wake_poll, else cpu.idle_wake_long. */
static inline PcsTime pcs_cpu_idle_exit(const PcsCpus *c, PcsTime idle_since, PcsTime now) {
  return now - idle_since <= c->idle_poll ? c->idle_short : c->idle_long;
}
/* An insert by TASK adds its folio to TASK's CPU's LRU batch: the extra
 * CPU time of the insert that fills it (cost.lru_drain, else 0). */
static inline PcsTime pcs_cpu_lru_add(PcsCpus *c, uint32_t task, PcsTime drain) {
  if (!drain) return 0;
  uint32_t *n = &c->lru_batch[c->tasks[task].cpu];
  if (++*n < PCS_LRU_BATCH) return 0;
  *n = 0;
  return drain;
}
/* The CPU TASK runs on (or last ran on): whose per-CPU page list it allocates from (alloc.c). */
static inline uint32_t pcs_cpu_of(const PcsCpus *c, uint32_t task) { return c->tasks[task].cpu; }
/* TASK runs for COST ns: schedules its PCS_EV_TASK_STEP, or queues it for a
 * CPU; a task past cpu.slice with others waiting goes to the back. */
void pcs_cpu_run(PcsSim *s, uint32_t task, PcsTime cost);
/* pcs_cpu_run_last() (internal.h): pcs_cpu_run() as the last thing a task
 * does in the handling of its own step event, which may go on inline. */
/* TASK sleeps or finishes (WHY): its CPU goes to the next queued task.  No-op off CPU. */
void pcs_cpu_release(PcsSim *s, uint32_t task, PcsTaskState why);

#endif
