/* ftrace.h - a simulation written as the kernel's ftrace text.
 *
 * `pcsim run SCENARIO --policy P --ftrace FILE` writes one run as the text
 * of /sys/kernel/tracing/trace with the tracepoints a capture keeps
 * (scripts/capture-kernel-trace), so `pcsim trace-stats FILE` reads the
 * run's own metrics back and a capture and a simulation can be read side
 * by side:
 *   block_bio_queue        SUBMIT    "7,0 RA SECTOR + NR [fio]"
 *   block_rq_issue         DISPATCH  "7,0 RA BYTES () SECTOR + NR be,0,4 [fio]"
 *   block_rq_complete      COMPLETE  "7,0 RA () SECTOR + NR be,0,4 [0]"
 *   page_cache_sync_ra     RA_SYNC   "dev=0:40 ino=101 index=.. req_count=.. ..."
 *   page_cache_async_ra    RA_ASYNC  (the same fields)
 *   page_cache_ra_unbounded  after each of the two: "index=.. nr_to_read=.. lookahead_size=0"
 *   mm_filemap_add_to_page_cache  INSERT  "dev 0:40 ino 101 pfn=0x.. ofs=.. order=0"
 *   sched_switch           CPU_OFF + CPU_ON  "prev_comm=fio prev_pid=.. prev_prio=120 prev_state=D ==> next_comm=.."
 *   sched_waking, sched_wakeup  WAKE  "comm=fio pid=.. prio=120 target_cpu=00N"
 * Reader thread N is task fio-(1000+N); end-io worker K (0-based) is
 * kworker/uM:K, pid 200+K (M = 4 x cpu.count, an unbound pool's name);
 * each event line carries the CPU its task is on (or last ran on).
 * Timestamps are simulated time, printed as the kernel prints them
 * (microseconds, rounded).  The file is streamed: memory does not grow
 * with the run.
 */
#ifndef PCSIM_FTRACE_H
#define PCSIM_FTRACE_H

#include "pcsim/sim.h"

#include <stdio.h>

/* What the writer remembers of one reader thread, for the readahead
 * events' fields the simulator's trace event does not carry. */
typedef struct {
  uint64_t pos;      /* the page the thread is at (index of a readahead) */
  uint64_t marker;   /* the folio a marker would be on: pos, or under v6.18 its batch's last (async index) */
  uint64_t call_end; /* end of its read() call, in pages */
  int64_t prev_pos;  /* byte position where its previous read() ended, -1 before */
  uint64_t window;   /* pages of its last readahead window (the ra state's size) */
} PcsFtraceThread;

typedef struct {
  FILE *f;                  /* seekable: the entry count is written at the end */
  uint32_t ncpu, nreaders;
  uint64_t npages, ra_pages;
  uint64_t entries;         /* event lines written */
  long count_at;            /* offset of the "entries-in-buffer" header line */
  uint32_t block_ctx;       /* thread of the last block-layer event; PCS_NO_THREAD after a completion */
  PcsFtraceThread *threads; /* [nreaders] */
  uint32_t ntasks;          /* readers, then end-io workers */
  uint32_t *task_cpu;       /* [ntasks]: the CPU each task is on or last ran on */
  uint32_t *cpu_off;        /* [ncpu]: the thread that just left the CPU (CPU_OFF), PCS_NO_THREAD: none */
  PcsTaskState *off_why;    /* [ncpu]: and why */
} PcsFtrace;

/* Writes the kernel's header to F (a new, seekable file) for a run of P. */
void pcs_ftrace_init(PcsFtrace *ft, FILE *f, const PcsParams *p);
/* A PcsTraceFn: USER is the PcsFtrace.  Allocation-free. */
void pcs_ftrace_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b);
/* Fills in the header's entry count and flushes; FALSE with PCS_ERROR_IO
 * (naming PATH) when anything written to F failed.  F stays open. */
gboolean pcs_ftrace_finish(PcsFtrace *ft, const char *path, GError **error);
void pcs_ftrace_clear(PcsFtrace *ft);

#endif
