/* internal.h - the simulator's state, shared by the model modules in sim/.
 *
 * Nothing here is public API.  Objects that come and go during a run (bios,
 * requests) live in index pools that grow to their high-water mark once and
 * are then recycled, so the per-event path never calls malloc.
 */
#ifndef PCSIM_INTERNAL_H
#define PCSIM_INTERNAL_H

#include "pcsim/sim.h"

#include <stddef.h>
#include <string.h>

#define PCS_NONE UINT32_MAX

/* ---- page cache (pagecache.c) ---- one byte per page of the file */
enum {
  PCS_PG_PRESENT = 1u << 0,   /* in the radix tree (inserted, locked until read) */
  PCS_PG_UPTODATE = 1u << 1,  /* read completed, unlocked */
  PCS_PG_READAHEAD = 1u << 2, /* PG_readahead marker */
  PCS_PG_CONTIG = 1u << 3,    /* its frame directly follows page-1's frame (alloc.c) */
};

/* ---- index pools (pool.c) ---- */
typedef struct {
  char *items;
  size_t item_size, next_offset; /* free list threads through a uint32_t field */
  uint32_t cap, free_head, live;
} PcsPool;

void pcs_pool_init(PcsPool *pool, size_t item_size, size_t next_offset, uint32_t cap);
void pcs_pool_clear(PcsPool *pool);
uint32_t pcs_pool_get(PcsPool *pool);
void pcs_pool_put(PcsPool *pool, uint32_t id);
static inline void *pcs_pool_at(PcsPool *pool, uint32_t id) {
  return pool->items + (size_t)id * pool->item_size;
}

/* ---- bio (bio.c) ---- */
typedef struct {
  uint64_t first;   /* first file page; disk sector = first * 8 */
  uint32_t npages;
  uint32_t nvecs;   /* bio_vec entries: runs of physically contiguous pages */
  uint32_t nseg;    /* request segments: those runs cut at block.max_segment_size */
  uint32_t seg_pages; /* pages in the last segment */
  uint32_t thread;  /* submitting reader */
  uint32_t next;    /* next bio in its request / end-io queue / free list */
} PcsBio;

/* ---- request (blk.c) ---- */
typedef struct {
  uint64_t sector;
  uint32_t nsect, nseg;
  uint32_t bio_head, bio_tail;
  uint32_t prev, next; /* elevator queue links; next also threads the free list */
} PcsRequest;

/* ---- random streams (rng.c) ---- MT19937, GRand's generator and seeding */
typedef struct {
  uint32_t mt[624];
  uint32_t mti;
} PcsRng;

void pcs_rng_init(PcsRng *r, const uint32_t *key, uint32_t len);
uint32_t pcs_rng_u32(PcsRng *r);

/* ---- tasks and CPUs (cpu.c) ---- */
typedef struct {
  PcsTime cost;        /* CPU time of the step being run or waited for */
  PcsTime slice_start; /* when it last got a CPU */
  gboolean on_cpu;
  PcsRng *rng;         /* cost jitter stream, NULL without jitter */
} PcsTask;

/* ---- readahead state, one per open file (readahead.c) ---- */
typedef struct {
  uint64_t start;
  uint64_t size, async_size;
  uint64_t prev_index; /* last page copied (ra->prev_pos >> PAGE_SHIFT) */
  gboolean prev_valid;
} PcsRaState;

/* ---- reader thread (reader.c) ---- what its pending CPU step completes */
#define PCS_READER_PHASES(X) \
  X(START) X(SYSCALL) X(COPY) X(INSERT) X(READ) X(SUBMIT) X(SLEEP) X(DONE)

typedef enum {
#define X(name) PCS_RD_##name,
  PCS_READER_PHASES(X)
#undef X
} PcsReaderPhase;

typedef struct {
  uint32_t id; /* 0-based; task id too */
  PcsReaderPhase phase;
  uint64_t pos;      /* next page to copy */
  uint64_t call_end; /* end (exclusive) of the current read() call */
  gboolean tried_ra; /* sync readahead already ran for pos */
  PcsRaState ra;

  /* the current ->readpages call (or single-page ->readpage fallback) */
  gboolean in_readpages;
  PcsPolicy rp_policy;
  uint64_t *list; /* pages absent at lookup, in index order */
  uint32_t list_n, list_i, list_cap;
  uint64_t marker; /* page to carry PG_readahead, UINT64_MAX for none */
  uint64_t *pool;  /* inserted pages waiting to be read */
  uint32_t pool_n, pool_i;
  gboolean flushing, open_after_submit;
  uint64_t cur_page;
  gboolean insert_won;
  uint32_t open_bio;

  /* per-task plug (blk.c) */
  gboolean plugged;
  uint32_t *plug;
  uint32_t plug_n;

  uint64_t wait_page;
  PcsTime done_at;
  uint64_t last_frame; /* file page on this thread's last contiguous frame (alloc.c), or UINT64_MAX */
} PcsReader;

/* ---- end-io worker (endio.c) ---- */
typedef struct {
  uint32_t task;
  uint32_t bio; /* bio being completed, PCS_NONE when idle */
  gboolean busy;
} PcsWorker;

/* Event kinds */
enum { PCS_EV_TASK_STEP, PCS_EV_DEVICE_DONE };

typedef struct {
  const PcsParams *p;
  PcsPolicy policy;
  PcsRunOptions opt;
  PcsEvq evq;

  uint64_t npages, block_pages, window_pages, bio_max_pages, stripe_pages;
  uint32_t rq_max_pages; /* largest request: block.max_sectors */
  uint32_t seg_max_pages; /* block.max_segment_size in pages */
  uint64_t scattered_left; /* pages of memory.scattered not yet handed out */
  double jitter;

  /* page cache */
  uint8_t *pages;
  PcsTime tree_lock_free; /* ticket spinlock: next time it is free */
  uint32_t *sleepers;     /* reader ids sleeping on a page */
  uint32_t n_sleepers;
  uint32_t *wake_scratch;

  /* tasks: readers 0..threads-1, then end-io workers */
  PcsTask *tasks;
  uint32_t ntasks;
  PcsReader *readers;
  uint32_t nreaders, readers_done;
  PcsWorker *workers;
  uint32_t nworkers;

  /* cpu run queue (ring of task ids) */
  uint32_t cpus_free;
  uint32_t *runq;
  uint32_t runq_head, runq_len;

  /* bios and requests */
  PcsPool bios, requests;
  uint32_t elv_head, elv_tail, elv_len; /* queued, not dispatched */
  uint32_t endio_head, endio_tail;      /* completed bios waiting for a worker */

  /* device */
  uint32_t in_service;
  PcsTime channel_free;

  PcsResult *res;
} PcsSim;

static inline void pcs_trace(PcsSim *s, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  if (G_UNLIKELY(s->opt.trace)) s->opt.trace(s->opt.trace_user, s->evq.now, thread, kind, a, b);
}

/* cpu.c */
PcsTime pcs_cpu_cost(PcsSim *s, uint32_t task, uint64_t base);
void pcs_cpu_run(PcsSim *s, uint32_t task, PcsTime cost);
void pcs_cpu_release(PcsSim *s, uint32_t task);

/* pagecache.c */
gboolean pcs_pc_insert(PcsSim *s, uint32_t reader, uint64_t page, gboolean marker, PcsTime *spin);
void pcs_pc_wait(PcsSim *s, PcsReader *r, uint64_t page);
void pcs_pc_complete(PcsSim *s, uint64_t first, uint32_t npages);

/* readahead.c */
uint64_t pcs_ra_init_size(uint64_t req, uint64_t max);
uint64_t pcs_ra_next_size(uint64_t cur, uint64_t max);
gboolean pcs_ra_sync(PcsSim *s, PcsReader *r, uint64_t page, uint64_t req);
gboolean pcs_ra_async(PcsSim *s, PcsReader *r, uint64_t page, uint64_t req);

/* reader.c */
void pcs_reader_init(PcsSim *s, PcsReader *r, uint32_t id);
void pcs_reader_clear(PcsReader *r);
void pcs_reader_start(PcsSim *s, PcsReader *r);
void pcs_reader_step(PcsSim *s, PcsReader *r);
void pcs_reader_wake(PcsSim *s, PcsReader *r);

/* alloc.c */
gboolean pcs_alloc_page(PcsSim *s, PcsReader *r, uint64_t page);
void pcs_alloc_free(PcsSim *s, PcsReader *r);

/* bio.c */
gboolean pcs_bio_add_page(PcsSim *s, PcsReader *r, uint64_t page);
uint32_t pcs_bio_fit(const PcsSim *s, uint64_t first, uint32_t npages, uint32_t max_pages, uint32_t max_segs,
                     uint32_t *nseg);
void pcs_bio_open(PcsSim *s, PcsReader *r, uint64_t page);
static inline PcsBio *pcs_bio_at(PcsSim *s, uint32_t id) { return pcs_pool_at(&s->bios, id); }

/* blk.c */
void pcs_blk_start_plug(PcsSim *s, PcsReader *r);
void pcs_blk_finish_plug(PcsSim *s, PcsReader *r);
void pcs_blk_submit(PcsSim *s, PcsReader *r, uint32_t bio);
uint32_t pcs_blk_next_request(PcsSim *s); /* pop the elevator's head */
static inline PcsRequest *pcs_rq_at(PcsSim *s, uint32_t id) { return pcs_pool_at(&s->requests, id); }

/* device.c */
void pcs_dev_dispatch(PcsSim *s);
void pcs_dev_complete(PcsSim *s, uint32_t rq);

/* endio.c */
void pcs_endio_queue(PcsSim *s, uint32_t bio);
void pcs_endio_step(PcsSim *s, PcsWorker *w);

#endif
