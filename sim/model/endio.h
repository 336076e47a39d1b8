/* endio.h - btrfs end-io workers completing read bios (see endio.c). */
#ifndef PCSIM_MODEL_ENDIO_H
#define PCSIM_MODEL_ENDIO_H

#include <glib.h>
#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint32_t task;
  uint32_t bio; /* bio being completed, PCS_NONE when idle */
  gboolean busy;
  gboolean meta; /* the metadata worker (bio.csum_leaf_size): checksum leaves' reads only */
  /* cpu.endio_idle_thresh (btrfs 3.x's pool): struct btrfs_worker_thread */
  uint32_t head, tail; /* its own pending list */
  uint32_t pending;    /* num_pending: bios queued to it, the one it runs included */
  gboolean idle;       /* on the pool's idle list (else on its worker list) */
  uint64_t sequence;   /* picks while busy (next_worker()) */
} PcsWorker;

/* The ring of recent fills (see endio.c, "The cache-cold copy"): the last
 * PCS_ENDIO_FILLS bios verified, a bio that continues the one before (its
 * first page follows that one's last) merged into its entry; and the bios
 * split by the block layer whose parts have not all completed yet. */
#define PCS_ENDIO_FILLS 256

typedef struct {
  uint64_t first; /* first page */
  uint64_t n;     /* pages */
  uint64_t start; /* pages filled before this entry's first page, by every entry before it */
} PcsEndioFill;

typedef struct {
  uint64_t first;       /* first page of the bio as submitted */
  uint32_t pages, done; /* its pages; those whose part completed */
} PcsEndioChain;

/* Split bios with parts still in flight (bio_chain()'s remaining count);
 * grows to its high-water mark once. */
typedef struct {
  PcsEndioChain *v;
  uint32_t n, cap;
} PcsEndioChains;

/* A part of N pages of the bio of PAGES pages from FIRST completed: TRUE
 * when it was the last (the bio's entry is then gone). */
gboolean pcs_endio_chains_part(PcsEndioChains *t, uint64_t first, uint32_t pages, uint32_t n);
void pcs_endio_chains_clear(PcsEndioChains *t);

typedef struct {
  PcsEndioFill ring[PCS_ENDIO_FILLS];
  uint32_t newest; /* index of the newest entry */
  uint32_t len;    /* entries in use, up to PCS_ENDIO_FILLS */
  uint64_t filled; /* pages filled since the run began */
  PcsEndioChains chains; /* split bios with parts in flight, for their fills */
} PcsEndioFills;

/* The endio_workers pool and its queue of completed bios (FIFO, linked
 * through PcsBio.next); with bio.csum_leaf_size one more worker after
 * them, btrfs's endio_meta_workers, with its own queue. */
typedef struct {
  PcsWorker *workers;
  uint32_t nworkers;   /* data workers; the metadata one, if any, is workers[nworkers] */
  uint32_t head, tail; /* completed bios waiting for a worker */
  /* cpu.endio_idle_thresh > 0: btrfs 3.x's struct btrfs_workers.  nworkers
   * is then max_workers, of which the first STARTED run; the idle list and
   * the (busy) worker list hold worker indices in list order */
  uint32_t idle_thresh, started;
  gboolean start_pending; /* atomic_start_pending */
  uint32_t *idle_list, n_idle, *busy_list, n_busy;
  uint32_t meta_head, meta_tail; /* completed leaf reads waiting for the metadata worker */
  PcsEndioFills fills; /* recorded only with cost.copy_cold */
  PcsEndioChains split; /* bio.chained: split bios with parts still on the device */
} PcsEndio;

/* Called once per run: NWORKERS workers, tasks FIRST_TASK.., and with
 * META the metadata worker, task FIRST_TASK + NWORKERS.  IDLE_THRESH > 0:
 * btrfs 3.x's pool (endio.c), which starts one of them and the others on
 * demand. */
void pcs_endio_init(PcsEndio *e, uint32_t first_task, uint32_t nworkers, gboolean meta, uint32_t idle_thresh);
/* No bio is left on a worker's own list (btrfs 3.x's pool). */
gboolean pcs_endio_drained(const PcsEndio *e);
/* Frees the workers; the queue must be empty. */
void pcs_endio_clear(PcsEndio *e);
/* end_workqueue_bio(): the device completed BIO; queue it and start an idle
 * worker on it (asks for CPU: may schedule).  A checksum leaf's read goes to
 * the metadata worker's own queue. */
void pcs_endio_queue(PcsSim *s, uint32_t bio);
/* The device completed BIO, a part of a bio the block layer split, under
 * bio.chained: the last part of its bio to complete becomes the whole bio
 * as submitted and is queued (pcs_endio_queue()); the others are freed.
 * A bio that was not split is queued as it is. */
void pcs_endio_part_done(PcsSim *s, uint32_t bio);
/* Worker W's CPU step has run: its bio's pages turn up to date and unlock,
 * the readers sleeping on them wake (reader.c), the bio is freed, and W
 * takes the next bio or goes idle.  The metadata worker's step marks its
 * checksum leaf read and wakes the leaf's sleepers (csum.c). */
void pcs_endio_step(PcsSim *s, PcsWorker *w);

/* End-io filled [FIRST, FIRST+N) (checksums verified in page order, after
 * every page recorded before).  Never allocates; the oldest entry drops
 * out when the ring is full. */
void pcs_endio_fills_add(PcsEndioFills *f, uint64_t first, uint64_t n);
/* A part of N pages from FIRST completed, of a bio submitted as
 * [CHAIN_FIRST, CHAIN_FIRST+CHAIN_PAGES): when it is the last part of that
 * bio to complete, the whole bio is filled (pcs_endio_fills_add()), as
 * btrfs verifies it once bio_chain() has completed every part; before,
 * nothing is (its pages count as not yet verified).  The table of split
 * bios waiting grows (doubling) when a new one finds it full, so it
 * allocates only until it reaches the run's high-water mark. */
void pcs_endio_fills_part(PcsEndioFills *f, uint64_t chain_first, uint32_t chain_pages, uint64_t first, uint32_t n);
/* Frees the table of split bios (a zeroed PcsEndioFills needs nothing else). */
void pcs_endio_fills_clear(PcsEndioFills *f);
/* Is PAGE still in a CPU cache of CACHE_BYTES: fewer than CACHE_BYTES of
 * page data filled after PAGE's own (newest) fill?  FALSE when PAGE's fill
 * is older than CACHE_BYTES of fills or has left the ring.  Walks the ring
 * from the newest entry, at most until CACHE_BYTES are passed. */
gboolean pcs_endio_fills_warm(const PcsEndioFills *f, uint64_t page, uint64_t cache_bytes);

#endif
