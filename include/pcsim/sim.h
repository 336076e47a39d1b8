/* sim.h - run one simulation: a scenario under one readpages policy.
 *
 * The model (sim/model/) is a hub, not a pipeline.  reader.c, the reader
 * thread (do_generic_file_read() under v3.5, filemap_read() under v6.18,
 * one state machine, PCS_READER_STATES), calls the subsystems within its
 * own CPU steps:
 *   readahead.c  ondemand_readahead() / page_cache_sync_ra(): the window's
 *                absent pages, one carrying the PG_readahead marker
 *   pagecache.c  add_to_page_cache_lru(): under tree_lock, the first thread
 *                to insert the index wins, the others get -EEXIST
 *   alloc.c      __page_cache_alloc() -> rmqueue(): the winner's frame
 *   iotree.c     btrfs's io_tree->lock holds of a page's read (v3.5)
 *   bio.c        submit_extent_page(), bio_add_page(): the thread's open
 *                bio; csum.c (btrfs_lookup_bio_sums()) reads a missing
 *                checksum leaf before the bio goes, the thread asleep
 *   blk.c        blk_queue_bio() / blk_mq_submit_bio(), the plug,
 *                bio_split_to_limits(): merge or a new request, and
 *                device.c's dispatch (through loop.c's worker when set)
 *   cpu.c        each step's CPU time, and the event at its end
 * The rest comes back to it as events that sim.c's loop pops (evq.c keeps
 * them in (time, seq) order): device.c completes a request and hands its
 * bios to endio.c; an end-io worker's step (end_bio_extent_readpage())
 * marks the pages up to date and unlocks them, and pagecache.c's wait
 * queue wakes the readers sleeping on them (pcs_reader_wake()), which copy
 * the pages and go on.  pool.c recycles bios and requests, rng.c draws cost
 * jitter.  README.md, "The model", follows one page through it.
 */
#ifndef PCSIM_SIM_H
#define PCSIM_SIM_H

#include "pcsim/lathist.h"
#include "pcsim/params.h"
#include "pcsim/policy.h"

#include <stdint.h>

typedef uint64_t PcsTime; /* simulated nanoseconds */

/* What a trace consumer sees.  A and B depend on the kind (page, bio range). */
#define PCS_TRACE_KINDS(X)                                                      \
  X(SYSCALL, "syscall", "read() call starts: a=first page, b=pages")            \
  X(RA_SYNC, "ra_sync", "synchronous readahead: a=window start, b=pages")       \
  X(RA_ASYNC, "ra_async", "asynchronous readahead at a marker: a=start, b=pages") \
  X(INSERT, "add", "add_to_page_cache_lru() / filemap_add_folio() won: a=page (a folio's first), b=its physical frame (pfn; 0 in the step model), the folio's order in the top byte (PCS_TRACE_ORDER_SHIFT)") \
  X(EEXIST, "eexist", "add_to_page_cache_lru() lost (-EEXIST): a=page")         \
  X(READ, "read", "page read set up and added to a bio: a=page")                \
  X(SUBMIT, "submit", "bio submitted: a=first page, b=pages")                   \
  X(SPLIT, "split", "bio split at the request limits: a=first page, b=pages of the front part") \
  X(REQUEST, "request", "bio starts a new request: a=first sector, b=sectors")  \
  X(BACKMERGE, "backmerge", "bio merged at the end of a request: a=first page, b=pages") \
  X(FRONTMERGE, "frontmerge", "bio merged at the start of a request: a=first page, b=pages") \
  X(RQ_INSERT, "rq_insert", "request inserted into the queue: a=first sector, b=sectors") \
  X(RQ_MERGE, "rq_merge", "request merged at the end of the queued request before it and freed (v3.5 elv_attempt_insert_merge(), attempt_merge()): a=its first sector, b=its sectors") \
  X(DISPATCH, "dispatch", "request sent to the device: a=first sector, b=sectors") \
  X(COMPLETE, "complete", "device completed a request: a=first sector, b=sectors") \
  X(BIO_DONE, "bio_done", "end-io worker finished a bio: a=first page, b=pages") \
  X(WAIT, "wait", "thread sleeps on a locked page: a=page")                     \
  X(RQ_WAIT, "rq_wait", "thread sleeps in get_request_wait(), no free request (v3.5): a=first page, b=pages of its bio") \
  X(CSUM_WAIT, "csum_wait", "thread sleeps in btrfs_lookup_bio_sums() until a checksum leaf is read (bio.csum_leaf_size): a=the leaf's first page on the device (from PCS_META_FIRST_PAGE), b=its pages") \
  X(GATHER, "gather", "v6.18 filemap_get_read_batch(): a=first page, b=folios in the batch (0: none cached)") \
  X(COPY, "copy", "page copied to the user buffer: a=page")                     \
  X(FINISH, "finish", "thread read the whole file")                             \
  X(CPU_OFF, "cpu_off", "thread leaves its CPU (the first half of a sched_switch): a=CPU, b=why (PcsTaskState)") \
  X(CPU_ON, "cpu_on", "thread (PCS_NO_THREAD: none, the CPU idles) gets the CPU: a=CPU") \
  X(WAKE, "wake", "thread (PCS_NO_THREAD: a completion's interrupt) wakes a sleeping one: a=the woken thread, b=the CPU it is queued for (per-CPU run queues; else its last CPU)")

typedef enum {
#define X(name, text, doc) PCS_TRACE_##name,
  PCS_TRACE_KINDS(X)
#undef X
  PCS_TRACE_N
} PcsTraceKind;

/* The trace name of KIND ("add", "submit", ...), from PCS_TRACE_KINDS. */
const char *pcs_trace_kind_name(PcsTraceKind kind);

#define PCS_NO_THREAD UINT32_MAX
/* THREAD is 1-based for readers, and the block layer's events (submit,
 * split, request, merges, rq_insert) carry the reader whose bio or plug they
 * concern; PCS_NO_THREAD only for the device (dispatch, complete), an idle
 * CPU (cpu_on) and an interrupt's wake-up (wake); end-io workers are
 * threads+1.. (bio_done, cpu_off, cpu_on, wake). */

/* Why a task leaves its CPU (cpu_off's b), with the prev_state letter the
 * kernel's sched_switch prints for it. */
#define PCS_TASK_STATES(X)                                                        \
  X(SLEEP, "D", "sleeps on a locked page, for a free request or on a checksum leaf being read (TASK_UNINTERRUPTIBLE)") \
  X(IDLE, "I", "an end-io worker with no bio left, or the loop worker with no request (a kworker's TASK_IDLE)")      \
  X(PREEMPTED, "R+", "used up cpu.slice while another task waits for the CPU, or (cpu.wake_preempt) a woken task took its place (preempted: __trace_sched_switch_state() reports R+)") \
  X(EXIT, "X", "a reader that is done (EXIT_DEAD)")

typedef enum {
#define X(name, letter, doc) PCS_TASK_##name,
  PCS_TASK_STATES(X)
#undef X
  PCS_TASK_STATE_N
} PcsTaskState;

/* The sched_switch prev_state of STATE ("D", "I", "R+", "X"). */
const char *pcs_task_state_letter(PcsTaskState state);
/* PCS_TRACE_INSERT's b: the pfn below this bit, the folio's order above. */
#define PCS_TRACE_ORDER_SHIFT 56
#define PCS_TRACE_PFN_MASK ((UINT64_C(1) << PCS_TRACE_ORDER_SHIFT) - 1)

typedef void (*PcsTraceFn)(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind,
                           uint64_t a, uint64_t b);

/* Counters of one run.  Everything a report prints is derived from these
 * (and the arrays below).  The mechanism counters (inserts .. max_in_flight)
 * are defined as the trace reader defines them on a kernel trace
 * (include/pcsim/ktrace.h), so `pcsim compare` holds like against like. */
#define PCS_COUNTERS(X)                                                   \
  X(bios, "bios submitted (blkparse Q)")                                  \
  X(requests, "requests dispatched to the device (blkparse D)")           \
  X(pages_read, "pages read from the device")                             \
  X(eexist, "inserts lost to another thread (-EEXIST)")                   \
  X(ra_sync, "synchronous readahead calls")                               \
  X(ra_async, "asynchronous readahead calls")                             \
  X(fallback_reads, "single-page ->readpage() fallbacks")                 \
  X(waits, "times a thread slept on a locked page")                       \
  X(reader_switches, "times a reader left its CPU: asleep, slice used up, done (fio's ctx)") \
  X(bytes_returned, "bytes copied to all threads")                        \
  X(sim_time_ns, "simulated time until the last thread finished")         \
  X(events, "events handled")                                             \
  X(inserts, "folios inserted (add_to_page_cache_lru() / filemap_add_folio() won): pages with 4 KiB folios") \
  X(inserted_pages, "pages those folios hold")                             \
  X(page_pairs, "file pages i, i+1 both inserted (all pairs of the file)") \
  X(owner_changes, "of page_pairs, inserted by different threads")        \
  X(contiguous_pairs, "of page_pairs, in adjacent frames (alloc.c)")      \
  X(device_ns, "sum over requests of dispatch -> complete time")          \
  X(max_in_flight, "most requests dispatched and not yet completed")                   \
  X(csum_reads, "checksum leaves read from the device (metadata requests, bio.csum_leaf_size)")

/* Device latency histogram buckets, as the trace reader's
 * (PCS_KTRACE_LATENCY_BUCKETS): bucket 0 counts times under 2 us, bucket
 * k >= 1 times in [2^k, 2^(k+1)) us, the last one everything longer. */
#define PCS_LATENCY_BUCKETS 24

/* The histogram bucket of a service time of NS nanoseconds. */
static inline uint32_t pcs_latency_bucket(uint64_t ns) {
  uint64_t us = ns / 1000;
  if (us < 2) return 0;
  uint32_t k = 63u - (uint32_t)__builtin_clzll(us); /* floor(log2(us)) */
  return k < PCS_LATENCY_BUCKETS - 1 ? k : PCS_LATENCY_BUCKETS - 1;
}

/* One job's own figures, with several jobs (PcsParams.jobs): its clones
 * are threads [first, first + clones). */
typedef struct {
  char *name;
  uint32_t first, clones, group;
  uint64_t bytes;             /* bytes returned to its clones */
  uint64_t start_ns, done_ns; /* its first clone's start, its last clone's last byte */
} PcsJobResult;

typedef struct {
  PcsPolicy policy;
  uint32_t threads;
  uint64_t file_bytes;
#define X(name, doc) uint64_t name;
  PCS_COUNTERS(X)
#undef X
  uint64_t *bio_pages_hist; /* [pages] -> bios; hist_len = max bio pages + 1 */
  uint32_t hist_len;
  uint64_t *thread_bytes; /* bytes returned to each thread */
  uint64_t *thread_done_ns; /* when each thread read its last byte */
  uint64_t *thread_start_ns; /* when each thread started: 0, or the end of a barrier (fio stonewall, wait_for) */
  uint64_t *page_reads;   /* optional: per-page device read count (tests) */
  uint64_t *thread_inserts; /* pages each thread inserted, by thread */
  uint32_t *insert_order;   /* threads in the order of their first insert */
  uint32_t insert_threads;  /* entries of insert_order: threads that inserted */
  uint64_t latency_us_hist[PCS_LATENCY_BUCKETS]; /* requests by dispatch -> complete time */
  /* Every read() call's latency, from its start (trace "syscall") to the
   * end of its last page copy, over all readers (fio's clat with
   * group_reporting); thread_read_lat[] per reader, only when
   * PcsRunOptions.thread_latency asked for it (else NULL). */
  PcsLatHist read_lat;
  PcsLatHist *thread_read_lat;
  PcsLatHist *job_read_lat; /* with several jobs (PcsParams.jobs): each job's read() latencies, else NULL */
  PcsJobResult *jobs;       /* with several jobs: each job's figures (job_read_lat[j] its latencies), else NULL */
  uint32_t njobs;
  uint64_t *thread_cpu_ns; /* CPU time each reader ran (cpu.c steps, jitter and lock spinning included) */
  uint64_t reader_cpu_ns;  /* the sum of thread_cpu_ns */
  uint64_t *thread_switches; /* times each reader left its CPU (fio's ctx: its context switches); summed in reader_switches */
  uint64_t device_busy_ns; /* time with at least one request dispatched and not completed (diskstats io_ticks) */
  /* how the run was simulated, not what it simulated (--stats; not in the reports) */
  uint64_t folded_steps; /* copy steps folded into the event of the copy before them (sim/model/fold.h) */
  gboolean fold_redone;  /* a folded event's place was not known: the run was redone unfolded (sim/model/fold.h) */
} PcsResult;

/* Files one read() call of THREAD (0-based), a clone of JOB (0 with one job), that took NS. */
static inline void pcs_result_read_done(PcsResult *r, uint32_t thread, uint32_t job, uint64_t ns) {
  pcs_lathist_add(&r->read_lat, ns);
  if (r->thread_read_lat) pcs_lathist_add(&r->thread_read_lat[thread], ns);
  if (r->job_read_lat) pcs_lathist_add(&r->job_read_lat[job], ns);
}

typedef struct {
  PcsTraceFn trace;
  void *trace_user;
  gboolean count_page_reads; /* fill PcsResult.page_reads */
  gboolean thread_latency;   /* fill PcsResult.thread_read_lat */
  /* Run every CPU step as an event of its own: no copies folded into one
   * event (sim/model/fold.h).  The same output, slower: the reference the
   * folded run is tested against (tests/test_fold.c, pcsim run --no-fold). */
  gboolean no_fold;
  /* Called every few thousand events with the events so far (progress
   * lines); may be NULL. */
  void (*progress)(void *user, uint64_t events, PcsTime now);
  void *progress_user;
  /* Polled every few thousand events; when it becomes non-zero the run stops
   * and pcs_sim_run() fails with PCS_ERROR_CANCELLED (SIGINT, SIGTERM). */
  const volatile int *cancel;
} PcsRunOptions;

/* Estimated cost, for refusing scenarios over limits before running. */
typedef struct {
  uint64_t memory_bytes;
  uint64_t events;
} PcsEstimate;

/* Memory and events of running P under POLICY, from sizes alone (no run):
 * the page array, each reader's list and policy-sized pool; events per page,
 * per read() call and per bio, bios from the pages POLICY can be counted on
 * to put in one.  An overestimate by design. */
PcsEstimate pcs_sim_estimate(const PcsParams *p, const PcsPolicy *policy);
/* FALSE with PCS_ERROR_LIMIT when the estimate is over limits.max_memory or
 * limits.max_events, PCS_ERROR_INPUT when POLICY pools more pages than the file has. */
gboolean pcs_sim_check_limits(const PcsParams *p, const PcsPolicy *policy, GError **error);

/* Validates P, checks the limits, runs P under POLICY to the end and fills
 * OUT (clear it with pcs_result_clear()).  OPT may be NULL.  On FALSE, OUT
 * holds nothing to free. */
gboolean pcs_sim_run(const PcsParams *p, const PcsPolicy *policy, const PcsRunOptions *opt,
                     PcsResult *out, GError **error);
/* Frees what pcs_sim_run() allocated in R. */
void pcs_result_clear(PcsResult *r);
/* Pages of the first readahead window a reader opens (get_init_ra_size of one read). */
uint64_t pcs_sim_first_window_pages(const PcsParams *p);

#endif
