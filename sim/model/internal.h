/* internal.h - PcsSim: one run of the kernel model, private to sim/model/.
 *
 * Each module owns its state in a struct of its own (page cache, frame
 * allocator, bio set, block queue, device, end-io, CPUs), declared with its
 * functions in its own header; PcsSim embeds one of each.  Objects that come
 * and go during a run (bios, requests) live in index pools (pool.h) that
 * grow to their high-water mark once and are then recycled, so the
 * per-event path never calls malloc.  After the helpers (pool, rng, cpu)
 * the module headers come in the order a page travels (the walk in sim.h).
 */
#ifndef PCSIM_INTERNAL_H
#define PCSIM_INTERNAL_H

#include "pcsim/sim.h"
#include "pcsim/units.h"

#include "pool.h"
#include "rng.h"
#include "cpu.h"
#include "reader.h"
#include "readahead.h"
#include "pagecache.h"
#include "alloc.h"
#include "bio.h"
#include "blk.h"
#include "csum.h"
#include "iotree.h"
#include "device.h"
#include "endio.h"
#include "loop.h"

/* Event kinds: the only two things that happen on the clock. */
enum {
  PCS_EV_TASK_STEP,  /* a task's CPU step has run (cpu.c): reader.c or endio.c goes on */
  PCS_EV_DEVICE_DONE /* the device finished a request (device.c) */
};

/* One job's view of the run: what its readers read with.  One job (a
 * plain scenario): the run's own keys; several (PcsParams.jobs): each
 * job's view (pcs_params_job_view()), its clones the readers
 * [first, first + clones), numbered on over the jobs as fio numbers them. */
struct PcsSimJob {
  const PcsParams *p; /* the job's keys: &view, or the run's with one job */
  PcsParams view;     /* several jobs: the job's own view; unused with one */
  uint64_t block_pages, window_pages; /* workload.block_size; the per-file readahead window (fadvise_hint, rw) */
  gboolean randread;     /* workload.rw = randread: each call reads the block fio picks (reader.c) */
  gboolean rand_reseed;  /* fio's randrepeat: each loop reads the same order (fiorand.c) */
  gboolean fmode_random; /* POSIX_FADV_RANDOM: a miss reads exactly the request (readahead.c) */
  /* its clones' file range (fio's file_offset, io_size): pages
   * [offset_pages, offset_pages + size_pages) of a file of file_pages
   * (its own layout: offset + size), each clone loops passes over it */
  uint64_t offset_pages, size_pages, file_pages, loops;
  /* the files it reads (sim.c jobs_layout()): with shared files the run's
   * named ones (PcsJobSpec.file, files), each as large as the largest
   * offset + size of its jobs (PcsSim.file_eof); a clone's own set is
   * its job's file_pages each: with per-thread files or PCS_JOB_OWN_FILE
   * the set at own_first + the clone's number x nrfiles (after the named
   * files) */
  uint32_t file, own_first;
  /* its files (workload.nrfiles, fio's nrfiles, the job's own): a clone
   * reads nrfiles of them, the named ones spec's (PcsJobSpec.files), or
   * its own own_first + its number x nrfiles on; file_service_type and
   * openfiles (0 taken as nrfiles: init.c fixup_options()) */
  const PcsJobSpec *spec; /* NULL with one job */
  uint32_t nrfiles, openfiles, fservice_nr;
  PcsFileService fservice;
  /* how long its clones read: workload.time_based (over and over), no
   * read() started at or after stop_at, its start + workload.runtime (fio
   * counts a job's runtime from its own start; 0: none) */
  gboolean time_based;
  PcsTime runtime, stop_at;
  uint32_t first, clones;
  uint32_t left;         /* clones not finished yet (barriers: sim.c) */
  gboolean started;      /* its readers have started (a job behind a barrier starts later) */
};

struct PcsSim {
  const PcsParams *p;
  PcsPolicy policy;
  PcsRunOptions opt;
  PcsEvq evq;
  PcsResult *res;

  /* the page cache, in pages: files of file_pages each, one after the
   * other on disk: nrfiles shared by the readers of a file's jobs (one set
   * per file the jobs name: PcsSimJob.file), or with per-thread files
   * nrfiles per reader, each reader's after the one before */
  uint64_t npages, file_pages; /* file_pages: a file's slot, the largest job's offset + size (fio lays a shared file out to it) */
  uint64_t *file_eof;        /* each file's end in pages: a shared one's the largest offset + size of its jobs */
  uint32_t nfiles;           /* files: pcs_params_nfiles() */
  gboolean per_thread_files; /* workload.files = per-thread */
  PcsKernel kernel;          /* [scenario] kernel: which read path runs */
  uint32_t max_folio_order;  /* readahead.max_folio_order: large folios (ext4, xfs) when > 0 */
  uint64_t bdi_io_pages;     /* the bdi's io_pages: btrfs's own bdi 32, a block device's max_sectors (readahead.c) */
  gboolean endio_inline;     /* ext4, xfs: a bio completes in its own end-io, no worker (endio.c) */
  PcsRaFolios ra_folios;     /* scratch of page_cache_ra_order() (readahead.c), with large folios */
  gboolean copy_cold;        /* cost.copy_cold > 0: a copy may be cold (endio.c) */
  uint64_t reported_pages;   /* cost.touch_reported: folios of this many pages or more are in reported memory; 0: off */
  uint32_t cold_order;       /* cost.touch_reported: a page of its own frame from a free block of this order or more is cold (pc.cold); 0: off */
  gboolean fold;             /* copies may be folded into one event: pcs_fold_allowed() (fold.h) */
  gboolean fold_tied;        /* a folded event's place was not known: the run is redone unfolded (fold.h) */

  PcsSimJob *jobs;    /* the jobs' views: one, or PcsParams.njobs (each reader's job: PcsReader.job) */
  uint32_t njobs;
  PcsReader *readers; /* tasks 0..nreaders-1 */
  uint32_t nreaders, readers_done;
  /* how long readers read (reader.c next_call()): their job's
   * workload.loops passes, or time_based and runtime (PcsSimJob) */
  uint64_t *keep; /* scratch for a file's invalidation: pages held or slept on (reader.c) */

  PcsPageCache pc;
  PcsFrameAlloc alloc;
  PcsBioSet bio;
  PcsBlkQueue blk;
  PcsCsum csum;
  PcsIoTree iotree;
  PcsDevice dev;
  PcsEndio endio;
  PcsLoop loop; /* the loop device's worker, with cost.loop_worker */
  PcsCpus cpu;
};

/* Reader R has finished (reader.c finish()): counts its job down and
 * starts the jobs whose barrier that lifts (sim.c). */
void pcs_sim_reader_done(PcsSim *s, PcsReader *r);
/* The run's file JOB's clones read as their K-th (k < its nrfiles) when
 * they share the named ones (not a clone's own set). */
uint32_t pcs_sim_job_file(const PcsSimJob *job, uint32_t k);

/* Reports one model event to the trace consumer, if any; costs one branch otherwise. */
static inline void pcs_trace(PcsSim *s, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  if (G_UNLIKELY(s->opt.trace)) s->opt.trace(s->opt.trace_user, s->evq.now, thread, kind, a, b);
}

/* pcs_cpu_run() (cpu.c) as the last thing task T does in the handling of
 * its own step event (cpu.inline_task): when T keeps its CPU and the
 * step's end would be the next event popped, the step is dispatched
 * inline (pcs_evq_hold_inline(): the clock is at its end, it counts as an
 * event) and TRUE says T goes on now, as if the loop had popped its
 * event.  The result is that of pushing and popping it: the same events at
 * the same times in the same order.  Inline here, with the common path
 * of pcs_cpu_run(), because it runs at nearly every event. */
/* pcs_cpu_run()'s accounting for reader T, which keeps its CPU
 * (pcs_cpu_keeps()), of a step of COST ns; the caller schedules its end. */
static inline void pcs_cpu_charge_kept(PcsSim *s, uint32_t t, PcsTime cost) {
  s->cpu.tasks[t].cost = cost;
  s->res->thread_cpu_ns[t] += cost;
}

G_ALWAYS_INLINE static inline gboolean pcs_cpu_run_last(PcsSim *s, uint32_t t, PcsTime cost) {
  if (G_UNLIKELY(t != s->cpu.inline_task || !pcs_cpu_keeps(&s->cpu, &s->cpu.tasks[t], s->evq.now))) {
    pcs_cpu_run(s, t, cost);
    return FALSE;
  }
  pcs_cpu_charge_kept(s, t, cost); /* T is a reader: only readers run inline */
  PcsTime end = s->evq.now + cost;
  if (pcs_evq_hold_inline(&s->evq, end)) return TRUE;
  pcs_evq_push(&s->evq, end, PCS_EV_TASK_STEP, t);
  return FALSE;
}

#endif
