/* cpu.h - simulated CPUs shared by readers and end-io workers (see cpu.c). */
#ifndef PCSIM_MODEL_CPU_H
#define PCSIM_MODEL_CPU_H

#include "pcsim/evq.h"
#include "pcsim/params.h"
#include "rng.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  PcsTime cost;        /* CPU time of the step being run or waited for */
  PcsTime slice_start; /* when it last got a CPU */
  gboolean on_cpu;
  PcsRng *rng;         /* cost jitter stream, NULL without jitter */
} PcsTask;

/* The CPUs and their run queue.  Tasks: readers 0..threads-1, then end-io workers. */
typedef struct {
  PcsTask *tasks;
  uint32_t ntasks;
  uint32_t cpus_free;
  uint32_t *runq; /* ring of task ids waiting for a CPU */
  uint32_t runq_head, runq_len;
  double jitter; /* cost.jitter */
} PcsCpus;

/* Called once per run for NTASKS tasks; seeds one jitter stream per task from scenario.seed. */
void pcs_cpu_init(PcsCpus *c, const PcsParams *p, uint32_t ntasks);
/* Frees the tasks and their streams. */
void pcs_cpu_clear(PcsCpus *c);
/* BASE ns of work for TASK with cost.jitter applied (draws from TASK's stream). */
PcsTime pcs_cpu_cost(PcsSim *s, uint32_t task, uint64_t base);
/* TASK runs for COST ns: schedules its PCS_EV_TASK_STEP, or queues it for a
 * CPU; a task past cpu.slice with others waiting goes to the back. */
void pcs_cpu_run(PcsSim *s, uint32_t task, PcsTime cost);
/* TASK sleeps or finishes: its CPU goes to the next queued task.  No-op off CPU. */
void pcs_cpu_release(PcsSim *s, uint32_t task);

#endif
