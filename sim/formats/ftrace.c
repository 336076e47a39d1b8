/* ftrace.c - writing a run as the kernel's ftrace text.
 *
 * Prints what /sys/kernel/tracing/trace holds after a capture: the header
 * of the nop tracer, then one line per event in the kernel's layout
 * (print_trace_fmt(): "%16s-%-7d [%03d] FLAGS %5lu.%06lu: EVENT: FIELDS"),
 * each event's fields in its TP_printk() format (include/trace/events/
 * block.h, readahead.h, filemap.h of Linux 6.18).  The events mirror the
 * tracepoints the kernel fires at the same steps:
 *   submit_bio() reaching the queue  trace_block_bio_queue   (SUBMIT)
 *   the driver taking a request      trace_block_rq_issue    (DISPATCH)
 *   blk_mq_end_request()             trace_block_rq_complete (COMPLETE)
 *   page_cache_sync_ra() / page_cache_async_ra() entered     (RA_SYNC / RA_ASYNC)
 *   page_cache_ra_unbounded(), the batch each one reads      (after RA_*)
 *   __filemap_add_folio() winning the insert                 (INSERT)
 *   __schedule() switching tasks     trace_sched_switch      (CPU_OFF, then CPU_ON)
 *   try_to_wake_up()                 trace_sched_waking, trace_sched_wakeup (WAKE)
 *
 * Who each line is attributed to, as the kernel would: a reader's events
 * to its task fio-(1000+N) on the CPU it runs on (before its first switch-in
 * CPU (N - 1) % cpu.count); an end-io worker's to kworker/uM:K; a request issued
 * while a reader inserts it (blk_mq_run_hw_queue() from its own plug flush
 * or queue_bio) to that reader; a request issued when a completion frees a
 * device slot to kblockd's worker, kworker/0:1H; completions to softirq
 * context on CPU 0, <idle>-0, flags "..s1.".  The simulator's DISPATCH
 * carries no thread: the writer keeps the thread of the last block-layer
 * event (block_ctx) and falls back to the worker after a completion.
 *
 * Known differences from a capture: one file (dev 0:40, ino 0x101) on one
 * device (7,0) whose sector is page * 8; rwbs is "RA" (a checksum leaf's
 * read, from PCS_META_FIRST_SECTOR up: "RM"); timestamps
 * start at 0.  The readahead events' index and req_count are the reader's
 * page (for page_cache_async_ra under v6.18 the marked folio, the last of
 * the batch it gathered: GATHER) and what remains of its read() call from
 * there, prev_pos where its previous
 * call ended, size the thread's previous window; the simulator's event
 * carries no async size, so async_size and lookahead_size print 0.  pfn is
 * the INSERT event's b (0 where the model does not report frames).
 * Timestamps are rounded to the microsecond (ns2usecs()), so service times
 * read back are exact to within 1 us per request.
 *
 * The scheduler's events: a task leaving its CPU (CPU_OFF) is always
 * followed, at the same instant, by the CPU's next task or its idling
 * (CPU_ON), and the two make one sched_switch line in the leaving task's
 * context; a CPU_ON alone is an idle CPU taken (prev: swapper/N).  A wake-up
 * prints sched_waking and sched_wakeup in the waker's context (an end-io
 * worker, a reader handing a page lock on, or a completion's softirq on
 * CPU 0).  Differs from a capture: no other task on the machine (fio's
 * main thread, kblockd, ksoftirqd, the loop device's worker) switches.
 *
 * The header's "entries-in-buffer/entries-written" line is written padded
 * with spaces and filled in by pcs_ftrace_finish(), so lines stream to the
 * file as the run goes.
 */
#include "pcsim/ftrace.h"
#include "pcsim/units.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#define BLOCK_DEV "7,0"                /* a loop device, as in the shared captures */
#define FILE_DEV "0:40"                /* the file system's anonymous dev */
#define FILE_INO UINT64_C(0x101)       /* btrfs's first file inode; printed in hex */
#define READER_PID_BASE 1000u
#define KWORKER "kworker/0:1H"
#define KWORKER_PID 58u
#define ENDIO_PID_BASE 200u
#define PRIO 120u                      /* nice 0 */
#define COUNT_LINE_WIDTH 79            /* the padded entries line, without its newline */

static const char header_top[] = "# tracer: nop\n#\n";
static const char header_rest[] =
    "#\n"
    "#                                _-----=> irqs-off/BH-disabled\n"
    "#                               / _----=> need-resched\n"
    "#                              | / _---=> hardirq/softirq\n"
    "#                              || / _--=> preempt-depth\n"
    "#                              ||| / _-=> migrate-disable\n"
    "#                              |||| /     delay\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "#              | |         |   |||||     |         |\n";

/* "# entries-in-buffer/entries-written: N/N   #P:CPUS", padded to a fixed width. */
static void count_line(PcsFtrace *ft) {
  char line[COUNT_LINE_WIDTH + 1];
  int n = snprintf(line, sizeof line, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%u",
                   ft->entries, ft->entries, ft->ncpu);
  g_assert(n > 0 && n < COUNT_LINE_WIDTH);
  fprintf(ft->f, "%-*s\n", COUNT_LINE_WIDTH, line);
}

void pcs_ftrace_init(PcsFtrace *ft, FILE *f, const PcsParams *p) {
  memset(ft, 0, sizeof *ft);
  ft->f = f;
  ft->ncpu = (uint32_t)MAX(p->cpu_count, 1);
  ft->nreaders = (uint32_t)p->workload_threads;
  ft->npages = p->workload_file_size / PCS_PAGE_SIZE;
  ft->ra_pages = pcs_params_window_bytes(p) / PCS_PAGE_SIZE;
  ft->block_ctx = PCS_NO_THREAD;
  ft->threads = g_new0(PcsFtraceThread, ft->nreaders);
  for (uint32_t i = 0; i < ft->nreaders; i++) ft->threads[i].prev_pos = -1;
  /* readers, end-io workers, and with bio.csum_leaf_size the metadata worker (endio.c) */
  ft->ntasks = ft->nreaders + (uint32_t)p->cpu_endio_workers + (p->bio_csum_leaf_size != 0) + (p->cost_loop_worker != 0);
  ft->task_cpu = g_new(uint32_t, ft->ntasks);
  for (uint32_t i = 0; i < ft->ntasks; i++) ft->task_cpu[i] = i % ft->ncpu;
  ft->cpu_off = g_new(uint32_t, ft->ncpu);
  for (uint32_t i = 0; i < ft->ncpu; i++) ft->cpu_off[i] = PCS_NO_THREAD;
  ft->off_why = g_new0(PcsTaskState, ft->ncpu);
  fputs(header_top, f);
  ft->count_at = ftell(f);
  count_line(ft);
  fputs(header_rest, f);
}

void pcs_ftrace_clear(PcsFtrace *ft) {
  g_clear_pointer(&ft->threads, g_free);
  g_clear_pointer(&ft->task_cpu, g_free);
  g_clear_pointer(&ft->cpu_off, g_free);
  g_clear_pointer(&ft->off_why, g_free);
}

/* The context columns up to the event name: TASK-PID, [CPU], flags, time. */
static void prefix(PcsFtrace *ft, const char *comm, uint32_t pid, uint32_t cpu, const char *flags, PcsTime t) {
  uint64_t us = (t + PCS_NS_PER_US / 2) / PCS_NS_PER_US; /* ns2usecs(): rounded */
  fprintf(ft->f, "%16s-%-7u [%03u] %s %5" PRIu64 ".%06" PRIu64 ": ", comm, pid, cpu, flags, us / 1000000u,
          us % 1000000u);
  ft->entries++;
}

/* Task THREAD (1-based: readers, then end-io workers, the metadata one last; PCS_NO_THREAD: CPU's
 * idle task) as sched_switch and sched_waking name it: comm into COMM, pid. */
static uint32_t task_name(const PcsFtrace *ft, uint32_t thread, uint32_t cpu, char *comm, size_t size) {
  if (thread == PCS_NO_THREAD) {
    snprintf(comm, size, "swapper/%u", cpu);
    return 0;
  }
  g_assert(thread >= 1 && thread <= ft->ntasks);
  if (thread <= ft->nreaders) {
    snprintf(comm, size, "fio");
    return READER_PID_BASE + thread;
  }
  snprintf(comm, size, "kworker/u%u:%u", 4 * ft->ncpu, thread - ft->nreaders - 1);
  return ENDIO_PID_BASE + thread - ft->nreaders - 1;
}

/* The context of a line task THREAD writes, on the CPU it is on. */
static void task_prefix(PcsFtrace *ft, uint32_t thread, const char *flags, PcsTime t) {
  char comm[32];
  uint32_t pid = task_name(ft, thread, 0, comm, sizeof comm);
  prefix(ft, comm, pid, ft->task_cpu[thread - 1], flags, t);
}

/* A reader thread (1-based) as the task that runs it. */
static void reader_prefix(PcsFtrace *ft, uint32_t thread, PcsTime t) {
  g_assert(thread >= 1 && thread <= ft->nreaders);
  task_prefix(ft, thread, ".....", t);
}

/* CPU_ON: NEXT (PCS_NO_THREAD: idle) gets CPU, after the task that left it
 * at this instant (CPU_OFF) or, with none, after the CPU's idle task. */
static void sched_switch(PcsFtrace *ft, PcsTime t, uint32_t next, uint32_t cpu) {
  g_assert(cpu < ft->ncpu);
  uint32_t prev = ft->cpu_off[cpu];
  const char *state = prev == PCS_NO_THREAD ? "R" : pcs_task_state_letter(ft->off_why[cpu]);
  ft->cpu_off[cpu] = PCS_NO_THREAD;
  if (prev == next) return; /* nothing left the CPU and it stays idle: no switch */
  char prev_comm[32], next_comm[32];
  uint32_t prev_pid = task_name(ft, prev, cpu, prev_comm, sizeof prev_comm);
  uint32_t next_pid = task_name(ft, next, cpu, next_comm, sizeof next_comm);
  if (next != PCS_NO_THREAD) ft->task_cpu[next - 1] = cpu;
  prefix(ft, prev == PCS_NO_THREAD ? "<idle>" : prev_comm, prev_pid, cpu, "d..2.", t); /* the idle task's lines say <idle>-0 */
  fprintf(ft->f,
          "sched_switch: prev_comm=%s prev_pid=%u prev_prio=%u prev_state=%s ==> next_comm=%s next_pid=%u"
          " next_prio=%u\n",
          prev_comm, prev_pid, PRIO, state, next_comm, next_pid, PRIO);
}

/* WAKE: WAKER (PCS_NO_THREAD: a completion's softirq on CPU 0) wakes WOKEN
 * and queues it for TARGET.  As try_to_wake_up() fires them: sched_waking
 * before it picks a CPU (target_cpu: the one WOKEN last ran on), then
 * sched_wakeup with the CPU it picked.  Differs from the kernel: with the
 * shared run queue (no cpu.migration_cost) TARGET is WOKEN's last CPU, and
 * the CPU that frees first takes it. */
static void sched_wake(PcsFtrace *ft, PcsTime t, uint32_t waker, uint32_t woken, uint32_t target) {
  char comm[32];
  uint32_t pid = task_name(ft, woken, 0, comm, sizeof comm);
  for (int line = 0; line < 2; line++) {
    uint32_t cpu = line ? target : ft->task_cpu[woken - 1];
    if (waker == PCS_NO_THREAD)
      prefix(ft, "<idle>", 0, 0, "d.s4.", t);
    else
      task_prefix(ft, waker, "d..3.", t);
    fprintf(ft->f, "%s: comm=%s pid=%u prio=%u target_cpu=%03u\n", line ? "sched_wakeup" : "sched_waking", comm, pid,
            PRIO, cpu);
  }
}

static PcsFtraceThread *reader(PcsFtrace *ft, uint32_t thread) {
  g_assert(thread >= 1 && thread <= ft->nreaders);
  return &ft->threads[thread - 1];
}

/* page_cache_{sync,async}_ra (KIND: RA_SYNC or RA_ASYNC), then the
 * page_cache_ra_unbounded batch of window [START, START + PAGES). */
static void readahead(PcsFtrace *ft, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t start, uint64_t pages) {
  PcsFtraceThread *r = reader(ft, thread);
  gboolean async = kind == PCS_TRACE_RA_ASYNC;
  const char *event = async ? "page_cache_async_ra" : "page_cache_sync_ra";
  uint64_t index = async ? r->marker : r->pos; /* ractl's index */
  reader_prefix(ft, thread, t);
  fprintf(ft->f,
          "%s: dev=" FILE_DEV " ino=%" PRIx64 " index=%" PRIu64 " req_count=%" PRIu64 " order=0 size=%" PRIu64
          " async_size=0 ra_pages=%" PRIu64 " mmap_miss=0 prev_pos=%" PRId64 "\n",
          event, FILE_INO, index, r->call_end > index ? r->call_end - index : 0, r->window, ft->ra_pages, r->prev_pos);
  uint64_t nr = start < ft->npages ? MIN(pages, ft->npages - start) : 0; /* do_page_cache_ra() stops at EOF */
  reader_prefix(ft, thread, t);
  fprintf(ft->f,
          "page_cache_ra_unbounded: dev=" FILE_DEV " ino=%" PRIx64 " index=%" PRIu64 " nr_to_read=%" PRIu64
          " lookahead_size=0\n",
          FILE_INO, start, nr);
  r->window = pages;
}

/* Where each reader is: the readahead events' index, req_count, prev_pos. */
static void follow_reader(PcsFtrace *ft, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  PcsFtraceThread *r = reader(ft, thread);
  if (kind == PCS_TRACE_SYSCALL) {
    if (r->call_end) r->prev_pos = (int64_t)(a * PCS_PAGE_SIZE); /* the previous call ended where this starts */
    r->pos = r->marker = a, r->call_end = a + b;
  } else if (kind == PCS_TRACE_COPY) {
    r->pos = r->marker = a + 1;
  } else if (kind == PCS_TRACE_GATHER) { /* v6.18: a marker is on the batch's last folio */
    r->pos = a, r->marker = b ? a + b - 1 : a;
  }
}

static void block_line(PcsFtrace *ft, PcsTraceKind kind, uint64_t sector, uint64_t nr, const char *comm) {
  const char *rwbs = sector >= PCS_META_FIRST_SECTOR ? "RM" : "RA"; /* a checksum leaf's read is metadata */
  if (kind == PCS_TRACE_SUBMIT)
    fprintf(ft->f, "block_bio_queue: " BLOCK_DEV " %s %" PRIu64 " + %" PRIu64 " [%s]\n", rwbs, sector, nr, comm);
  else if (kind == PCS_TRACE_DISPATCH)
    fprintf(ft->f, "block_rq_issue: " BLOCK_DEV " %s %" PRIu64 " () %" PRIu64 " + %" PRIu64 " be,0,4 [%s]\n", rwbs,
            nr * PCS_SECTOR_SIZE, sector, nr, comm);
  else
    fprintf(ft->f, "block_rq_complete: " BLOCK_DEV " %s () %" PRIu64 " + %" PRIu64 " be,0,4 [0]\n", rwbs, sector, nr);
}

/* block_rq_issue from the reader whose insert ran the queue, or from kblockd
 * after a completion freed a slot. */
static void dispatch(PcsFtrace *ft, PcsTime t, uint64_t sector, uint64_t nr) {
  if (ft->block_ctx == PCS_NO_THREAD) {
    prefix(ft, KWORKER, KWORKER_PID, 0, ".....", t);
    block_line(ft, PCS_TRACE_DISPATCH, sector, nr, KWORKER);
    return;
  }
  reader_prefix(ft, ft->block_ctx, t);
  block_line(ft, PCS_TRACE_DISPATCH, sector, nr, "fio");
}

void pcs_ftrace_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  PcsFtrace *ft = user;
  switch (kind) {
  case PCS_TRACE_SYSCALL:
  case PCS_TRACE_COPY:
  case PCS_TRACE_GATHER: follow_reader(ft, thread, kind, a, b); break;
  case PCS_TRACE_RA_SYNC:
  case PCS_TRACE_RA_ASYNC: readahead(ft, t, thread, kind, a, b); break;
  case PCS_TRACE_INSERT:
    reader_prefix(ft, thread, t);
    fprintf(ft->f, "mm_filemap_add_to_page_cache: dev " FILE_DEV " ino %" PRIx64 " pfn=0x%" PRIx64 " ofs=%" PRIu64
            " order=%u\n", FILE_INO, b & PCS_TRACE_PFN_MASK, a * PCS_PAGE_SIZE, (unsigned)(b >> PCS_TRACE_ORDER_SHIFT));
    break;
  case PCS_TRACE_SUBMIT: /* a = first page, b = pages */
    ft->block_ctx = thread;
    reader_prefix(ft, thread, t);
    block_line(ft, kind, a * PCS_SECTORS_PER_PAGE, b * PCS_SECTORS_PER_PAGE, "fio");
    break;
  case PCS_TRACE_SPLIT:
  case PCS_TRACE_REQUEST:
  case PCS_TRACE_BACKMERGE:
  case PCS_TRACE_FRONTMERGE:
  case PCS_TRACE_RQ_INSERT: ft->block_ctx = thread; break; /* not printed: the context of the next issue */
  case PCS_TRACE_DISPATCH: dispatch(ft, t, a, b); break;
  case PCS_TRACE_COMPLETE: /* a = first sector, b = sectors */
    ft->block_ctx = PCS_NO_THREAD;
    prefix(ft, "<idle>", 0, 0, "..s1.", t);
    block_line(ft, kind, a, b, NULL);
    break;
  case PCS_TRACE_CPU_OFF: /* a = CPU, b = why */
    g_assert(a < ft->ncpu && ft->cpu_off[a] == PCS_NO_THREAD);
    ft->cpu_off[a] = thread, ft->off_why[a] = (PcsTaskState)b;
    break;
  case PCS_TRACE_CPU_ON: sched_switch(ft, t, thread, (uint32_t)a); break;
  case PCS_TRACE_WAKE: sched_wake(ft, t, thread, (uint32_t)a, (uint32_t)b); break;
  default: break; /* eexist, read, bio_done, wait, finish: no tracepoint in a capture */
  }
}

gboolean pcs_ftrace_finish(PcsFtrace *ft, const char *path, GError **error) {
  gboolean ok = !ferror(ft->f) && fseek(ft->f, ft->count_at, SEEK_SET) == 0;
  if (ok) count_line(ft);
  ok = ok && fseek(ft->f, 0, SEEK_END) == 0 && fflush(ft->f) == 0 && !ferror(ft->f);
  if (!ok)
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "%s: cannot write: %s", path, errno ? g_strerror(errno) : "write error");
  return ok;
}
