/* sim.c - one run: build the model, run the event loop, tear it down.
 *
 * The event loop pops the events, with one shortcut: a reader's step
 * event is handed to pcs_reader_steps() (reader.c), which pops the events
 * after it itself while they are reader steps and returns the first other
 * one (or one at which the loop polls) to the loop.  A reader's step that
 * would be the next event popped runs inline, without a push and a pop
 * (pcs_cpu_run_last(), internal.h).  Only the queue moves the clock, in
 * those pops and inline steps (evq.h).  Two kinds of event exist: a task's
 * CPU step has run (reader.c or endio.c decides what it meant), and the
 * device finished a request (device.c).  Everything else happens at the
 * instant of one of these.
 * At the end every reader must have finished, and no event, bio, request,
 * sleeper or queued work may be left: teardown asserts it, as libuv's
 * uv_loop_close() refuses to close a loop with live handles.
 *
 * Several jobs (PcsParams.jobs, fio job sections read differently): each
 * job's view of the keys it reads with on its own (PcsSimJob, jobs_init());
 * its clones are the readers after the jobs before it.  A job behind a
 * barrier (stonewall, wait_for) starts when the last clone it waits for
 * finishes (pcs_sim_reader_done()), not at time 0.
 *
 * sim_init() builds each module's state in the order a page travels
 * through them: reader.c, readahead.c, pagecache.c, alloc.c, bio.c, blk.c,
 * csum.c, device.c, endio.c (include/pcsim/sim.h draws the hub: reader.c
 * calls each subsystem, events and wake-ups come back to it).
 */
#include "internal.h"
#include "fold.h"

#include <math.h>
#include <string.h>

static const char *const trace_names[] = {
#define X(name, text, doc) text,
  PCS_TRACE_KINDS(X)
#undef X
};

const char *pcs_trace_kind_name(PcsTraceKind kind) { return trace_names[kind]; }

static const char *const task_state_letters[] = {
#define X(name, letter, doc) letter,
  PCS_TASK_STATES(X)
#undef X
};

const char *pcs_task_state_letter(PcsTaskState state) { return task_state_letters[state]; }

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Pages per bio POLICY can be counted on to build.  A lone reader's pages
 * are contiguous, so its bios end with the readahead window; racing readers
 * interleave their inserts, and a bio is then only sure to hold what one
 * thread pools: a page under immediate, N under pool:N, a window under
 * window.  (The shipped workloads measure 2 pages per bio under immediate,
 * 16 to 30 under pool:16.)  Low on purpose: fewer pages, more bios. */
static uint64_t est_bio_pages(const PcsParams *p, const PcsPolicy *policy) {
  uint64_t window = pcs_params_window_bytes(p) / PCS_PAGE_SIZE;
  uint64_t pages = p->workload_threads == 1 || !policy->pool ? window : MIN(policy->pool, window);
  return MAX(1, MIN(pages, pcs_bio_max_pages(p)));
}

/* Passes each thread makes over its file: workload.loops, or under
 * time_based as many as workload.runtime holds at the pace of the device
 * (each pass reads the file from it again) or of one thread's copies,
 * whichever is slower: a pass takes at least that long, so the run makes no
 * more.  A runtime without time_based only cuts the loops short. */
static double est_passes(const PcsParams *p, uint64_t cached, uint64_t npages, uint64_t calls) {
  if (!p->workload_time_based) return (double)p->workload_loops;
  double device_ns = (double)cached * PCS_PAGE_SIZE / (double)p->device_bandwidth * PCS_NS_PER_S;
  double cpu_ns = (double)npages * (double)p->cost_copy + (double)calls * (double)(p->cost_syscall + p->cost_fio_user);
  return ceil((double)p->workload_runtime / MAX(MAX(device_ns, cpu_ns), 1.0));
}

/* Several jobs: the sum of each job's estimate as a run of its own (its
 * clones alone; a shared file's pages are counted once per job: over). */
static PcsEstimate jobs_estimate(const PcsParams *p, const PcsPolicy *policy) {
  PcsEstimate sum = {0, 0};
  for (uint32_t j = 0; j < p->njobs; j++) {
    PcsParams view;
    if (!pcs_params_job_view(p, j, &view, NULL)) continue; /* pcs_params_validate() reports it */
    PcsEstimate e = pcs_sim_estimate(&view, policy);
    pcs_params_clear(&view);
    sum.memory_bytes += e.memory_bytes;
    sum.events = e.events > UINT64_MAX - sum.events ? UINT64_MAX : sum.events + e.events;
  }
  return sum;
}

PcsEstimate pcs_sim_estimate(const PcsParams *p, const PcsPolicy *policy) {
  if (p->jobs) return jobs_estimate(p, policy);
  /* what one thread reads: workload.nrfiles files */
  uint64_t npages = ceil_div(p->workload_file_size, PCS_PAGE_SIZE) * p->workload_nrfiles;
  uint64_t calls = ceil_div(p->workload_file_size, p->workload_block_size) * p->workload_nrfiles;
  /* per-thread files: every thread's files are read from the device */
  uint64_t cached = ceil_div(p->workload_file_size, PCS_PAGE_SIZE) * pcs_params_nfiles(p);
  uint64_t bios = ceil_div(cached, est_bio_pages(p, policy));
  PcsEstimate e;
  /* one byte per page (three more over 16 threads: the inserting thread,
   * pagecache.h), each reader's list and policy-sized pool, a fixed part
   * for the bio and request pools and the event queue */
  uint64_t page_bytes = p->workload_threads > PCS_PG_OWNER_TASKS ? 3 : 1;
  uint64_t files = pcs_params_nfiles(p);
  e.memory_bytes = (cached + p->workload_offset / PCS_PAGE_SIZE * files) * page_bytes + /* pages before the offset too */ p->workload_threads * (pcs_reader_bytes(p, policy) + 256) +
                   (uint64_t)PCS_KIB * PCS_KIB;
  /* per thread: a copy per page and a syscall per call; per page read: an
   * insert, a read, a completion share, lost inserts by the other threads;
   * per bio: its submit step, its end-io step and at most one request */
  double pass_events = (double)(p->workload_threads * (npages + calls) + cached * (2 + p->workload_threads) + 3 * bios);
  double events = pass_events * est_passes(p, cached, npages, calls);
  e.events = events >= 0x1p63 ? UINT64_MAX : (uint64_t)events;
  return e;
}

gboolean pcs_sim_check_limits(const PcsParams *p, const PcsPolicy *policy, GError **error) {
  PcsEstimate e = pcs_sim_estimate(p, policy);
  const char *src = p->source ? p->source : "scenario";
  if (e.memory_bytes > p->limits_max_memory) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "%s: needs about %" G_GUINT64_FORMAT " MiB of memory, over limits.max_memory (%"
                G_GUINT64_FORMAT " MiB); raise it with --set limits.max_memory=SIZE",
                src, e.memory_bytes / (PCS_KIB * PCS_KIB), p->limits_max_memory / (PCS_KIB * PCS_KIB));
    return FALSE;
  }
  if (e.events > p->limits_max_events) {
    g_set_error(error, PCS_ERROR, PCS_ERROR_LIMIT,
                "%s: needs about %" G_GUINT64_FORMAT " events, over limits.max_events (%"
                G_GUINT64_FORMAT "); raise it with --set limits.max_events=N",
                src, e.events, p->limits_max_events);
    return FALSE;
  }
  if (policy->pool > p->workload_file_size / PCS_PAGE_SIZE) {
    g_autofree char *at = pcs_params_where(p, "workload.file_size");
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                "%s: policy %s pools more pages (%u) than workload.file_size has (%" G_GUINT64_FORMAT ")",
                at, policy->name, policy->pool, p->workload_file_size / PCS_PAGE_SIZE);
    return FALSE;
  }
  for (uint32_t j = 0; j < p->njobs; j++) { /* each job's own size */
    PcsParams view;
    if (!pcs_params_job_view(p, j, &view, NULL)) continue; /* pcs_params_validate() reports it */
    gboolean ok = pcs_sim_check_limits(&view, policy, error);
    if (!ok) g_prefix_error(error, "job '%s': ", p->jobs[j].name);
    pcs_params_clear(&view);
    if (!ok) return FALSE;
  }
  return TRUE;
}

/* JOB's keys as its readers use them (P: the job's view, or the run's). */
static void job_fill(PcsSimJob *job, const PcsParams *p, uint32_t first, uint32_t clones) {
  job->p = p;
  job->block_pages = p->workload_block_size / PCS_PAGE_SIZE;
  job->window_pages = pcs_params_window_bytes(p) / PCS_PAGE_SIZE;
  job->randread = pcs_params_randread(p);
  job->fmode_random = pcs_params_fmode_random(p);
  int seed_mode;
  uint64_t seed;
  pcs_params_random_seed(p, &seed_mode, &seed);
  job->rand_reseed = seed_mode == 0; /* randseed sets fio's rand_repeatable to 0 (init.c fixup_options()) */
  job->offset_pages = p->workload_offset / PCS_PAGE_SIZE;
  job->size_pages = ceil_div(p->workload_file_size, PCS_PAGE_SIZE); /* the last page may be partial */
  job->file_pages = job->offset_pages + job->size_pages; /* fio lays the file out to offset + size */
  job->loops = p->workload_loops;
  job->time_based = p->workload_time_based != 0;
  job->runtime = p->workload_runtime;
  job->first = first, job->clones = job->left = clones;
  job->nrfiles = (uint32_t)p->workload_nrfiles;
  pcs_params_file_service(p, &job->fservice, &job->fservice_nr);
  job->openfiles = p->workload_openfiles && p->workload_openfiles < job->nrfiles ? (uint32_t)p->workload_openfiles
                                                                                 : job->nrfiles; /* init.c fixup_options() */
}

/* Job JOB's clones read files of their own (per-thread files, or a job
 * without filename= beside named ones). */
static gboolean job_owns_files(const PcsSim *s, const PcsSimJob *job) {
  return s->per_thread_files || job->file == PCS_JOB_OWN_FILE;
}

/* The run's jobs: one, the scenario itself, or each of P->jobs with its
 * own view (pcs_params_validate() has checked them). */
static void jobs_init(PcsSim *s, const PcsParams *p) {
  s->njobs = p->jobs ? p->njobs : 1;
  s->jobs = g_new0(PcsSimJob, s->njobs);
  if (!p->jobs) return job_fill(&s->jobs[0], p, 0, (uint32_t)p->workload_threads);
  uint32_t first = 0;
  for (uint32_t j = 0; j < s->njobs; j++) {
    PcsSimJob *job = &s->jobs[j];
    gboolean ok = pcs_params_job_view(p, j, &job->view, NULL);
    g_assert(ok);
    job_fill(job, &job->view, first, (uint32_t)p->jobs[j].clones);
    job->spec = &p->jobs[j];
    job->file = p->jobs[j].file;
    first += job->clones;
  }
}

/* The named files, then each clone's own set after them, job by job
 * (per-thread files: reader 0's set first). */
static void jobs_layout(PcsSim *s) {
  uint32_t next = (uint32_t)pcs_params_named_files(s->p);
  for (uint32_t j = 0; j < s->njobs; j++)
    if (job_owns_files(s, &s->jobs[j])) s->jobs[j].own_first = next, next += s->jobs[j].clones * s->jobs[j].nrfiles;
  s->nfiles = next;
}

/* Each file's end: a shared file is laid out to the largest offset + size
 * of the jobs that read it (fio's setup_files() extends it for each), a
 * clone's own to its job's. */
static void jobs_eof(PcsSim *s) {
  s->file_eof = g_new0(uint64_t, s->nfiles);
  for (uint32_t j = 0; j < s->njobs; j++) {
    const PcsSimJob *job = &s->jobs[j];
    if (job_owns_files(s, job))
      for (uint32_t f = job->own_first; f < job->own_first + job->clones * job->nrfiles; f++) s->file_eof[f] = job->file_pages;
    else
      for (uint32_t k = 0; k < job->nrfiles; k++) {
        uint32_t f = pcs_sim_job_file(job, k);
        s->file_eof[f] = MAX(s->file_eof[f], job->file_pages);
      }
  }
}

uint32_t pcs_sim_job_file(const PcsSimJob *job, uint32_t k) {
  return job->spec ? pcs_params_job_file(job->spec, k) : job->file + k;
}

/* Job J may start: it has no barrier, or what it waits for has finished
 * (fio's stonewall: every job before it; wait_for: the one it names). */
static gboolean job_ready(const PcsSim *s, uint32_t j) {
  if (!s->p->jobs) return TRUE;
  const PcsJobSpec *spec = &s->p->jobs[j];
  for (uint32_t k = 0; k < spec->after; k++)
    if (s->jobs[k].left) return FALSE;
  return spec->wait_for == PCS_JOB_NONE || !s->jobs[spec->wait_for].left;
}

/* Starts every job not started yet whose barrier has fallen, at now (fio
 * starts a job behind a stonewall when the jobs before it have exited). */
static void jobs_start(PcsSim *s) {
  for (uint32_t j = 0; j < s->njobs; j++) {
    PcsSimJob *job = &s->jobs[j];
    if (job->started || !job_ready(s, j)) continue;
    job->started = TRUE;
    job->stop_at = job->runtime ? s->evq.now + job->runtime : 0; /* fio: runtime from the job's own start */
    for (uint32_t i = job->first; i < job->first + job->clones; i++) {
      s->res->thread_start_ns[i] = s->evq.now;
      pcs_reader_start(s, &s->readers[i]);
    }
  }
}

void pcs_sim_reader_done(PcsSim *s, PcsReader *r) {
  PcsSimJob *job = &s->jobs[r->job - s->jobs];
  if (--job->left == 0 && s->njobs > 1) jobs_start(s);
}

/* The bytes of whole pages the jobs read of every file: a shared file
 * from the lowest offset of its jobs to its end, a reader's own its job's
 * size. */
static uint64_t file_bytes(const PcsSim *s) {
  g_autofree uint64_t *lo = g_new(uint64_t, s->nfiles); /* a shared file's lowest offset */
  for (uint32_t f = 0; f < s->nfiles; f++) lo[f] = UINT64_MAX;
  uint64_t pages = 0;
  for (uint32_t j = 0; j < s->njobs; j++) {
    const PcsSimJob *job = &s->jobs[j];
    if (job_owns_files(s, job)) {
      pages += (uint64_t)job->clones * job->nrfiles * job->size_pages;
      continue;
    }
    for (uint32_t k = 0; k < job->nrfiles; k++) {
      uint32_t f = pcs_sim_job_file(job, k);
      lo[f] = MIN(lo[f], job->offset_pages);
    }
  }
  for (uint32_t f = 0; f < s->nfiles; f++)
    if (lo[f] != UINT64_MAX) pages += s->file_eof[f] - lo[f];
  return pages * PCS_PAGE_SIZE;
}

static void sim_init(PcsSim *s, const PcsParams *p, const PcsPolicy *policy, const PcsRunOptions *opt,
                     PcsResult *res) {
  memset(s, 0, sizeof *s);
  s->p = p;
  s->policy = *policy;
  if (opt) s->opt = *opt;
  s->res = res;
  s->kernel = pcs_params_kernel(p);
  s->max_folio_order = (uint32_t)p->readahead_max_folio_order;
  s->endio_inline = pcs_params_filesystem(p) != PCS_FS_BTRFS;
  /* bdi->io_pages: bdi_alloc()'s VM_READAHEAD_PAGES for btrfs's own bdi, the
   * queue's max_sectors for a block device's (blk_apply_bdi_limits()) */
  s->bdi_io_pages = s->endio_inline ? p->block_max_sectors / PCS_SECTORS_PER_PAGE : PCS_RA_BTRFS_IO_PAGES;
  s->copy_cold = p->cost_copy_cold != 0 && pcs_params_filesystem(p) == PCS_FS_BTRFS; /* btrfs's end-io reads the data (endio.c) */
  /* free page reporting: a large folio of the order takes a whole reported block */
  s->reported_pages = p->cost_touch_reported && p->memory_reported_order && p->readahead_max_folio_order >= p->memory_reported_order
                          ? UINT64_C(1) << p->memory_reported_order
                          : 0;
  /* and a page of its own frame (4 KiB folios, the order-0 fallback) when the per-CPU lists carved it from such a block (alloc.c) */
  s->cold_order = p->cost_touch_reported && p->memory_reported_order && p->memory_contiguous ? (uint32_t)p->memory_reported_order : 0;
  s->per_thread_files = pcs_params_files(p) == PCS_FILES_PER_THREAD;
  jobs_init(s, p);
  jobs_layout(s);
  g_assert(s->nfiles == pcs_params_nfiles(p)); /* the layout's count, as estimates and validation count it */
  s->fold = pcs_fold_allowed(p, &s->opt); /* copies folded into one event (fold.h) */
  uint64_t block_pages = 0;
  for (uint32_t j = 0; j < s->njobs; j++) {
    block_pages = MAX(block_pages, s->jobs[j].block_pages);
    /* each file as large as the largest offset + size of a job reading it
     * (a file of a reader's own: a slot that large, its end its job's) */
    s->file_pages = MAX(s->file_pages, s->jobs[j].file_pages);
    s->fold &= s->jobs[j].loops == 1 && !s->jobs[j].time_based; /* fold.h: a next pass invalidates under the other readers */
  }
  jobs_eof(s);
  s->npages = s->file_pages * s->nfiles;
  s->nreaders = (uint32_t)p->workload_threads;
  /* each reader's pos, or under v6.18 the folio_batch it holds (at most
   * PCS_FOLIO_BATCH pages from pos), and each sleeper's page */
  uint64_t batch_pages = s->max_folio_order ? MAX(PCS_FOLIO_BATCH, block_pages) : PCS_FOLIO_BATCH; /* folios: to the call's end */
  size_t parked = 0; /* and io_uring's parked reads' folios (reader.c invalidate_file()) */
  for (uint32_t j = 0; j < s->njobs; j++)
    if (pcs_engine_kind(s->jobs[j].p) == PCS_ENGINE_URING) parked += (size_t)s->jobs[j].clones * s->jobs[j].p->workload_iodepth;
  s->keep = g_new(uint64_t, (batch_pages + 1) * (size_t)s->nreaders + parked);
  uint32_t nworkers = (uint32_t)p->cpu_endio_workers;

  /* each module's state, in the order a page travels */
  s->readers = g_new(PcsReader, s->nreaders);
  for (uint32_t j = 0; j < s->njobs; j++)
    for (uint32_t i = s->jobs[j].first; i < s->jobs[j].first + s->jobs[j].clones; i++)
      pcs_reader_init(s, &s->readers[i], i, &s->jobs[j]);
  if (s->max_folio_order) { /* page_cache_ra_order()'s folios: at most a list's worth */
    for (uint32_t i = 0; i < s->nreaders; i++) s->ra_folios.cap = MAX(s->ra_folios.cap, s->readers[i].list.cap);
    s->ra_folios.folios = g_new(PcsRaFolio, s->ra_folios.cap);
  }
  pcs_pc_init(&s->pc, s->npages, s->nreaders, p->cost_tree_lock_hold);
  s->pc.file_pages = s->file_pages; /* owner and frame pairs never span two files */
  s->pc.unaligned_files = s->file_pages % (UINT64_C(1) << s->max_folio_order) != 0; /* folios align in their file */
  if (s->cold_order) pcs_pc_track_cold(&s->pc);
  pcs_alloc_init(&s->alloc, p, s->nreaders, s->npages);
  pcs_blk_init(&s->blk, p, s->nreaders);
  pcs_csum_init(&s->csum, p, s->nreaders, s->file_pages, s->npages / s->file_pages);
  pcs_iotree_init(&s->iotree, p);
  pcs_bioset_init(&s->bio, p);
  pcs_dev_init(&s->dev, p);
  gboolean meta = p->bio_csum_leaf_size != 0; /* checksum leaves' reads complete on a worker of their own */
  pcs_endio_init(&s->endio, s->nreaders, nworkers, meta, (uint32_t)p->cpu_endio_idle_thresh);
  pcs_loop_init(&s->loop, p, s->nreaders + nworkers + meta); /* the last task, if any */
  pcs_cpu_init(&s->cpu, p, s->nreaders + nworkers + meta + pcs_loop_on(&s->loop));
  pcs_evq_init(&s->evq, s->cpu.ntasks + p->device_queue_depth + 16);

  res->policy = *policy;
  res->threads = s->nreaders;
  res->file_bytes = file_bytes(s); /* pages read of every file */
  res->hist_len = (uint32_t)s->bio.max_pages + 1;
  res->bio_pages_hist = g_new0(uint64_t, res->hist_len);
  res->thread_bytes = g_new0(uint64_t, s->nreaders);
  res->thread_done_ns = g_new0(uint64_t, s->nreaders);
  res->thread_start_ns = g_new0(uint64_t, s->nreaders);
  if (p->jobs) res->job_read_lat = g_new0(PcsLatHist, s->njobs);
  res->thread_inserts = g_new0(uint64_t, s->nreaders);
  res->insert_order = g_new0(uint32_t, s->nreaders);
  if (s->opt.count_page_reads) res->page_reads = g_new0(uint64_t, s->npages);
  if (s->opt.thread_latency) res->thread_read_lat = g_new0(PcsLatHist, s->nreaders);
  res->thread_cpu_ns = g_new0(uint64_t, s->nreaders);
  res->thread_switches = g_new0(uint64_t, s->nreaders);
}

/* Teardown checks: nothing may be left behind. */
static void sim_check_drained(PcsSim *s) {
  g_assert(s->readers_done == s->nreaders);
  g_assert(pcs_evq_pending(&s->evq) == 0);
  g_assert(s->bio.pool.live == 0 && s->blk.requests.live == 0);
  g_assert(s->pc.n_sleepers == 0 && s->blk.elv_len == 0 && s->dev.in_service == 0);
  g_assert(s->endio.head == PCS_NONE && pcs_endio_drained(&s->endio) && s->endio.meta_head == PCS_NONE && s->endio.split.n == 0 && s->cpu.runq_len == 0);
  for (uint32_t c = 0; c < s->cpu.ncpus; c++) g_assert(s->cpu.cpuq_len[c] == 0);
  g_assert(s->cpu.cpus_free == s->p->cpu_count);
}

static void sim_clear(PcsSim *s) {
  for (uint32_t i = 0; i < s->nreaders; i++) pcs_reader_clear(&s->readers[i]);
  g_free(s->readers);
  for (uint32_t j = 0; s->jobs && j < s->njobs; j++)
    if (s->jobs[j].p == &s->jobs[j].view) pcs_params_clear(&s->jobs[j].view);
  g_free(s->jobs);
  g_free(s->keep);
  g_free(s->file_eof);
  g_free(s->ra_folios.folios);
  pcs_pc_clear(&s->pc);
  pcs_alloc_clear(&s->alloc);
  pcs_blk_clear(&s->blk);
  pcs_csum_clear(&s->csum);
  pcs_bioset_clear(&s->bio);
  pcs_dev_clear(&s->dev);
  pcs_endio_clear(&s->endio);
  pcs_loop_clear(&s->loop);
  pcs_cpu_clear(&s->cpu);
  pcs_evq_clear(&s->evq);
}

/* Returns FALSE when opt.cancel stopped the run early. */
static gboolean sim_loop(PcsSim *s) {
  jobs_start(s);
  PcsEvent ev;
  const volatile int *cancel = s->opt.cancel;
  gboolean more = pcs_evq_pop(&s->evq, &ev);
  while (more) {
    if (G_UNLIKELY(pcs_evq_poll_due(&s->evq))) { /* every 4096 events: off the hot path */
      pcs_evq_polled(&s->evq);
      if (cancel && g_atomic_int_get(cancel)) return FALSE;
      if (s->fold_tied) return TRUE; /* the run is redone unfolded (pcs_sim_run()) */
      if (s->opt.progress) s->opt.progress(s->opt.progress_user, s->evq.popped, s->evq.now);
    }
    switch (ev.kind) {
    case PCS_EV_TASK_STEP:
      if (ev.arg < s->nreaders) {
        more = pcs_reader_steps(s, &ev); /* pops the next event itself */
        continue;
      }
      if (ev.arg == s->loop.task)
        pcs_loop_step(s);
      else
        pcs_endio_step(s, &s->endio.workers[ev.arg - s->nreaders]);
      break;
    case PCS_EV_DEVICE_DONE:
      pcs_dev_complete(s, ev.arg);
      break;
    default:
      g_assert_not_reached();
    }
    more = pcs_evq_pop(&s->evq, &ev);
  }
  return TRUE;
}

/* Each job's figures, from its clones' (several jobs). */
static void jobs_result(const PcsSim *s, PcsResult *out) {
  out->njobs = s->njobs;
  out->jobs = g_new0(PcsJobResult, s->njobs);
  for (uint32_t j = 0; j < s->njobs; j++) {
    const PcsSimJob *job = &s->jobs[j];
    PcsJobResult *jr = &out->jobs[j];
    jr->name = g_strdup(s->p->jobs[j].name);
    jr->first = job->first, jr->clones = job->clones, jr->group = s->p->jobs[j].group;
    jr->start_ns = UINT64_MAX;
    for (uint32_t i = job->first; i < job->first + job->clones; i++) {
      jr->bytes += out->thread_bytes[i];
      jr->start_ns = MIN(jr->start_ns, out->thread_start_ns[i]);
      jr->done_ns = MAX(jr->done_ns, out->thread_done_ns[i]);
    }
  }
}

gboolean pcs_sim_run(const PcsParams *p, const PcsPolicy *policy, const PcsRunOptions *opt,
                     PcsResult *out, GError **error) {
  memset(out, 0, sizeof *out);
  if (!pcs_params_validate(p, error) || !pcs_sim_check_limits(p, policy, error)) return FALSE;
  PcsSim s;
  sim_init(&s, p, policy, opt, out);
  gboolean done = sim_loop(&s);
  if (done && s.fold_tied) { /* a folded event's place was not known (fold.h): run it again unfolded */
    PcsRunOptions unfolded = s.opt;
    unfolded.no_fold = TRUE;
    sim_clear(&s);
    pcs_result_clear(out);
    memset(out, 0, sizeof *out);
    sim_init(&s, p, policy, &unfolded, out);
    out->fold_redone = TRUE;
    done = sim_loop(&s);
  }
  if (!done) {
    sim_clear(&s);
    pcs_result_clear(out);
    g_set_error(error, PCS_ERROR, PCS_ERROR_CANCELLED, "interrupted");
    return FALSE;
  }
  sim_check_drained(&s);
  for (uint32_t i = 0; i < s.nreaders; i++) {
    out->sim_time_ns = MAX(out->sim_time_ns, s.readers[i].done_at);
    out->bytes_returned += out->thread_bytes[i];
    out->thread_done_ns[i] = s.readers[i].done_at;
    out->reader_cpu_ns += out->thread_cpu_ns[i];
    out->reader_switches += out->thread_switches[i];
  }
  if (p->jobs) jobs_result(&s, out);
  out->events = s.evq.popped;
  pcs_pc_count_pairs(&s.pc, &out->page_pairs, &out->owner_changes, &out->contiguous_pairs);
  sim_clear(&s);
  return TRUE;
}

void pcs_result_clear(PcsResult *r) {
  g_clear_pointer(&r->bio_pages_hist, g_free);
  g_clear_pointer(&r->thread_bytes, g_free);
  g_clear_pointer(&r->thread_done_ns, g_free);
  g_clear_pointer(&r->thread_start_ns, g_free);
  g_clear_pointer(&r->job_read_lat, g_free);
  for (uint32_t j = 0; r->jobs && j < r->njobs; j++) g_free(r->jobs[j].name);
  g_clear_pointer(&r->jobs, g_free);
  r->njobs = 0;
  g_clear_pointer(&r->page_reads, g_free);
  g_clear_pointer(&r->thread_inserts, g_free);
  g_clear_pointer(&r->insert_order, g_free);
  g_clear_pointer(&r->thread_read_lat, g_free);
  g_clear_pointer(&r->thread_cpu_ns, g_free);
  g_clear_pointer(&r->thread_switches, g_free);
}

uint64_t pcs_sim_first_window_pages(const PcsParams *p) {
  return pcs_ra_init_size(p->workload_block_size / PCS_PAGE_SIZE, pcs_params_window_bytes(p) / PCS_PAGE_SIZE);
}
