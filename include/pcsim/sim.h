/* sim.h - run one simulation: a scenario under one readpages policy.
 *
 * The simulator follows a page from a reader thread (reader.c, the
 * do_generic_file_read() loop) through readahead (readahead.c), the page
 * cache insert race (pagecache.c), bio building (bio.c), plug and elevator
 * (blk.c), the device (device.c) and the btrfs end-io workers (endio.c),
 * with every thread competing for simulated CPUs (cpu.c).  sim.c owns the
 * event loop.
 */
#ifndef PCSIM_SIM_H
#define PCSIM_SIM_H

#include "pcsim/evq.h"
#include "pcsim/params.h"
#include "pcsim/policy.h"

/* What a trace consumer sees.  A and B depend on the kind (page, bio range). */
#define PCS_TRACE_KINDS(X)                                                      \
  X(SYSCALL, "syscall", "read() call starts: a=first page, b=pages")            \
  X(RA_SYNC, "ra_sync", "synchronous readahead: a=window start, b=pages")       \
  X(RA_ASYNC, "ra_async", "asynchronous readahead at a marker: a=start, b=pages") \
  X(INSERT, "add", "add_to_page_cache_lru() won: a=page")                       \
  X(EEXIST, "eexist", "add_to_page_cache_lru() lost (-EEXIST): a=page")         \
  X(READ, "read", "page read set up and added to a bio: a=page")                \
  X(SUBMIT, "submit", "bio submitted: a=first page, b=pages")                   \
  X(SPLIT, "split", "bio split at the request limits: a=first page, b=pages of the front part") \
  X(REQUEST, "request", "bio starts a new request: a=first sector, b=sectors")  \
  X(BACKMERGE, "backmerge", "bio merged at the end of a request: a=first page, b=pages") \
  X(FRONTMERGE, "frontmerge", "bio merged at the start of a request: a=first page, b=pages") \
  X(RQ_INSERT, "rq_insert", "request inserted into the queue: a=first sector, b=sectors") \
  X(DISPATCH, "dispatch", "request sent to the device: a=first sector, b=sectors") \
  X(COMPLETE, "complete", "device completed a request: a=first sector, b=sectors") \
  X(BIO_DONE, "bio_done", "end-io worker finished a bio: a=first page, b=pages") \
  X(WAIT, "wait", "thread sleeps on a locked page: a=page")                     \
  X(COPY, "copy", "page copied to the user buffer: a=page")                     \
  X(FINISH, "finish", "thread read the whole file")

typedef enum {
#define X(name, text, doc) PCS_TRACE_##name,
  PCS_TRACE_KINDS(X)
#undef X
  PCS_TRACE_N
} PcsTraceKind;

const char *pcs_trace_kind_name(PcsTraceKind kind);

#define PCS_NO_THREAD UINT32_MAX
/* THREAD is 1-based for readers, PCS_NO_THREAD for the block layer/device,
 * and threads+1.. for end-io workers. */
typedef void (*PcsTraceFn)(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind,
                           uint64_t a, uint64_t b);

/* Counters of one run.  Everything a report prints is derived from these. */
#define PCS_COUNTERS(X)                                                   \
  X(bios, "bios submitted (blkparse Q)")                                  \
  X(requests, "requests dispatched to the device (blkparse D)")           \
  X(pages_read, "pages read from the device")                             \
  X(eexist, "inserts lost to another thread (-EEXIST)")                   \
  X(ra_sync, "synchronous readahead calls")                               \
  X(ra_async, "asynchronous readahead calls")                             \
  X(fallback_reads, "single-page ->readpage() fallbacks")                 \
  X(waits, "times a thread slept on a locked page")                       \
  X(bytes_returned, "bytes copied to all threads")                        \
  X(sim_time_ns, "simulated time until the last thread finished")         \
  X(events, "events handled")

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
  uint64_t *page_reads;   /* optional: per-page device read count (tests) */
} PcsResult;

typedef struct {
  PcsTraceFn trace;
  void *trace_user;
  gboolean count_page_reads; /* fill PcsResult.page_reads */
  /* Polled every few thousand events; when it becomes non-zero the run stops
   * and pcs_sim_run() fails with PCS_ERROR_CANCELLED (SIGINT, SIGTERM). */
  const volatile int *cancel;
} PcsRunOptions;

/* Estimated cost, for refusing scenarios over limits before running. */
typedef struct {
  uint64_t memory_bytes;
  uint64_t events;
} PcsEstimate;

PcsEstimate pcs_sim_estimate(const PcsParams *p, const PcsPolicy *policy);
gboolean pcs_sim_check_limits(const PcsParams *p, const PcsPolicy *policy, GError **error);

gboolean pcs_sim_run(const PcsParams *p, const PcsPolicy *policy, const PcsRunOptions *opt,
                     PcsResult *out, GError **error);
void pcs_result_clear(PcsResult *r);
/* Pages of the first readahead window a reader opens (get_init_ra_size of one read). */
uint64_t pcs_sim_first_window_pages(const PcsParams *p);

#endif
