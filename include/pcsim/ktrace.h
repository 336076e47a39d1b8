/* ktrace.h - real kernel block traces read back: `pcsim trace-stats` and
 * `pcsim compare`.
 *
 * Two text formats are recognised line by line, gzip or plain:
 *   ftrace   "... block_bio_queue: 7,0 RA 1124352 + 256 [fio]"
 *            "... block_rq_issue: 7,0 RA 131072 () 1124352 + 256 be,0,4 [fio]"
 *   blkparse "  7,0  1  12  0.000123  1234  Q  RA 1124352 + 256 [fio]" (Q and D)
 * A bio is a block_bio_queue / Q event, a request a block_rq_issue / D
 * event.  Reads only; rwbs with 'M' (metadata) is counted apart.
 *
 * The mechanism events, when the trace has them (ftrace text only):
 *   "... 1691.750597: block_rq_complete: 7,0 RA () 1124352 + 256 be,0,4 [0]"
 *   "... page_cache_sync_ra: dev=0:40 ino=101 index=0 req_count=8 ..."
 *   "... page_cache_async_ra: dev=0:40 ino=101 index=16 ..."
 *   "... mm_filemap_add_to_page_cache: dev 0:40 ino 101 pfn=0x126cf1 ofs=0 order=0"
 * (blkparse's C action is read as block_rq_complete.)  ino is printed in
 * hex by both event classes; pfn must be hex "0x..."; order may be absent
 * (read as 0).  Pages are PCS_PAGE_SIZE bytes; a folio of order k at byte
 * offset ofs covers file pages ofs/4096 .. ofs/4096 + 2^k - 1, in frames
 * pfn .. pfn + 2^k - 1.
 *
 * What each metric means (for the README):
 *   data file            the dev+ino with the most mm_filemap_add_to_page_cache
 *                        lines, then the most page_cache_sync_ra /
 *                        page_cache_async_ra lines (the first seen wins a tie):
 *                        a trace without insert lines (a reduced blocks/
 *                        trace, a --no-page-inserts capture) names it by its
 *                        readahead lines alone.  Every mechanism metric below
 *                        is about this file only.
 *   ra_sync, ra_async    page_cache_sync_ra / page_cache_async_ra lines on the
 *                        data file; measured whenever the trace names a data
 *                        file (ra_present), with or without its inserts, so a
 *                        reduced trace gives its full trace's counts.
 *   inserts              mm_filemap_add_to_page_cache lines on the data file:
 *                        folios, one line each whatever its order, as the
 *                        tracepoint counts them (other_inserts: lines on every
 *                        other file, e.g. the btrfs btree inode "ino 1"
 *                        holding metadata).
 *   inserted_pages       2^order summed over the data file's lines: pages.
 *                        Equal to inserts where every folio is order 0
 *                        (btrfs); ext4 and xfs insert large folios.
 *   inserts_by_order     the data file's lines by their order= (the sum is
 *                        inserts).
 *   file size            highest data-file page inserted + 1, in pages; MiB of
 *                        file = pages * 4096 / 2^20.
 *   owner_changes_per_mib  over the file's pages in index order, the number of
 *                        pairs (i, i+1), both inserted, where i+1 was inserted
 *                        by a different thread (the TASK-PID column) than i,
 *                        per MiB of file.  0 with one thread.  A page inserted
 *                        twice (evicted and read again) keeps its first insert.
 *   contiguous_frames    of the pairs (i, i+1) both inserted, the share whose
 *                        frames are consecutive: pfn(i+1) == pfn(i) + 1.
 *   inserted_mib_per_thread  pages of the data file each thread inserted
 *                        (2^order per line) * 4096 / 2^20, one entry per thread
 *                        in order of its first insert on the data file; the
 *                        list sums to the inserted MiB.
 *   device service time  data read requests (rwbs R without M) paired from
 *                        block_rq_issue to block_rq_complete by device, sector
 *                        and sector count.  device_ms_per_mib: the sum of
 *                        issue->complete times in ms over the MiB of the paired
 *                        requests (overlapping requests each count in full:
 *                        device time, not wall time); device_mean_us: their
 *                        mean; latency_us_hist: bucket 0 counts times under
 *                        2 us, bucket k >= 1 times in [2^k, 2^(k+1)) us, the
 *                        last bucket everything longer; max_in_flight: most
 *                        data requests issued and not yet completed at once.
 *                        A complete with no pending issue and an issue never
 *                        completed (or issued again before completing: the
 *                        later issue is timed) are counted apart, not timed.
 */
#ifndef PCSIM_KTRACE_H
#define PCSIM_KTRACE_H

#include "pcsim/params.h"

typedef struct {
  uint64_t bios, requests, sectors;                /* data reads */
  uint64_t meta_bios, meta_requests, meta_sectors; /* rwbs with M */
  uint64_t threads;        /* distinct tasks that queued data bios */
} PcsKtraceCounts;

/* 1 MiB: BIO_MAX_VECS (256) bio_vecs of one 4 KiB page each.  A larger bio
 * needs physically contiguous pages (or large folios) in a bio_vec. */
#define PCS_KTRACE_BIO_MAX_VECS 256u /* the kernel's BIO_MAX_VECS, not the scenario's bio.max_vecs */
#define PCS_KTRACE_LARGE_BIO (PCS_KTRACE_BIO_MAX_VECS * PCS_SECTORS_PER_PAGE)

/* Data read before the first bio over PCS_KTRACE_LARGE_BIO sectors: fed
 * every data bio in submission order, by the trace reader and by
 * `pcsim compare` watching a simulation, so both count it alike. */
typedef struct {
  uint64_t sectors_before;
  gboolean seen;
} PcsLargeBioWatch;

static inline void pcs_large_bio_watch(PcsLargeBioWatch *w, uint64_t sectors) {
  if (sectors > PCS_KTRACE_LARGE_BIO) w->seen = TRUE;
  if (!w->seen) w->sectors_before += sectors;
}

/* One thread's share of the data file's inserts. */
typedef struct {
  char *task; /* "COMM-PID", the trace's TASK-PID column */
  double mib;
} PcsKtraceThreadMib;

/* Largest folio order an insert line may give: MAX_PAGE_ORDER is 10 on x86, a PUD 18. */
#define PCS_KTRACE_MAX_FOLIO_ORDER 20

/* Readahead and page-insert events on the data file (see above): dev_major
 * .. ra_pages when ra_present, the rest only when present. */
typedef struct {
  gboolean ra_present;                /* readahead or insert lines name a data file: dev_major .. ra_pages */
  gboolean present;                   /* the data file has mm_filemap_add_to_page_cache lines (the insert metrics) */
  guint dev_major, dev_minor;         /* the data file: dev (the fs's anonymous dev) */
  uint64_t ino;                       /*   and inode number */
  uint64_t ra_sync, ra_async;         /* page_cache_sync_ra / page_cache_async_ra lines */
  uint64_t ra_pages;                  /* the largest ra_pages= of those lines: the file's window in pages (0: not printed) */
  uint64_t inserts, other_inserts;    /* insert lines: data file, all other files */
  uint64_t inserted_pages;            /* sum of 2^order over the data file's insert lines */
  uint64_t inserts_by_order[PCS_KTRACE_MAX_FOLIO_ORDER + 1]; /* the data file's insert lines by their order */
  uint64_t file_pages;                /* highest page inserted + 1 */
  uint64_t page_pairs;                /* pairs (i, i+1) both inserted */
  uint64_t owner_changes;             /* of page_pairs, inserted by different threads */
  uint64_t contiguous_pairs;          /* of page_pairs, pfn(i+1) == pfn(i) + 1 */
  double owner_changes_per_mib;       /* owner_changes / MiB of file */
  double contiguous_frames;           /* contiguous_pairs / page_pairs */
  GArray *inserted_mib_per_thread;    /* PcsKtraceThreadMib, first-insert order */
} PcsKtraceMechanism;

/* bucket k >= 1: service times in [2^k, 2^(k+1)) us; 0: under 2 us. */
#define PCS_KTRACE_LATENCY_BUCKETS 24

/* Data read requests timed from block_rq_issue to block_rq_complete. */
typedef struct {
  gboolean present;                   /* the trace has data block_rq_complete lines */
  uint64_t timed, timed_sectors;      /* requests paired, their sectors */
  uint64_t service_ns;                /* sum of issue->complete times */
  uint64_t unissued_completes;        /* completes with no pending issue */
  uint64_t uncompleted_issues;        /* issues never completed (or issued again) */
  uint64_t max_in_flight;             /* most requests issued, not completed */
  uint64_t latency_us_hist[PCS_KTRACE_LATENCY_BUCKETS];
  double device_ms_per_mib;           /* service_ns in ms / MiB of timed requests */
  double device_mean_us;              /* service_ns / timed, in us */
} PcsKtraceDevice;

/* Kinds of the per-event records kept on request (PCS_KTRACE_KEEP_EVENTS). */
#define PCS_KTRACE_EVENT_KINDS(X)                                                 \
  X(BIO, "block_bio_queue")              /* a read bio, data or metadata */       \
  X(RQ_ISSUE, "block_rq_issue")          /* a read request, data or metadata */   \
  X(RQ_COMPLETE, "block_rq_complete")    /* its completion */                     \
  X(RA_SYNC, "page_cache_sync_ra")       /* readahead entered, data file */       \
  X(RA_ASYNC, "page_cache_async_ra")                                              \
  X(RA_ORDER, "page_cache_ra_order")     /* its folios' allocation and insert start */ \
  X(INSERT, "mm_filemap_add_to_page_cache") /* a folio inserted, data file */

typedef enum {
#define X(name, text) PCS_KEV_##name,
  PCS_KTRACE_EVENT_KINDS(X)
#undef X
} PcsKtraceEventKind;

const char *pcs_ktrace_event_name(PcsKtraceEventKind k);

/* One event, in trace order.  Kept: read bios and requests (issue and
 * complete; metadata flagged), readahead entries and inserts on the data
 * file.  40 bytes a line: a 300k-line capture keeps about 12 MB. */
typedef struct {
  uint64_t time_ns;   /* the TIMESTAMP column */
  uint64_t where;     /* bio/request: first sector; insert: file page; ra: index */
  uint64_t pfn;       /* insert: first frame; 0 otherwise */
  uint32_t size;      /* bio/request: sectors; insert: pages (2^order); ra: ra_pages (0 if absent) */
  uint32_t task;      /* index in PcsKtrace.event_tasks */
  uint32_t dev;       /* bio/request: MAJOR << 20 | MINOR (0 for blkparse bios) */
  uint8_t kind;       /* PcsKtraceEventKind */
  uint8_t meta;       /* bio/request: rwbs has M */
} PcsKtraceEvent;

/* Load flags. */
#define PCS_KTRACE_KEEP_EVENTS 1u /* fill PcsKtrace.events and event_tasks */

struct PcsKtraceScan; /* private to ktrace.c: state while reading */

typedef struct {
  char *path;
  const char *format;  /* "ftrace" or "blkparse" */
  PcsKtraceCounts c;
  GArray *bio_pages_hist; /* guint64 by bio size in pages (rounded up), data bios */
  GHashTable *tasks;      /* names of the tasks counted in c.threads */
  PcsLargeBioWatch large; /* data read before the first bio over 1 MiB */
  PcsKtraceMechanism mech; /* readahead and insert events, when present */
  PcsKtraceDevice dev;     /* issue->complete times, when present */
  GArray *events;          /* PcsKtraceEvent, trace order; NULL unless PCS_KTRACE_KEEP_EVENTS */
  GPtrArray *event_tasks;  /* "COMM-PID" (blkparse: PID) by PcsKtraceEvent.task; NULL likewise */
  struct PcsKtraceScan *scan;
} PcsKtrace;

gboolean pcs_ktrace_load(PcsKtrace *t, const char *path, GError **error);
gboolean pcs_ktrace_load_text(PcsKtrace *t, const char *path, const char *text, size_t len, GError **error);
/* The same with FLAGS (PCS_KTRACE_KEEP_EVENTS); the two above pass 0. */
gboolean pcs_ktrace_load_flags(PcsKtrace *t, const char *path, guint flags, GError **error);
gboolean pcs_ktrace_load_text_flags(PcsKtrace *t, const char *path, const char *text, size_t len, guint flags,
                                    GError **error);
void pcs_ktrace_clear(PcsKtrace *t);

#endif
