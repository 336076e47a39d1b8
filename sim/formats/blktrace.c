/* blktrace.c - writing a run in blktrace's binary format.
 *
 * Mirrors what the kernel's blktrace (kernel/trace/blktrace.c) records for
 * a read: Q when a bio reaches the queue (pcsim's `submit`), M/F when it
 * back/front merges into a request, G when it gets a new request, I when a
 * request is inserted, D when the driver issues it, C when it completes;
 * plus a process note (BLK_TN_PROCESS) naming each thread.  So every bio
 * has Q then G or M/F, and every request G, I, D and C: a request that
 * merges whole into the queued one before it (v3.5's insert merge, `pcsim
 * run --trace` kind rq_merge) is written as its bio's M at that moment,
 * its G and I dropped (rq_merged() says how the kernel differs), and btt
 * counts D2C pairs = requests, Q2C = bios.  Records wait in memory until
 * pcs_blktrace_write() numbers them.  Reads carry
 * BLK_TC_READ and, being readahead, BLK_TC_AHEAD ("RA" in blkparse); a
 * checksum leaf's read BLK_TC_READ and BLK_TC_META ("RM").
 *
 * Simplifications: a thread's events go to CPU (thread - 1) % cpu.count;
 * C, which pcsim does not attribute to a task, goes to CPU 0 with pid 0
 * ("kworker/0:1H").  D goes where the kernel issues it: in the context that
 * ran the queue.  A request dispatched at the instant a task inserted it
 * (blk_finish_plug() running the queue) is issued on that task's CPU with
 * its pid; one dispatched when a completion freed a slot is issued on the
 * completion's CPU.  So every request's Q, G, I, D sit in one CPU's stream
 * in sequence order whenever they share a nanosecond, and blkparse, which
 * orders events of equal time by sequence number, sees them in causal
 * order: btt pairs every D with its I and every C with its Q.  Reader thread N has pid 1000+N ("fio"); every
 * other event comes from a reader (end-io workers queue no I/O, so they
 * have no pid here).  The device is 8,0.
 */
#include "pcsim/blktrace.h"
#include "pcsim/units.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#define BLK_IO_TRACE_MAGIC 0x65617400u
#define BLK_IO_TRACE_VERSION 0x07u
#define TC(cat) ((uint32_t)(cat) << 16)

enum { TA_QUEUE = 1, TA_BACKMERGE = 2, TA_FRONTMERGE = 3, TA_GETRQ = 4, TA_ISSUE = 7, TA_COMPLETE = 8,
       TA_INSERT = 12 };
enum { TC_READ = 1 << 0, TC_QUEUE = 1 << 4, TC_ISSUE = 1 << 6, TC_COMPLETE = 1 << 7, TC_NOTIFY = 1 << 10,
       TC_AHEAD = 1 << 11, TC_META = 1 << 12 };
enum { TN_PROCESS = 0 };

#define DEVICE ((8u << 20) | 0u) /* MKDEV(8, 0) as the kernel encodes it */
#define TASK_COMM_LEN 16

/* One record of struct blk_io_trace; sequence numbers are given when the
 * CPU's records are written, so a dropped record leaves no gap. */
typedef struct {
  PcsTime t;
  uint64_t sector;
  uint32_t bytes, action, pid;
  gboolean dropped; /* a G or I of a request merged into another (see rq_merged()) */
  uint16_t pdu_len;
  char pdu[TASK_COMM_LEN];
} Record;

/* A request not yet issued: where its G and I records are, and the bio it
 * was made for (G's sector and size). */
typedef struct {
  gint64 sector; /* the key: the request's first sector now */
  uint32_t cpu;
  guint g, i; /* record indices in that CPU's array; i = G_MAXUINT before I */
  uint64_t bio_sector;
  uint32_t bio_bytes;
} Pending;

static guint record(PcsBlktrace *bt, uint32_t cpu, PcsTime t, uint64_t sector, uint32_t bytes, uint32_t action,
                    uint32_t pid, const void *pdu, uint16_t pdu_len) {
  GArray *a = g_ptr_array_index(bt->cpu, cpu);
  Record r = {t, sector, bytes, action, pid, FALSE, pdu_len, {0}};
  g_assert(pdu_len <= sizeof r.pdu);
  if (pdu_len) memcpy(r.pdu, pdu, pdu_len);
  g_array_append_val(a, r);
  return a->len - 1;
}

static void put32(GByteArray *a, uint32_t v) {
  guint8 b[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24};
  g_byte_array_append(a, b, 4);
}

static void put64(GByteArray *a, uint64_t v) {
  put32(a, (uint32_t)v);
  put32(a, (uint32_t)(v >> 32));
}

/* CPU's records as struct blk_io_trace, little-endian, each followed by
 * its PDU, numbered from 0. */
static GByteArray *cpu_bytes(const PcsBlktrace *bt, uint32_t cpu) {
  const GArray *recs = g_ptr_array_index(bt->cpu, cpu);
  GByteArray *a = g_byte_array_sized_new(recs->len * 48);
  uint32_t seq = 0;
  for (guint k = 0; k < recs->len; k++) {
    const Record *r = &g_array_index(recs, Record, k);
    if (r->dropped) continue;
    put32(a, BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION);
    put32(a, seq++);
    put64(a, r->t);
    put64(a, r->sector);
    put32(a, r->bytes);
    put32(a, r->action);
    put32(a, r->pid);
    put32(a, DEVICE);
    put32(a, cpu);
    guint8 tail[4] = {0, 0, r->pdu_len & 0xff, r->pdu_len >> 8}; /* error = 0, pdu_len */
    g_byte_array_append(a, tail, 4);
    if (r->pdu_len) g_byte_array_append(a, (const guint8 *)r->pdu, r->pdu_len);
  }
  return a;
}

static uint32_t pid_of(const PcsBlktrace *bt, uint32_t thread) {
  if (thread == PCS_NO_THREAD) return 0;
  g_assert(thread >= 1 && thread <= bt->nreaders); /* only readers queue, merge and insert */
  return 1000 + thread;
}

static uint32_t cpu_of(const PcsBlktrace *bt, uint32_t thread) {
  return thread == PCS_NO_THREAD ? 0 : (thread - 1) % bt->ncpu;
}

static void note_process(PcsBlktrace *bt, uint32_t thread, const char *comm) {
  char name[TASK_COMM_LEN] = {0};
  g_strlcpy(name, comm, sizeof name);
  record(bt, cpu_of(bt, thread), 0, 0, 0, TN_PROCESS | TC(TC_NOTIFY), pid_of(bt, thread), name, sizeof name);
}

void pcs_blktrace_init(PcsBlktrace *bt, uint32_t ncpu, uint32_t nreaders) {
  bt->ncpu = MAX(ncpu, 1);
  bt->nreaders = nreaders;
  bt->ctx_time = 0;
  bt->ctx_thread = PCS_NO_THREAD;
  bt->cpu = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  for (uint32_t c = 0; c < bt->ncpu; c++) g_ptr_array_add(bt->cpu, g_array_new(FALSE, FALSE, sizeof(Record)));
  bt->rqs = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
  note_process(bt, PCS_NO_THREAD, "kworker/0:1H"); /* dispatch and completion */
  for (uint32_t t = 1; t <= nreaders; t++) note_process(bt, t, "fio");
}

void pcs_blktrace_clear(PcsBlktrace *bt) {
  g_clear_pointer(&bt->cpu, g_ptr_array_unref);
  g_clear_pointer(&bt->rqs, g_hash_table_unref);
}

static Pending *pending(PcsBlktrace *bt, uint64_t sector) {
  gint64 key = (gint64)sector;
  return g_hash_table_lookup(bt->rqs, &key);
}

/* The request's records and its place in the table, as the model reports
 * it: G makes it, a front merge moves its first sector, I inserts it, D
 * issues it (it leaves the table). */
static void rq_track(PcsBlktrace *bt, PcsTraceKind kind, uint64_t a, uint64_t b, uint32_t cpu, guint idx) {
  Pending *p;
  switch (kind) {
  case PCS_TRACE_REQUEST:
    p = g_new0(Pending, 1);
    *p = (Pending){(gint64)a, cpu, idx, G_MAXUINT, a, (uint32_t)(b * PCS_SECTOR_SIZE)};
    g_hash_table_replace(bt->rqs, &p->sector, p);
    break;
  case PCS_TRACE_FRONTMERGE: /* the request after the bio now starts at the bio */
    if ((p = pending(bt, (a + b) * PCS_SECTORS_PER_PAGE))) {
      g_hash_table_steal(bt->rqs, &p->sector);
      p->sector = (gint64)(a * PCS_SECTORS_PER_PAGE);
      g_hash_table_replace(bt->rqs, &p->sector, p);
    }
    break;
  case PCS_TRACE_RQ_INSERT:
    if ((p = pending(bt, a)) && p->cpu == cpu) p->i = idx;
    break;
  case PCS_TRACE_DISPATCH:
    if ((p = pending(bt, a))) g_hash_table_remove(bt->rqs, &p->sector);
    break;
  default: break;
  }
}

/* The request at SECTOR was merged into the one before it (rq_merge): its
 * bios leave with that request, so it gets no D and no C of its own.  Its
 * G and I are dropped and the bio that made it is written as a back merge
 * (M) now, so every bio reads Q then G or M, every G has an I, D and C,
 * and btt pairs D2C once per request.  (The kernel of v3.5 writes the G and
 * I and then no M for such a request; since 5.x it writes an M for the
 * request, block_rq_merge.  Neither lets btt count requests.) */
static void rq_merged(PcsBlktrace *bt, PcsTime t, uint32_t thread, uint64_t sector) {
  Pending *p = pending(bt, sector);
  if (!p) return;
  GArray *a = g_ptr_array_index(bt->cpu, p->cpu);
  g_array_index(a, Record, p->g).dropped = TRUE;
  if (p->i != G_MAXUINT) g_array_index(a, Record, p->i).dropped = TRUE;
  uint32_t what = p->bio_sector >= PCS_META_FIRST_SECTOR ? TC(TC_META) : TC(TC_AHEAD);
  record(bt, cpu_of(bt, thread), t, p->bio_sector, p->bio_bytes, TA_BACKMERGE | TC(TC_QUEUE) | TC(TC_READ) | what,
         pid_of(bt, thread), NULL, 0);
  g_hash_table_remove(bt->rqs, &p->sector);
}

void pcs_blktrace_event(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  PcsBlktrace *bt = user;
  uint32_t action;
  uint64_t sector = a, bytes = b * PCS_SECTOR_SIZE; /* requests: a = first sector, b = sectors */
  switch (kind) {
  case PCS_TRACE_SUBMIT: action = TA_QUEUE | TC(TC_QUEUE); break;
  case PCS_TRACE_BACKMERGE: action = TA_BACKMERGE | TC(TC_QUEUE); break;
  case PCS_TRACE_FRONTMERGE: action = TA_FRONTMERGE | TC(TC_QUEUE); break;
  case PCS_TRACE_REQUEST: action = TA_GETRQ | TC(TC_QUEUE); break;
  case PCS_TRACE_RQ_INSERT: action = TA_INSERT | TC(TC_QUEUE); break;
  case PCS_TRACE_DISPATCH: action = TA_ISSUE | TC(TC_ISSUE); break;
  case PCS_TRACE_COMPLETE: action = TA_COMPLETE | TC(TC_COMPLETE); break;
  case PCS_TRACE_RQ_MERGE: rq_merged(bt, t, thread, a); return;
  default: return; /* page-cache and CPU events have no blktrace action */
  }
  if (kind == PCS_TRACE_SUBMIT || kind == PCS_TRACE_BACKMERGE || kind == PCS_TRACE_FRONTMERGE)
    sector = a * PCS_SECTORS_PER_PAGE, bytes = b * PCS_PAGE_SIZE; /* bios: a = first page, b = pages */
  if (kind == PCS_TRACE_DISPATCH) /* issued in the context that ran the queue */
    thread = t == bt->ctx_time ? bt->ctx_thread : PCS_NO_THREAD;
  bt->ctx_time = t;
  bt->ctx_thread = thread;
  uint32_t what = sector >= PCS_META_FIRST_SECTOR ? TC(TC_META) : TC(TC_AHEAD); /* a checksum leaf's read: "RM" */
  uint32_t cpu = cpu_of(bt, thread);
  guint idx = record(bt, cpu, t, sector, (uint32_t)bytes, action | TC(TC_READ) | what, pid_of(bt, thread), NULL, 0);
  rq_track(bt, kind, a, b, cpu, idx);
}

char *pcs_blktrace_name(const char *policy) {
  char *n = g_strdup(policy);
  for (char *p = n; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_') *p = '-';
  return n;
}

gboolean pcs_blktrace_write(const PcsBlktrace *bt, const char *dir, const char *name, GError **error) {
  gboolean created = g_mkdir(dir, 0755) == 0;
  if (!created && errno != EEXIST) { /* the folder, not its parents (pcs_cli_output_check()) */
    g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "--blktrace %s: cannot create the directory: %s", dir,
                g_strerror(errno));
    return FALSE;
  }
  g_autoptr(GPtrArray) tmps = g_ptr_array_new_with_free_func(g_free);
  gboolean ok = TRUE;
  for (uint32_t c = 0; ok && c < bt->ncpu; c++) {
    g_autoptr(GByteArray) a = cpu_bytes(bt, c);
    char *tmp = g_strdup_printf("%s/%s.blktrace.%u.tmp", dir, name, c);
    g_ptr_array_add(tmps, tmp);
    GError *e = NULL;
    if (!g_file_set_contents(tmp, (const char *)a->data, (gssize)a->len, &e)) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "--blktrace: %s", e->message);
      g_error_free(e);
      ok = FALSE;
    }
  }
  for (guint i = 0; i < tmps->len; i++) { /* all written: rename them all */
    const char *tmp = g_ptr_array_index(tmps, i);
    g_autofree char *final = g_strndup(tmp, strlen(tmp) - 4);
    if (ok && g_rename(tmp, final) != 0) {
      g_set_error(error, PCS_ERROR, PCS_ERROR_IO, "%s: cannot rename: %s", final, g_strerror(errno));
      ok = FALSE;
    }
    if (!ok) g_unlink(tmp);
  }
  if (!ok && created) g_rmdir(dir); /* no empty folder left behind */
  return ok;
}

void pcs_blktrace_remove(const PcsBlktrace *bt, const char *dir, const char *name) {
  for (uint32_t c = 0; c < bt->ncpu; c++) {
    g_autofree char *file = g_strdup_printf("%s/%s.blktrace.%u", dir, name, c);
    g_unlink(file);
  }
}
