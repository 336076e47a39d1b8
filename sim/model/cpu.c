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
 * charges it with the insert).  Each task records the id of the CPU it got
 * (pcs_cpu_of(): alloc.c takes its pages from that CPU's list): a waking
 * task takes the CPU it last ran on when that one is free (as
 * select_task_rq_fair() prefers an idle prev_cpu), else the free CPU freed
 * last; a CPU handed to a queued task keeps its id.  Task t starts "on"
 * CPU t % cpu.count.
 *
 * cpu.tick (0: off): 6.x's EEVDF without HRTICK notices a used-up slice
 * only in update_curr(), which runs at the scheduler tick and when a task
 * is enqueued on the CPU's run queue.  So a task past its slice yields to
 * a task that was already waiting at its first step from the next tick
 * (ticks at multiples of cpu.tick, aligned on every CPU as with
 * sched_skew_tick=0), or at once when a task is queued for its CPU after
 * its slice ended (pcs_cpu_slice_over()); cpu_start() sets when its slice
 * ends and when it is due.  A task queued on the shared run queue counts
 * as queued for the CPU it last ran on (the kernel enqueues a woken task on
 * one CPU's run queue).  Differs from the kernel: the slice restarts
 * whenever the task gets a CPU, where EEVDF carries a deadline in virtual
 * time; the ticks fall at the same phase from the run's start in every
 * seed; and a woken task never preempts a reader before its slice is used
 * up, where EEVDF lets it in once the reader is no longer eligible (it ran
 * more than its share: most preemptions of the captures' readers are by a
 * woken kworker, docs/validation.md, "The scheduler tick").
 *
 * cpu.migration_cost (0: off) gives each CPU a run queue of its own, as
 * the kernel's scheduler has, for woken readers: end-io wakes a reader
 * onto one CPU (pcs_cpu_wake_target(): the waker's with probability
 * cpu.wake_affine, as wake_affine() picks it, else the reader's last one,
 * its prev_cpu) and the reader waits in that CPU's queue if the CPU is
 * busy, even while another CPU idles: select_idle_sibling() finds no idle
 * CPU when it looks, the other one goes idle later, and load balancing
 * leaves a task that ran within sched_migration_cost where it is.  A CPU
 * that frees runs its own queue's head, else the shared queue's, else the
 * head of another CPU's queue once it has waited cpu.migration_cost, else
 * idles.  The captures show it: with 4 readers at 128 KiB the woken reader
 * waits behind another fio thread on its CPU in 55% of wake-ups (median
 * 250 us) while the CPUs idle 58% of the time (docs/validation.md, "Woken
 * readers queue on one CPU").  Differs from the kernel: an idle CPU looks
 * at the other queues only when it frees, not on a timer (nohz idle
 * balance), so a queued reader waits at most for its CPU's current task
 * to sleep or use up cpu.slice.  cpu.wake_select (instead of cpu.wake_affine's
 * coin flip) picks the CPU by the kernel's rule, select_task_rq_fair() for
 * a wake-up without WF_SYNC on CPUs of one LLC (select_rq()): prev_cpu if
 * idle; else the waker's CPU when wake_affine_weight() finds it lighter
 * (readers counted on the CPU they last ran on, as their blocked load
 * stays there; workers weigh nothing); then select_idle_sibling(): that
 * CPU if idle, else prev_cpu if idle, else the first idle CPU after it.
 * Left out of select_idle_sibling(): recent_used_cpu, the SIS_UTIL limit
 * on the scan, and the per-CPU kthread rule.  cpu.wake_select = 2 weighs
 * by PELT instead (pelt_now(), kernel/sched/pelt.c, continuous rather than
 * in 1024 us periods): every task, workers included, carries its runnable
 * time decayed by y = 0.5^(1/32) per 1024 us, and a CPU's load is that of
 * the tasks that last ran there.  The end-io workers then weigh on the CPU
 * they run on, and woken readers stay off it: with two readers at 128 KiB,
 * pcsim puts 91% of their events on one CPU and 90% of the workers' runs
 * on the other, the dec07c capture 84% of its readers' (scripts/pcsim-trace
 * cpu-share; docs/notebook/2026-12-07-pelt-wake.md).
 *
 * cost.lru_drain (0: off): each CPU counts the folios its tasks' inserts
 * add to its LRU batch (folio_add_lru() -> cpu_fbatches.lru_add, 31
 * folios); the insert that fills it pays the drain (folio_batch_move_lru()
 * under the lruvec lock): pcs_cpu_lru_add(), called by reader.c's insert.
 * Differs from the kernel: nothing else adds to or drains the batch (fio's
 * fadvise invalidation calls lru_add_drain(); other LRU users add to it).
 *
 * cpu.wake_latency: a reader woken from its sleep on a page runs again only
 * after a delay drawn per wake-up (pcs_cpu_wake_latency(); reader.c
 * schedules its next step then), which is the time the captures show from
 * the waker's sched_waking to the reader's switch-in: the IPI, the idle
 * vCPU waking up, the switch.  It takes no CPU time.  Differs from the
 * kernel: end-io workers wake at once, and the delay does not depend on
 * how busy the CPUs are (their queueing is the run queue's, above).
 * cpu.wake_latency_local: the median for a reader woken onto its waker's
 * own CPU instead.  try_to_wake_up() enqueues it there directly (no IPI,
 * no idle CPU to bring back: ttwu_queue() queues on the wake list only
 * for another CPU), and it runs once the waker leaves the CPU (in pcsim,
 * when the worker runs out of bios, or its slice is used up while the
 * reader waits in the CPU's queue); the one-thread captures put
 * that at about 8 us against 33-51 us for a reader whose CPU was idle
 * (docs/validation.md, "Local and remote wake-ups").  Woken together,
 * the first reader on the waker's CPU thus starts well before the first
 * on the other, idle CPU.
 *
 * cpu.idle_wake_short, cpu.idle_wake_long, cpu.idle_wake_poll (all 0: off):
 * the cost of bringing an idle CPU back, by how long it had idled.  A task
 * woken onto an idle CPU (try_to_wake_up() -> ttwu_queue_wakelist(): an
 * IPI to that CPU) runs only once the CPU has left its idle loop; in a KVM
 * guest the idle vCPU halts (guest cpuidle-haltpoll polls first) and the
 * host's kvm_vcpu_halt() polls it for up to halt_poll_ns (200 us by
 * default) before it schedules the vCPU's thread out: an IPI within that
 * time resumes it in about 10-12 us, one after it has to get the vCPU's
 * thread scheduled back in, 54-56 us on the dec06 host (scripts/pcsim-trace
 * idle-wake; docs/notebook/2026-12-06-idle-wake.md).  So every task pcsim
 * wakes (reader, end-io worker, loop worker, csum reader: whatever reaches
 * pcs_cpu_run() off CPU) that takes a free CPU keeps that CPU but starts
 * its step cpu.idle_wake_short after, when the CPU had been idle (since
 * cpu_next() gave it up) at most cpu.idle_wake_poll, else
 * cpu.idle_wake_long; a task that queues behind a busy CPU pays nothing
 * more (the CPU is awake).  The delay takes no CPU time and is
 * deterministic (integer ns, no draw).  With cpu.wake_latency set, the
 * idle-wake keys replace it for a reader woken onto an idle CPU
 * (pcs_reader_wake() asks pcs_cpu_wakes_onto_idle()); a reader woken onto
 * a busy CPU still waits cpu.wake_latency (or _local) and then pays no
 * idle exit even if the CPU freed meanwhile.  Differs from the kernel: the
 * tasks that start the run pay it too (their CPUs idle since time 0), and
 * the idle time is the simulated CPU's, not the host's view of the vCPU.
 *
 * Wake-up preemption, one rule per kernel (below): cpu.cfs_wake_preempt
 * mirrors v3.5's check_preempt_wakeup() -> wakeup_preempt_entity() (CFS:
 * a sleeper placed at min_vruntime - sysctl_sched_latency / 2 by
 * place_entity() preempts a task more than sysctl_sched_wakeup_granularity
 * ahead of it); cpu.wake_preempt mirrors 6.x's check_preempt_wakeup_fair()
 * (EEVDF).  Without either, a woken task waits for the running one to
 * sleep or use up cpu.slice.
 */
#include "internal.h"

#include <math.h>

/* Wake-up preemption, either kernel's rule: per CPU the task on it and the
 * one preempting it (none yet), its virtual clock, the preempted task's due. */
static void preempt_init(PcsCpus *c, uint32_t ncpus) {
  c->curr = g_new(uint32_t, ncpus);
  c->preempt_by = g_new(uint32_t, ncpus);
  for (uint32_t i = 0; i < ncpus; i++) c->curr[i] = c->preempt_by[i] = PCS_NONE;
  c->vclock = g_new0(int64_t, ncpus);
  c->preempted_due = g_new0(PcsTime, ncpus);
}

void pcs_cpu_init(PcsCpus *c, const PcsParams *p, uint32_t ntasks) {
  *c = (PcsCpus){.ntasks = ntasks, .cpus_free = (uint32_t)p->cpu_count, .jitter = p->cost_jitter, .inline_task = PCS_NONE};
  c->tasks = g_new0(PcsTask, ntasks);
  c->runq = g_new(uint32_t, ntasks);
  c->free_ids = g_new(uint32_t, c->cpus_free);
  c->free_pos = g_new(uint32_t, c->cpus_free);
  for (uint32_t i = 0; i < c->cpus_free; i++) c->free_ids[i] = c->cpus_free - 1 - i, c->free_pos[c->cpus_free - 1 - i] = i;
  for (uint32_t t = 0; t < ntasks; t++) c->tasks[t].cpu = t % (uint32_t)p->cpu_count; /* spread, like fio's threads */
  for (uint32_t t = 0; t < ntasks; t++) c->tasks[t].wake_cpu = PCS_NONE;
  c->lru_batch = g_new0(uint32_t, (size_t)p->cpu_count);
  c->migration_cost = p->cpu_migration_cost;
  if (c->migration_cost) {
    c->ncpus = (uint32_t)p->cpu_count;
    c->cpuq = g_new(uint32_t, (size_t)c->ncpus * ntasks);
    c->cpuq_head = g_new0(uint32_t, c->ncpus);
    c->cpuq_len = g_new0(uint32_t, c->ncpus);
    c->wake_affine = p->cpu_wake_affine;
    c->wake_select = p->cpu_wake_select != 0;
    c->pelt = p->cpu_wake_select == 2;
    c->nreaders = (uint32_t)p->workload_threads;
    if (c->wake_affine > 0) {
      c->place_rng = g_new(PcsRng, 1);
      pcs_rng_init_stream(c->place_rng, p->scenario_seed, PCS_RNG_STREAM_PLACE);
    }
  }
  c->tick = p->cpu_tick;
  if (c->tick) c->queued_for = g_new0(PcsTime, (size_t)p->cpu_count);
  c->wake_preempt = p->cpu_wake_preempt != 0;
  c->cfs_preempt = p->cpu_cfs_wake_preempt != 0;
  c->cpu_count = (uint32_t)p->cpu_count;
  for (uint32_t t = 0; t < ntasks; t++) c->tasks[t].rq = PCS_NONE;
  if (c->cfs_preempt) {
    preempt_init(c, (uint32_t)p->cpu_count);
    for (uint32_t t = 0; t < ntasks; t++) c->tasks[t].vr_cpu = c->tasks[t].cpu;
    /* get_update_sysctl_factor(): 1 + ilog2(min(ncpus, 8)) */
    int64_t factor = 1 + (int64_t)g_bit_storage((guint)MIN(p->cpu_count, 8)) - 1;
    c->cfs_latency = factor * 6000000;
    c->cfs_gran = factor * 1000000;
  }
  if (c->wake_preempt) {
    preempt_init(c, (uint32_t)p->cpu_count);
    c->slice = (int64_t)p->cpu_slice;
    /* entity_lag(): lag limited to max(2 x slice, TICK_NSEC) */
    c->lag_limit = MAX(2 * c->slice, (int64_t)(p->cpu_tick ? p->cpu_tick : p->cpu_slice));
  }
  c->wake_latency = p->cpu_wake_latency;
  c->wake_latency_local = p->cpu_wake_latency_local;
  c->wake_jitter = p->cpu_wake_jitter;
  if (p->cpu_idle_wake_short || p->cpu_idle_wake_long) {
    c->idle_short = p->cpu_idle_wake_short, c->idle_long = p->cpu_idle_wake_long, c->idle_poll = p->cpu_idle_wake_poll;
    c->idle_since = g_new0(PcsTime, (size_t)p->cpu_count); /* every CPU idle from time 0 */
  }
  if (c->wake_latency && c->wake_jitter > 0) {
    c->wake_rng = g_new(PcsRng, 1);
    pcs_rng_init_stream(c->wake_rng, p->scenario_seed, PCS_RNG_STREAM_WAKE);
  }
  for (uint32_t t = 0; c->jitter > 0 && t < ntasks; t++) {
    c->tasks[t].rng = g_new(PcsRng, 1); /* one stream per task */
    pcs_rng_init_stream(c->tasks[t].rng, p->scenario_seed, PCS_RNG_STREAM_JITTER(t));
    c->tasks[t].factors = g_new(double, PCS_CPU_FACTORS);
    c->tasks[t].factors_next = PCS_CPU_FACTORS; /* drawn at the first cost */
  }
}

void pcs_cpu_clear(PcsCpus *c) {
  for (uint32_t t = 0; t < c->ntasks; t++) g_free(c->tasks[t].rng), g_free(c->tasks[t].factors);
  g_clear_pointer(&c->tasks, g_free);
  g_clear_pointer(&c->wake_rng, g_free);
  g_clear_pointer(&c->idle_since, g_free);
  g_clear_pointer(&c->runq, g_free);
  g_clear_pointer(&c->free_ids, g_free);
  g_clear_pointer(&c->free_pos, g_free);
  g_clear_pointer(&c->cpuq, g_free);
  g_clear_pointer(&c->cpuq_head, g_free);
  g_clear_pointer(&c->cpuq_len, g_free);
  g_clear_pointer(&c->lru_batch, g_free);
  g_clear_pointer(&c->place_rng, g_free);
  g_clear_pointer(&c->queued_for, g_free);
  g_clear_pointer(&c->curr, g_free);
  g_clear_pointer(&c->preempt_by, g_free);
  g_clear_pointer(&c->vclock, g_free);
  g_clear_pointer(&c->preempted_due, g_free);
}

/* A free CPU for a task that last ran on PREV: PREV if free, else the last freed. */
static uint32_t take_cpu(PcsCpus *c, uint32_t prev) {
  uint32_t at = c->free_pos[prev] != UINT32_MAX ? c->free_pos[prev] : c->cpus_free - 1;
  uint32_t id = c->free_ids[at], top = c->free_ids[--c->cpus_free];
  c->free_ids[at] = top, c->free_pos[top] = at; /* swap-remove */
  c->free_pos[id] = UINT32_MAX;
  return id;
}

static void give_cpu(PcsCpus *c, uint32_t id, PcsTime now) {
  if (c->idle_since) c->idle_since[id] = now;
  c->free_pos[id] = c->cpus_free;
  c->free_ids[c->cpus_free++] = id;
}

/* The next PCS_CPU_FACTORS factors of TASK's stream: one refill of its
 * MT19937 state, every word tempered and turned into a factor as a draw's
 * would be at its cost (pcs_rng_u32(), then 1 + jitter (2u - 1)).  The
 * draws are the same and in the same order (the stream has no other
 * reader), the factors no longer sit on the chain of dependent
 * floating-point operations of every step, and the loop has no call and
 * no branch, so the compiler vectorises it.  u32 -> double goes through a
 * signed int32 (the value is exact either way) because SSE2 converts only
 * those; the division by 2^32 is the exact multiplication by 2^-32. */
G_GNUC_NO_INLINE void pcs_cpu_draw_factors(PcsCpus *c, PcsTask *task) {
  PcsRng *r = task->rng;
  g_assert(r->mti == PCS_RNG_N);
  pcs_rng_refill(r);
  const uint32_t *mt = r->mt;
  double *f = task->factors, jitter = c->jitter;
  for (uint32_t i = 0; i < PCS_CPU_FACTORS; i++) {
    uint32_t y = pcs_rng_temper(mt[i]); /* as pcs_rng_u32() hands it out */
    double u = ((double)(int32_t)(y ^ 0x80000000u) + 2147483648.0) * (1.0 / 4294967296.0); /* [0,1) */
    f[i] = 1.0 + jitter * (2.0 * u - 1.0);
  }
  r->mti = PCS_RNG_N; /* every word handed out */
  task->factors_next = 0;
}

PcsTime pcs_cpu_wake_latency(PcsCpus *c, gboolean local) {
  PcsTime median = local && c->wake_latency_local ? c->wake_latency_local : c->wake_latency;
  if (!c->wake_rng) return median;
  return (PcsTime)((double)median * exp(c->wake_jitter * pcs_rng_normal(c->wake_rng)));
}

/* ---- EEVDF wake-up preemption (cpu.wake_preempt) ----------------------------
 *
 * Mirrors kernel/sched/fair.c of 6.x for what decides whether a woken task
 * runs at once: place_entity(), entity_lag(), entity_eligible(),
 * set_protect_slice(), DELAY_DEQUEUE and pick_eevdf() as
 * check_preempt_wakeup_fair() asks it.  Every task weighs the same (nice
 * 0), so virtual time is CPU time.  A task is on the run queue of one CPU
 * while runnable (PcsTask.rq): the one it runs on, is queued on, or (the
 * shared queue) last ran on.  A task that sleeps ineligible (negative lag)
 * stays on its queue, delayed, with its vruntime, until the CPU would pick
 * it (it is eligible at a switch there, or nothing else is runnable): a
 * reader that slept briefly wakes as far ahead as it slept, and a woken
 * kworker then preempts it.  Differs from the kernel: the CPU that frees
 * still takes its queue's head (FIFO), not the earliest eligible deadline;
 * the tick reschedules at pcsim's slice (cpu.slice, cpu.tick), not at the
 * virtual deadline; a delayed task woken onto another CPU migrates (the
 * kernel wakes it where it is). */

static int64_t vrt_now(const PcsTask *task, PcsTime now) {
  return task->on_cpu ? task->vruntime + (int64_t)(now - task->run_since) : task->vruntime;
}

/* The sum and count of the vruntimes on CPU's run queue (its running task
 * and delayed sleepers included: avg_vruntime() counts both). */
static uint32_t rq_sum(const PcsCpus *c, uint32_t cpu, PcsTime now, int64_t *sum) {
  uint32_t n = 0;
  *sum = 0;
  for (uint32_t t = 0; t < c->ntasks; t++)
    if (c->tasks[t].rq == cpu) *sum += vrt_now(&c->tasks[t], now), n++;
  return n;
}

/* avg_vruntime(), rounded down; the queue's clock when it is empty. */
static int64_t rq_avg(const PcsCpus *c, uint32_t cpu, PcsTime now) {
  int64_t sum;
  uint32_t n = rq_sum(c, cpu, now, &sum);
  if (!n) return c->vclock[cpu];
  int64_t q = sum / n;
  return q * (int64_t)n > sum ? q - 1 : q;
}

/* entity_eligible(): T's vruntime is at most the queue's average (SUM / N). */
static gboolean eligible(const PcsCpus *c, uint32_t t, int64_t sum, uint32_t n, PcsTime now) {
  return sum >= vrt_now(&c->tasks[t], now) * (int64_t)n;
}

/* entity_lag(): T's lag on its queue, clamped to c->lag_limit. */
static int64_t rq_lag(const PcsCpus *c, uint32_t t, PcsTime now) {
  int64_t lag = rq_avg(c, c->tasks[t].rq, now) - vrt_now(&c->tasks[t], now);
  return CLAMP(lag, -c->lag_limit, c->lag_limit);
}

/* T leaves its queue with lag LAG (kept for its next placement). */
static void rq_remove(PcsCpus *c, uint32_t t, int64_t lag, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  uint32_t cpu = task->rq;
  int64_t avg = rq_avg(c, cpu, now), sum;
  task->vlag = lag;
  task->rq = PCS_NONE;
  task->delayed = FALSE;
  if (!rq_sum(c, cpu, now, &sum)) c->vclock[cpu] = avg;
}

/* place_entity(): T joins CPU's queue at the average less its lag (scaled
 * by the queue's weight, so that adding T leaves the average where the lag
 * says), with a deadline one slice on. */
static void rq_join(PcsCpus *c, uint32_t t, uint32_t cpu, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  int64_t sum;
  uint32_t n = rq_sum(c, cpu, now, &sum);
  int64_t lag = n ? task->vlag * (int64_t)(n + 1) / (int64_t)n : task->vlag;
  task->vruntime = rq_avg(c, cpu, now) - lag;
  task->deadline = task->vruntime + c->slice;
  task->rq = cpu;
}

/* T becomes runnable on CPU's queue: woken (a delayed sleeper is requeued
 * as it is, re-placed at lag 0 once its lag is positive:
 * requeue_delayed_entity() with DELAY_ZERO), or moved from another CPU's
 * queue with its lag (migrate_task_rq_fair()). */
static void rq_wake(PcsCpus *c, uint32_t t, uint32_t cpu, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  if (task->delayed && task->rq == cpu) {
    task->delayed = FALSE;
    if (rq_lag(c, t, now) <= 0) return;
    rq_remove(c, t, 0, now);
  } else if (task->rq == cpu) {
    return;
  } else if (task->rq != PCS_NONE) {
    rq_remove(c, t, rq_lag(c, t, now), now);
  }
  rq_join(c, t, cpu, now);
}

/* T sleeps: off its queue with its lag when eligible, else delayed on it
 * (dequeue_entity() with DELAY_DEQUEUE). */
static void rq_sleep(PcsCpus *c, uint32_t t, PcsTime now) {
  int64_t lag = rq_lag(c, t, now);
  if (lag >= 0) {
    rq_remove(c, t, lag, now);
    return;
  }
  c->tasks[t].delayed = TRUE;
  c->tasks[t].vlag = lag;
}

/* A switch on CPU: the delayed sleepers it would pick leave its queue, with
 * lag min(max(lag now, lag at the sleep), 0) (DELAY_ZERO): those eligible,
 * or all of them when nothing else is runnable there (IDLE). */
static void rq_pick_delayed(PcsCpus *c, uint32_t cpu, gboolean idle, PcsTime now) {
  for (uint32_t t = 0; t < c->ntasks; t++) {
    PcsTask *task = &c->tasks[t];
    if (task->rq != cpu || !task->delayed) continue;
    int64_t sum;
    uint32_t n = rq_sum(c, cpu, now, &sum);
    if (!idle && !eligible(c, t, sum, n, now)) continue;
    int64_t lag = MAX(rq_lag(c, t, now), task->vlag);
    rq_remove(c, t, MIN(lag, 0), now);
  }
}

/* update_deadline(): a task past its deadline gets the next one. */
static void next_deadline(const PcsCpus *c, PcsTask *task, PcsTime now) {
  int64_t v = vrt_now(task, now);
  if (v >= task->deadline) task->deadline = v + c->slice;
}

/* T gets its CPU (task->cpu): it joins that CPU's queue (woken straight
 * onto a free CPU, or taken from another queue), and its slice is
 * protected up to its deadline (set_protect_slice(): all slices equal). */
static void eevdf_start(PcsCpus *c, uint32_t t, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  task->run_since = now; /* on CPU from now: its vruntime is task->vruntime so far */
  rq_wake(c, t, task->cpu, now);
  next_deadline(c, task, now);
  task->vprot = task->deadline;
  c->curr[task->cpu] = t;
  for (uint32_t i = 0; i < c->cpu_count; i++) {
    if (c->preempt_by[i] != t) continue;
    c->preempt_by[i] = PCS_NONE; /* it runs elsewhere: the one it preempted is picked again */
    if (i != task->cpu && c->curr[i] != PCS_NONE) c->tasks[c->curr[i]].slice_due = c->preempted_due[i];
  }
}

/* T leaves its CPU (WHY): it stays on the queue when preempted. */
static void eevdf_stop(PcsCpus *c, uint32_t t, PcsTaskState why, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  next_deadline(c, task, now);
  task->vruntime = vrt_now(task, now);
  c->curr[task->cpu] = PCS_NONE;
  task->on_cpu = FALSE;
  if (why != PCS_TASK_PREEMPTED) rq_sleep(c, t, now);
}

/* W, woken, waits on CPU's queue: does it preempt the task running there?
 * check_preempt_wakeup_fair(): yes when pick_eevdf() would pick W, the
 * eligible task of the earliest deadline, the running one counted only
 * while eligible and chosen outright while also protected. */
static gboolean eevdf_wakeup_preempts(PcsCpus *c, uint32_t w, uint32_t cpu, PcsTime now) {
  uint32_t r = c->curr[cpu];
  if (r == PCS_NONE || c->preempt_by[cpu] != PCS_NONE) return FALSE;
  int64_t sum;
  uint32_t n = rq_sum(c, cpu, now, &sum);
  PcsTask *rt = &c->tasks[r];
  next_deadline(c, rt, now);
  gboolean r_eligible = eligible(c, r, sum, n, now);
  if (r_eligible && vrt_now(rt, now) < rt->vprot) return FALSE;
  uint32_t best = PCS_NONE;
  for (uint32_t t = 0; t < c->ntasks; t++) {
    if (c->tasks[t].rq != cpu || (t == r && !r_eligible) || !eligible(c, t, sum, n, now)) continue;
    if (best == PCS_NONE || c->tasks[t].deadline < c->tasks[best].deadline) best = t;
  }
  return best == w;
}

/* W is woken onto CPU's queue (or the shared one, counted as CPU's). */
static void eevdf_woken(PcsSim *s, uint32_t w, uint32_t cpu) {
  PcsCpus *c = &s->cpu;
  rq_wake(c, w, cpu, s->evq.now);
  if (!eevdf_wakeup_preempts(c, w, cpu, s->evq.now)) return;
  c->preempt_by[cpu] = w;
  PcsTask *r = &c->tasks[c->curr[cpu]];
  c->preempted_due[cpu] = r->slice_due;
  r->slice_due = s->evq.now; /* resched_curr(): it yields at its next step */
}

/* ---- v3.x CFS wake-up preemption (cpu.cfs_wake_preempt) --------------------
 *
 * Mirrors kernel/sched/fair.c of v3.5 for what decides whether a woken task
 * runs at once: place_entity() of a sleeper (not initial), with
 * GENTLE_FAIR_SLEEPERS, wakeup_gran() and wakeup_preempt_entity() as
 * check_preempt_wakeup() asks it, with update_curr() and
 * update_min_vruntime() kept per CPU.  Every task weighs the same (nice 0):
 * virtual time is CPU time.  sysctl_sched_latency (6 ms) and
 * sysctl_sched_wakeup_granularity (1 ms) are scaled by 1 + ilog2(ncpus)
 * (SCHED_TUNABLESCALING_LOG, ncpus at most 8): 18 ms and 3 ms at 4 CPUs.
 * A task's vruntime is counted against one CPU's min_vruntime (vr_cpu) and
 * moved to another's when it runs or is woken there, as
 * task_waking_fair() and migrate_task_rq_fair() renormalise it.  A woken
 * task is placed at max(vruntime, min_vruntime - latency / 2), and
 * preempts the task running on its CPU (the one it last ran on, where
 * select_task_rq_fair() puts it when no CPU is idle) when that task's
 * vruntime is more than the granularity ahead of it: an end-io worker that
 * slept is 9 ms behind a reader that ran and preempts it at once; a reader
 * woken after a short sleep is not.  The preempted task yields at its next
 * step (resched_task(); do_generic_file_read() passes cond_resched() every
 * page) and the woken one takes its CPU (set_next_buddy()).  Differs from
 * the kernel: a task waiting in pcsim's shared run queue holds back no
 * CPU's min_vruntime (only the running task moves it), the preempted task
 * waits at the back of that queue, and the tick still rotates tasks at
 * cpu.slice, not at sched_slice(). */

/* update_min_vruntime(): CPU's min_vruntime, moved on to its running task's. */
static int64_t cfs_min(PcsCpus *c, uint32_t cpu, PcsTime now) {
  uint32_t t = c->curr[cpu];
  if (t != PCS_NONE) c->vclock[cpu] = MAX(c->vclock[cpu], vrt_now(&c->tasks[t], now));
  return c->vclock[cpu];
}

/* T's vruntime, counted against CPU's min_vruntime from now on. */
static void cfs_move(PcsCpus *c, uint32_t t, uint32_t cpu, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  if (task->vr_cpu == cpu) return;
  task->vruntime += cfs_min(c, cpu, now) - cfs_min(c, task->vr_cpu, now);
  task->vr_cpu = cpu;
}

/* place_entity(cfs_rq, se, 0): T, woken onto CPU, gets at most half a
 * latency period of credit for its sleep. */
static void cfs_place(PcsCpus *c, uint32_t t, uint32_t cpu, PcsTime now) {
  cfs_move(c, t, cpu, now);
  c->tasks[t].vruntime = MAX(c->tasks[t].vruntime, cfs_min(c, cpu, now) - c->cfs_latency / 2);
}

/* T gets its CPU. */
static void cfs_start(PcsCpus *c, uint32_t t, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  cfs_move(c, t, task->cpu, now);
  task->run_since = now;
  c->curr[task->cpu] = t;
  for (uint32_t i = 0; i < c->cpu_count; i++) {
    if (c->preempt_by[i] != t) continue;
    c->preempt_by[i] = PCS_NONE; /* it runs elsewhere: the one it preempted keeps its CPU */
    if (i != task->cpu && c->curr[i] != PCS_NONE) c->tasks[c->curr[i]].slice_due = c->preempted_due[i];
  }
}

/* T leaves its CPU: update_curr() for the last time. */
static void cfs_stop(PcsCpus *c, uint32_t t, PcsTime now) {
  PcsTask *task = &c->tasks[t];
  cfs_min(c, task->cpu, now);
  task->vruntime = vrt_now(task, now);
  c->curr[task->cpu] = PCS_NONE;
}

/* check_preempt_wakeup(): W, woken and placed on busy CPU, preempts the
 * task there when wakeup_preempt_entity() returns 1 (and that task is not
 * already to be rescheduled). */
static void cfs_woken(PcsSim *s, uint32_t w, uint32_t cpu) {
  PcsCpus *c = &s->cpu;
  PcsTime now = s->evq.now;
  cfs_place(c, w, cpu, now);
  uint32_t r = c->curr[cpu];
  if (r == PCS_NONE || c->preempt_by[cpu] != PCS_NONE) return;
  if (vrt_now(&c->tasks[r], now) - c->tasks[w].vruntime <= c->cfs_gran) return;
  c->preempt_by[cpu] = w;
  c->preempted_due[cpu] = c->tasks[r].slice_due;
  c->tasks[r].slice_due = now; /* resched_task(): it yields at its next step */
}

/* Takes T out of the ring RING (LEN entries from *HEAD, N slots); FALSE if absent. */
static gboolean ring_remove(uint32_t *ring, uint32_t *head, uint32_t *len, uint32_t n, uint32_t t) {
  uint32_t i = 0;
  while (i < *len && ring[(*head + i) % n] != t) i++;
  if (i == *len) return FALSE;
  for (; i + 1 < *len; i++) ring[(*head + i) % n] = ring[(*head + i + 1) % n];
  (*len)--;
  return TRUE;
}

/* The woken task that preempts the one that left CPU, out of whichever
 * queue holds it; PCS_NONE: none. */
static uint32_t take_preempter(PcsCpus *c, uint32_t cpu) {
  uint32_t w = c->preempt_by[cpu];
  if (w == PCS_NONE) return PCS_NONE;
  c->preempt_by[cpu] = PCS_NONE;
  if (ring_remove(c->runq, &c->runq_head, &c->runq_len, c->ntasks, w)) return w;
  for (uint32_t o = 0; c->migration_cost && o < c->ncpus; o++)
    if (ring_remove(c->cpuq + (size_t)o * c->ntasks, &c->cpuq_head[o], &c->cpuq_len[o], c->ntasks, w)) return w;
  g_assert_not_reached(); /* a preempter is queued until it runs (eevdf_start() clears it) */
}

static void cpu_next(PcsSim *s, uint32_t cpu);

/* T, on its CPU, leaves it for WHY: a context switch (counted for a
 * reader, fio's ctx) and the first half of the trace's sched_switch; then
 * the CPU's next task, or none, gets it at the same instant (cpu_next()).
 * T's cpu stays the one it last ran on. */
static void pelt_set(PcsCpus *c, uint32_t t, PcsTime now, gboolean runnable);

static void leave_cpu(PcsSim *s, uint32_t t, PcsTaskState why) {
  PcsTask *task = &s->cpu.tasks[t];
  if (why != PCS_TASK_PREEMPTED) pelt_set(&s->cpu, t, s->evq.now, FALSE);
  if (s->cpu.wake_preempt) eevdf_stop(&s->cpu, t, why, s->evq.now);
  if (s->cpu.cfs_preempt) cfs_stop(&s->cpu, t, s->evq.now);
  task->on_cpu = FALSE;
  if (t < s->nreaders) s->res->thread_switches[t]++;
  pcs_trace(s, t + 1, PCS_TRACE_CPU_OFF, task->cpu, why);
  cpu_next(s, task->cpu);
}

static void cpu_start(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->cpu.tasks[t];
  pcs_trace(s, t + 1, PCS_TRACE_CPU_ON, task->cpu, 0);
  task->on_cpu = TRUE;
  if (s->cpu.wake_preempt) eevdf_start(&s->cpu, t, s->evq.now);
  if (s->cpu.cfs_preempt) cfs_start(&s->cpu, t, s->evq.now);
  PcsTime start = s->evq.now + task->idle_exit; /* cpu.idle_wake_*: the CPU leaves its idle loop first */
  task->idle_exit = 0;
  task->slice_end = start + s->p->cpu_slice;
  PcsTime tick = s->cpu.tick;
  task->slice_due = tick ? (task->slice_end + tick - 1) / tick * tick : task->slice_end;
  pcs_evq_push(&s->evq, start + task->cost, PCS_EV_TASK_STEP, t);
}

/* cpu.idle_wake_*: task T, woken, has taken CPU, which was idle: the delay
 * before it runs there (none after a busy wake-up's cpu.wake_latency). */
static void take_idle(PcsCpus *c, uint32_t t, uint32_t cpu, PcsTime now) {
  if (!c->idle_since) return;
  PcsTask *task = &c->tasks[t];
  task->idle_exit = task->woke_busy ? 0 : pcs_cpu_idle_exit(c, c->idle_since[cpu], now);
  task->woke_busy = FALSE;
}

/* ---- per-CPU run queues (cpu.migration_cost) ------------------------------ */

/* cpu.wake_select: CPU is idle_cpu() as the kernel tests it: nothing runs
 * there, nothing is queued there, no woken reader is on its way to it. */
static gboolean select_idle(const PcsCpus *c, uint32_t cpu) {
  if (c->free_pos[cpu] == UINT32_MAX || c->cpuq_len[cpu]) return FALSE;
  for (uint32_t t = 0; t < c->ntasks; t++)
    if (c->tasks[t].wake_cpu == cpu) return FALSE;
  return TRUE;
}

/* PELT: a task's load decays by y = 0.5^(1/32) per 1024 us period and
 * grows toward its weight while it is runnable (kernel/sched/pelt.c,
 * continuous here). */
static double pelt_now(const PcsTask *task, PcsTime now) {
  double d = exp2(-(double)(now - task->load_at) / 32768000.0);
  return task->load * d + (task->runnable ? 1.0 - d : 0.0);
}

static void pelt_set(PcsCpus *c, uint32_t t, PcsTime now, gboolean runnable) {
  if (!c->pelt) return;
  PcsTask *task = &c->tasks[t];
  task->load = pelt_now(task, now);
  task->load_at = now;
  task->runnable = runnable;
}

/* cpu_load() of CPU: the PELT loads of the tasks whose last CPU it is
 * (a sleeping task's load stays there: blocked load). */
static double pelt_cpu_load(const PcsCpus *c, uint32_t cpu, PcsTime now) {
  double sum = 0;
  for (uint32_t t = 0; t < c->ntasks; t++)
    if (c->tasks[t].cpu == cpu) sum += pelt_now(&c->tasks[t], now);
  return sum;
}

/* cpu.wake_select: the readers whose last CPU is CPU, READER aside (a
 * sleeping task's load stays on its CPU's load average: blocked load).
 * Differs from the kernel: that load never decays here, a finished
 * reader's included. */
static uint32_t select_load(const PcsCpus *c, uint32_t cpu, uint32_t reader) {
  uint32_t n = 0;
  for (uint32_t t = 0; t < c->nreaders; t++) n += t != reader && c->tasks[t].cpu == cpu;
  return n;
}

/* cpu.wake_select: select_task_rq_fair() for READER woken (no WF_SYNC) by
 * a task on THIS, all CPUs in one LLC: wake_affine() (WA_IDLE, then
 * WA_WEIGHT with the MC domain's imbalance_pct 117), then
 * select_idle_sibling(). */
static uint32_t select_rq(const PcsCpus *c, uint32_t reader, uint32_t this, PcsTime now) {
  uint32_t prev = c->tasks[reader].cpu, target = prev;
  if (c->pelt && this != prev && !select_idle(c, prev)) {
    double tl = pelt_now(&c->tasks[reader], now);
    double this_eff = (pelt_cpu_load(c, this, now) + tl) * 100, prev_eff = (pelt_cpu_load(c, prev, now) - tl) * 108;
    if (this_eff < prev_eff) target = this;
  } else if (this != prev && !select_idle(c, prev)) {
    uint64_t this_eff = (uint64_t)(select_load(c, this, reader) + 1) * 200;
    uint64_t prev_eff = (uint64_t)select_load(c, prev, reader) * 216; /* 100 + (117 - 100) / 2 = 108 (integers), doubled */
    if (this_eff < prev_eff) target = this;
  }
  if (select_idle(c, target)) return target;
  if (target != prev && select_idle(c, prev)) return prev;
  for (uint32_t i = 1; i < c->ncpus; i++) {
    uint32_t cpu = (target + i) % c->ncpus;
    if (select_idle(c, cpu)) return cpu;
  }
  return target;
}

void pcs_cpu_wake_target(PcsCpus *c, uint32_t reader, uint32_t waker, PcsTime now) {
  if (!c->migration_cost) return;
  if (c->wake_select) {
    c->tasks[reader].wake_cpu = select_rq(c, reader, c->tasks[waker].cpu, now);
    return;
  }
  gboolean affine = c->place_rng && pcs_rng_open01(c->place_rng) < c->wake_affine;
  c->tasks[reader].wake_cpu = affine ? c->tasks[waker].cpu : c->tasks[reader].cpu;
}

static void cpuq_push(PcsCpus *c, uint32_t cpu, uint32_t t, PcsTime now) {
  g_assert(c->cpuq_len[cpu] < c->ntasks);
  c->cpuq[(size_t)cpu * c->ntasks + (c->cpuq_head[cpu] + c->cpuq_len[cpu]++) % c->ntasks] = t;
  c->tasks[t].queued_at = now;
  if (c->tick) c->queued_for[cpu] = now;
}

static uint32_t cpuq_pop(PcsCpus *c, uint32_t cpu) {
  uint32_t t = c->cpuq[(size_t)cpu * c->ntasks + c->cpuq_head[cpu]];
  c->cpuq_head[cpu] = (c->cpuq_head[cpu] + 1) % c->ntasks;
  c->cpuq_len[cpu]--;
  return t;
}

static uint32_t runq_pop(PcsSim *s);

/* The task CPU runs when it frees: its own queue's head, the shared
 * queue's, or another CPU's head that has waited cpu.migration_cost;
 * PCS_NONE: it idles. */
static uint32_t next_on(PcsSim *s, uint32_t cpu) {
  PcsCpus *c = &s->cpu;
  if (c->cpuq_len[cpu]) return cpuq_pop(c, cpu);
  if (c->runq_len) return runq_pop(s);
  for (uint32_t o = 0; o < c->ncpus; o++) {
    if (o == cpu || !c->cpuq_len[o]) continue;
    uint32_t t = c->cpuq[(size_t)o * c->ntasks + c->cpuq_head[o]];
    if (s->evq.now - c->tasks[t].queued_at >= c->migration_cost) return cpuq_pop(c, o);
  }
  return PCS_NONE;
}

/* A woken reader asks for a CPU: the one it was woken onto if free, else
 * it queues there. */
static void run_woken(PcsSim *s, uint32_t t) {
  PcsTask *task = &s->cpu.tasks[t];
  uint32_t target = task->wake_cpu;
  task->wake_cpu = PCS_NONE;
  if (s->cpu.free_pos[target] != UINT32_MAX) {
    task->cpu = take_cpu(&s->cpu, target);
    take_idle(&s->cpu, t, task->cpu, s->evq.now);
    if (s->cpu.cfs_preempt) cfs_place(&s->cpu, t, task->cpu, s->evq.now);
    cpu_start(s, t);
  } else {
    cpuq_push(&s->cpu, target, t, s->evq.now);
    if (s->cpu.wake_preempt) eevdf_woken(s, t, target);
    if (s->cpu.cfs_preempt) cfs_woken(s, t, target);
  }
}

/* CPU is free: run the next task, or idle. */
static void cpu_next(PcsSim *s, uint32_t cpu) {
  uint32_t next = s->cpu.wake_preempt || s->cpu.cfs_preempt ? take_preempter(&s->cpu, cpu) : PCS_NONE;
  if (next == PCS_NONE) next = s->cpu.migration_cost ? next_on(s, cpu) : s->cpu.runq_len ? runq_pop(s) : PCS_NONE;
  if (s->cpu.wake_preempt) rq_pick_delayed(&s->cpu, cpu, next == PCS_NONE, s->evq.now);
  if (next == PCS_NONE) {
    pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_CPU_ON, cpu, 0);
    give_cpu(&s->cpu, cpu, s->evq.now);
    return;
  }
  s->cpu.tasks[next].cpu = cpu;
  cpu_start(s, next);
}

/* ---- the shared run queue -------------------------------------------------- */

static void runq_push(PcsSim *s, uint32_t t) {
  g_assert(s->cpu.runq_len < s->cpu.ntasks);
  /* the kernel enqueues a woken task on one CPU's run queue (select_task_rq(): here its
   * last CPU, as none is idle), and only that CPU's update_curr() runs; any CPU that frees
   * may still take it from here, as newidle balancing would pull it */
  if (s->cpu.tick) s->cpu.queued_for[s->cpu.tasks[t].cpu] = s->evq.now;
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
  if (!task->on_cpu && !task->runnable) pelt_set(&s->cpu, t, s->evq.now, TRUE);
  if (t < s->nreaders) s->res->thread_cpu_ns[t] += cost; /* readers' CPU time (fio's sys_cpu) */
  if (task->on_cpu) {
    if (pcs_cpu_waiting(&s->cpu, task->cpu) && pcs_cpu_slice_over(&s->cpu, task, s->evq.now)) {
      leave_cpu(s, t, PCS_TASK_PREEMPTED); /* slice used up: hand the CPU over, wait behind */
      if (s->cpu.migration_cost)
        cpuq_push(&s->cpu, task->cpu, t, s->evq.now);
      else
        runq_push(s, t);
      return;
    }
    pcs_evq_push(&s->evq, s->evq.now + cost, PCS_EV_TASK_STEP, t);
    return;
  }
  if (task->wake_cpu != PCS_NONE) {
    run_woken(s, t);
    return;
  }
  if (s->cpu.cpus_free) { /* woken (or started): off CPU, not queued */
    task->cpu = take_cpu(&s->cpu, task->cpu);
    take_idle(&s->cpu, t, task->cpu, s->evq.now);
    if (s->cpu.cfs_preempt) cfs_place(&s->cpu, t, task->cpu, s->evq.now); /* enqueued on the idle CPU */
    cpu_start(s, t);
  } else {
    runq_push(s, t);
    if (s->cpu.wake_preempt) eevdf_woken(s, t, task->cpu);
    if (s->cpu.cfs_preempt) cfs_woken(s, t, task->cpu);
  }
}

void pcs_cpu_release(PcsSim *s, uint32_t t, PcsTaskState why) {
  PcsTask *task = &s->cpu.tasks[t];
  if (task->on_cpu) leave_cpu(s, t, why);
}
