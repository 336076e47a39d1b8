/* blk.h - the block layer: per-task plugs, the elevator, requests (see blk.c). */
#ifndef PCSIM_MODEL_BLK_H
#define PCSIM_MODEL_BLK_H

#include "evq.h"
#include "pcsim/params.h"
#include "pool.h"

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint64_t sector;
  PcsTime dispatched; /* when the device took it (device.c) */
  uint32_t nsect, nseg;
  uint32_t bio_head, bio_tail;
  uint32_t task;       /* the task that allocated it: its cfq queue (v3.5) */
  gboolean in_driver;  /* dispatched to the device (CFQ's rq_in_driver) */
  gboolean in_elv;     /* queued in the elevator (and in its hashes, v3.5) */
  uint32_t prev, next; /* elevator queue links; next also threads the free list */
  uint32_t hnext_start, hnext_end; /* the elevator's hash chains (v3.5) */
  uint64_t order;                  /* its place in the elevator's FIFO: stamped when queued */
} PcsRequest;

/* One task's struct blk_plug: requests held back until the plug is flushed. */
typedef struct {
  gboolean plugged; /* between blk_start_plug() and blk_finish_plug() */
  uint32_t *rqs;
  uint32_t n;
} PcsPlug;

/* One task's cfq queue (v3.5, block.cfq_quantum > 0): its queued
 * requests stay in the elevator's list, this counts them. */
typedef struct {
  uint32_t queued;     /* requests in the elevator */
  uint32_t dispatched; /* requests in service (cfqq->dispatched) */
  uint64_t rr_key;     /* order on the service tree: smaller is served first */
} PcsCfqQueue;

/* The request queue: requests, the elevator's FIFO and every task's plug. */
typedef struct {
  PcsPool requests;
  uint32_t elv_head, elv_tail, elv_len; /* queued, not dispatched */
  uint64_t elv_order;                   /* stamps PcsRequest.order */
  /* v3.5: queued requests by first sector and by end sector (elv_rqhash
   * and the cfq sort tree's job), so a merge looks up instead of walking */
  uint32_t *hash_start, *hash_end, hash_mask;
  PcsPlug *plugs;                       /* one per task that submits (the readers) */
  uint32_t nplugs, plug_max;            /* block.plug_max */
  uint64_t plug_flush_sectors;          /* block.plug_flush_size; 0 = none */
  gboolean mq_none;                     /* v6.18: blk-mq, scheduler none */
  uint32_t nr_requests;                 /* v3.5 block.nr_requests; 0 = unbounded */
  uint32_t congestion_on, congestion_off;
  gboolean congested;                   /* bdi_read_congested() */
  uint32_t *waiters, nwait;             /* tasks in get_request_wait(), FIFO */
  uint32_t rq_max_pages;                /* largest request: block.max_sectors */
  /* CFQ dispatch (v3.5, block.cfq_quantum > 0) */
  PcsCfqQueue *cfqq;                    /* one per task, NULL when off */
  uint32_t cfq_quantum, cfq_busy;       /* cfq_busy: queues with requests queued */
  uint32_t active;                      /* the active queue's task, PCS_NONE for none */
  gboolean slice_new;                   /* no request of the active slice completed yet */
  PcsTime slice_end;
  uint64_t rr_seq;                      /* stamps rr_key */
} PcsBlkQueue;

/* The largest request under P, in pages: block.max_sectors. */
uint32_t pcs_blk_rq_max_pages(const PcsParams *p);
/* Called once per run, with one plug for each of NTASKS submitting tasks. */
void pcs_blk_init(PcsBlkQueue *q, const PcsParams *p, uint32_t ntasks);
/* Frees the queue; the elevator and every plug must be empty. */
void pcs_blk_clear(PcsBlkQueue *q);
/* The request ID; valid until the next pcs_pool_get() on the queue. */
static inline PcsRequest *pcs_rq_at(const PcsBlkQueue *q, uint32_t id) { return pcs_pool_at(&q->requests, id); }

/* blk_start_plug() for TASK, at the start of read_pages(); TASK must not be plugged. */
void pcs_blk_start_plug(PcsSim *s, uint32_t task);
/* blk_finish_plug(): flushes TASK's plug into the elevator and runs the
 * queue (may dispatch); no-op when TASK is not plugged. */
void pcs_blk_finish_plug(PcsSim *s, uint32_t task);
/* blk_flush_plug() as io_schedule() does it before TASK sleeps: the held
 * requests go to the queue and TASK stays plugged; no-op when not plugged. */
void pcs_blk_flush_plug(PcsSim *s, uint32_t task);
/* blk_queue_bio() for BIO, submitted by TASK: counts it, splits it at the
 * request limits, merges or queues each part; may flush the plug and
 * dispatch.  Owns BIO from here until the device completes it, and returns
 * TRUE.  FALSE (v3.5, block.nr_requests all taken and BIO merges nowhere):
 * TASK sleeps in get_request_wait() off its CPU, BIO stays the caller's;
 * when a request is freed TASK gets a CPU step and submits BIO again. */
gboolean pcs_blk_submit(PcsSim *s, uint32_t task, uint32_t bio);
/* __blk_put_request(): frees request ID (merged away or completed); may
 * clear congestion and wake one task waiting for a request. */
void pcs_blk_put_request(PcsSim *s, uint32_t id);
/* bdi_read_congested(): the v3.5 queue holds congestion_on requests or more. */
static inline gboolean pcs_blk_read_congested(const PcsBlkQueue *q) { return q->congested; }
/* Called by the device when it has room: pops the elevator's head, PCS_NONE when empty. */
uint32_t pcs_blk_next_request(PcsSim *s);

#endif
