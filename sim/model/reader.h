/* reader.h - one fio reader thread: the read() loop and ->readpages (see reader.c). */
#ifndef PCSIM_MODEL_READER_H
#define PCSIM_MODEL_READER_H

#include "evq.h"
#include "pcsim/params.h"
#include "pcsim/policy.h"
#include "pcsim/units.h"
#include "engine.h"
#include "fiorand.h"
#include "readahead.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;
typedef struct PcsSimJob PcsSimJob;

/* Where a reader goes on when it next runs (reader.c).  States of
 * do_generic_file_read() (v3.5) first, then of filemap_read() (v6.18,
 * the BATCH_ and GATHER states), then of extent_readpages(), each in the
 * order a page meets them.  A state either decides at once and names the
 * next, or charges CPU (cpu.c) and names the state to go on in when that
 * time has run, or sleeps. */
#define PCS_READER_STATES(X)                                                                       \
  X(FIND_PAGE, "look up pos (a call boundary first: next read() or finish); a miss: SYNC_RA; "   \
               "PG_readahead: ASYNC_RA (after cost.ra_marker); locked: sleep; else charge cost.copy, then COPIED") \
  X(SYNC_RA, "page_cache_sync_readahead(), then its ->readpages (RP_NEXT) or FIND_PAGE_AGAIN")   \
  X(FIND_PAGE_AGAIN, "as FIND_PAGE after readahead, ->readpage or a wake; a miss: NO_CACHED_PAGE") \
  X(NO_CACHED_PAGE, "no_cached_page: ->readpage() of pos alone, unplugged (RP_NEXT)")            \
  X(ASYNC_RA, "clear pos's mark, page_cache_async_readahead(), then its ->readpages (RP_NEXT) or FIND_PAGE_AGAIN") \
  X(SLEEPING, "asleep on pos until end-io unlocks it; woken: a CPU first, then FIND_PAGE_AGAIN (cpu.wake_exclusive: charge cost.wakeup, then PAGE_LOCKED)") \
  X(PAGE_LOCKED, "cpu.wake_exclusive: holds pos's page lock; unlock_page() wakes the next sleeper, then FIND_PAGE_AGAIN") \
  X(COPIED, "pos copied to the user buffer: account it, then look up the next page as FIND_PAGE") \
  X(GATHER, "v6.18 filemap_get_pages(): a call boundary first; filemap_get_read_batch() from pos; "  \
            "none: SYNC_RA; its last folio marked: BATCH_ASYNC_RA (after cost.ra_marker); else as BATCH_READY") \
  X(GATHER_AGAIN, "v6.18: as GATHER after sync readahead or ->read_folio; none: NO_CACHED_PAGE")      \
  X(BATCH_ASYNC_RA, "v6.18 filemap_readahead(): clear the batch's last folio's mark, page_cache_async_ra() of it, " \
                    "then its ->readahead (RP_NEXT) or BATCH_READY")                                 \
  X(BATCH_READY, "v6.18: the batch's last folio not up to date: drop it and copy the others, or, "  \
                 "alone, sleep on it (BATCH_WAIT); else charge the copy of pos, then BATCH_COPIED")  \
  X(BATCH_WAIT, "v6.18 folio_put_wait_locked(): asleep until end-io unlocks the folio at pos; woken: a CPU first, " \
                "then GATHER (cpu.wake_exclusive: charge cost.wakeup, then BATCH_LOCKED)")         \
  X(BATCH_LOCKED, "v6.18 with cpu.wake_exclusive: wake the folio's next sleeper, then as BATCH_WAIT woken") \
  X(BATCH_COPIED, "v6.18: pos copied: account it; the batch's next folio: charge its copy; "          \
                  "the batch done: GATHER")                                                           \
  X(RP_NEXT, "->readpages: add_to_page_cache_lru() of the next listed page (cost.insert_alloc "   \
             "first: RP_INSERT), or flush the pool, or submit, or RP_END")                        \
  X(RP_INSERT, "the insert itself (charge spin + the rest of the insert, then RP_WON or RP_LOST)") \
  X(RP_WON, "the insert won: pool the page; a full pool: RP_FLUSH")                               \
  X(RP_LOST, "-EEXIST: pool-contig and window flush a non-empty pool")                            \
  X(RP_FLUSH, "read the next pooled page (charge cost.read_setup, then RP_READ); empty: RP_NEXT") \
  X(RP_READ, "submit_extent_page(): into the open bio, or charge cost.bio_submit, RP_SUBMIT_OPEN") \
  X(RP_SUBMIT_OPEN, "submit the open bio, open one with the page, back to RP_FLUSH")              \
  X(RP_SUBMIT, "submit the open bio (end of a batch or of the call), then RP_NEXT")               \
  X(RP_CSUM_WAIT, "asleep in btrfs_lookup_bio_sums() on a checksum leaf being read (csum.c); woken: " \
                  "on a CPU, back to the submit it came from (rp.csum_ret), which looks again")     \
  X(RP_END, "blk_finish_plug(), then where the readahead came from (v3.5 FIND_PAGE_AGAIN; v6.18 "  \
            "GATHER_AGAIN, after async readahead BATCH_READY)")                                            \
  X(URING, "workload.ioengine = io_uring, fio's loop (engine.c): in io_uring_enter() submit a queued read or retry a parked one whose folio " \
           "unlocked (GATHER from its pos), or sleep (URING_WAIT); reap the CQ ring; queue the next read (charge cost.fio_user, "  \
           "and cost.syscall for io_uring_enter()); finish when all are reaped") \
  X(URING_WAIT, "io_uring: asleep in io_uring_enter(GETEVENTS) on the oldest parked read's folio; woken: a CPU first, then URING") \
  X(DONE, "finished: the file read workload.loops times, or workload.runtime passed")

typedef enum {
#define X(name, doc) PCS_RD_##name,
  PCS_READER_STATES(X)
#undef X
} PcsReaderState;

/* The current ->readpages call (extent_readpages()), or the single-page
 * ->readpage() fallback run as a call of one page under "immediate". */
typedef struct {
  PcsPolicy policy;
  uint64_t *pool; /* inserted pages waiting to be read (pagepool[]) */
  uint32_t pool_n, pool_i, pool_cap;
  uint64_t page;     /* the page being inserted or read */
  uint32_t open_bio; /* submit_extent_page()'s bio_ret: PCS_NONE for none */
  PcsReaderState ret; /* the read() loop's state once the call ends (RP_END) */
  PcsReaderState csum_ret; /* RP_SUBMIT or RP_SUBMIT_OPEN, asleep on a checksum leaf (RP_CSUM_WAIT) */
} PcsReadpages;

/* PAGEVEC_SIZE of 6.x (include/linux/pagevec.h, 31 since 6.9): the most
 * folios filemap_get_read_batch() gathers into one folio_batch. */
#define PCS_FOLIO_BATCH PCS_PAGEVEC_SIZE

/* One file of a reader's set (workload.nrfiles > 1), fio's struct
 * fio_file with the kernel's struct file behind it: where the reader goes
 * on in it (fio's last_pos) and its own readahead state (file_ra_state),
 * kept here while the reader reads another file. */
typedef struct {
  uint32_t file; /* its number among the run's files (their layout: sim.c jobs_layout()) */
  uint64_t pos;
  PcsRaState ra;
  gboolean open, done;
} PcsReaderFile;

/* A reader's set of files and fio's choice among them (io_u.c
 * __get_next_file()); nfiles 1: none of it is used. */
typedef struct {
  PcsReaderFile *f;       /* nfiles entries, allocated at init */
  uint32_t nfiles;        /* workload.nrfiles (its job's) */
  uint32_t cur;           /* the file being read (fio's file_service_file); PCS_NONE before the first */
  uint32_t next;          /* fio's td->next_file: where round robin looks next */
  uint32_t left;          /* fio's file_service_left: calls before the next choice */
  uint32_t nopen, ndone;  /* fio's nr_open_files, nr_done_files */
  PcsFioRand rand;        /* file_service_type = random: fio's next_file_state */
} PcsReaderFiles;

typedef struct {
  uint32_t id; /* 0-based; task id too */
  const PcsSimJob *job; /* the job it is a clone of: its block size, rw, engine (internal.h) */
  uint64_t file_first, file_end; /* its file's pages: all readers share one file, or each has its own */
  uint64_t read_first, read_end; /* what its job reads of it: [file_first + offset, + size) */
  PcsReaderState state;
  uint64_t pos;      /* next page to copy */
  uint32_t batch_n;  /* v6.18: folios held in its folio_batch, pages [pos, pos + batch_n) (0 under v3.5) */
  uint32_t folded;   /* copies after pos folded into its pending copy step (reader.c fold_copies(), fold.h) */
  uint32_t copy_n;   /* large folios: pages of the copy step under way, the part of pos's folio in the batch */
  uint64_t fold_pseq; /* the sequence number the step before its last would have had (fold.h) */
  uint64_t call_end; /* end (exclusive) of the current read() call */
  PcsRaState ra;
  PcsRaList list; /* what readahead handed to ->readpages */
  PcsReadpages rp;
  uint64_t loop;  /* passes over the file completed (workload.loops) */
  PcsTime done_at;
  PcsTime call_start; /* when the current read() call started (its latency: to the end of its last copy) */
  /* workload.rw = randread: fio's block stream and random map (fiorand.c),
   * and the calls made in this loop (a loop is rand.nblocks calls) */
  PcsFioRand rand;
  uint64_t rand_calls;
  PcsReaderFiles files; /* workload.nrfiles > 1: file_first .. ra above are the current file's */
  /* workload.ioengine: fio's queue, io_uring's reads in flight (engine.c),
   * and the next page io_uring queues a read at */
  PcsEngine eng;
  uint64_t uring_next;
} PcsReader;

/* Bytes one reader allocates under P and POLICY (for pcs_sim_estimate()). */
uint64_t pcs_reader_bytes(const PcsParams *p, const PcsPolicy *policy);
/* Called once per run for reader ID, a clone of JOB; sizes its page list, and its pool for the run's policy. */
void pcs_reader_init(PcsSim *s, PcsReader *r, uint32_t id, const PcsSimJob *job);
/* Frees what pcs_reader_init() allocated. */
void pcs_reader_clear(PcsReader *r);
/* R issues its first read() (asks for CPU: schedules): at time 0, or,
 * for a job behind a barrier (sim.c), when the barrier falls, after
 * fio's invalidate=1 of the shared file it opens then. */
void pcs_reader_start(PcsSim *s, PcsReader *r);
/* EV is a reader's PCS_EV_TASK_STEP, just popped: its CPU step has run;
 * the reader goes on until it waits again (schedules).  Then the next
 * event is popped into EV here, and handled here too while it is another
 * reader step the event loop need not see (the loop's own dispatch,
 * without a return to it).  TRUE: EV holds a popped event for the loop
 * to handle (another kind, or one at which it polls); FALSE: none is
 * pending. */
gboolean pcs_reader_steps(PcsSim *s, PcsEvent *ev);
/* Called by end-io (unlock_page()) for R, asleep on a page now up to date
 * (SLEEPING, or BATCH_WAIT under v6.18), or on a checksum leaf now read
 * (RP_CSUM_WAIT, csum.c); R goes on at once, or after
 * cpu.wake_latency.  WAKER: the task that woke it (an end-io worker, or
 * the reader that handed the page lock on), for the trace's wake-up. */
void pcs_reader_wake(PcsSim *s, PcsReader *r, uint32_t waker);

#endif
