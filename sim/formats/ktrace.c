/* ktrace.c - counting bios and requests in real kernel block traces.
 *
 * Models nothing; it is the measuring stick the model is held against.  A
 * bio is counted where the kernel's block_bio_queue tracepoint fires
 * (blkparse's Q: submit_bio() reaching the queue, before any split or
 * merge), a request where block_rq_issue fires (blkparse's D: the driver
 * taking it), the same points as pcsim's `bios` and `requests`.  Only reads
 * are counted; metadata (rwbs with M) is kept apart because pcsim models
 * file data only.  .gz files are decompressed with GIO's zlib converter.
 *
 * The mechanism events are read as the kernel prints them: block_rq_complete
 * (blk_mq_end_request(), paired with its block_rq_issue to time the device),
 * page_cache_sync_ra / page_cache_async_ra (mm/readahead.c entering
 * readahead) and mm_filemap_add_to_page_cache (__filemap_add_folio(): which
 * thread inserted which file page, into which physical frame).  Inserts are
 * kept as one small record per line, per file, until the end of the trace
 * tells which file is the data file; only then are they sorted by page and
 * walked, so memory follows the number of inserts, not the offsets a trace
 * claims.  Lines are read in place, one at a time, never all split at once.
 *
 * The data file is the one with the most insert lines, then the most
 * readahead lines (sync and async; the first seen wins a tie).  In the
 * kernel every readahead call on a file inserts that file's folios
 * (page_cache_ra_unbounded() / page_cache_ra_order() ->
 * filemap_add_folio()), while a file read without readahead, such as the
 * btrfs btree inode's metadata, has inserts only: with inserts, the most
 * inserted file is the one read ahead.  A trace without insert lines (a
 * reduced blocks/ trace, a capture made with --no-page-inserts) still names
 * the data file by its readahead lines, so its ra_sync, ra_async and window
 * (ra_pages) are those of its full trace; only the insert metrics are
 * missing (PcsKtraceMechanism.present stays FALSE, ra_present is TRUE).
 * page_cache_ra_order lines are not counted in the choice: default loading
 * does not read them, and both loadings must pick the same file.
 *
 * With PCS_KTRACE_KEEP_EVENTS (for `pcsim calibrate`, which needs times and
 * tasks, not counts) each line that matters is also kept as one small
 * PcsKtraceEvent; readahead and insert records of files other than the data
 * file are dropped at the end, when the data file is known.  page_cache_ra_order
 * (page_cache_ra_order() starting a window's folios) is read only then: it
 * counts nowhere.  Default loading keeps nothing and parses no timestamps
 * beyond the requests'.
 */
#include "pcsim/ktrace.h"
#include "pcsim/text.h"
#include "pcsim/units.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

typedef enum { EV_NONE, EV_BIO, EV_REQUEST, EV_COMPLETE, EV_RA_SYNC, EV_RA_ASYNC, EV_RA_ORDER, EV_INSERT } EventKind;

static const struct {
  const char *word;
  EventKind kind;
} ftrace_events[] = {
  {"block_bio_queue:", EV_BIO},
  {"block_rq_issue:", EV_REQUEST},
  {"block_rq_complete:", EV_COMPLETE},
  {"page_cache_sync_ra:", EV_RA_SYNC},
  {"page_cache_async_ra:", EV_RA_ASYNC},
  {"page_cache_ra_order:", EV_RA_ORDER}, /* kept as an event only (calibrate); counted nowhere */
  {"mm_filemap_add_to_page_cache:", EV_INSERT},
};

/* One page-cache insert line, kept until the data file is known. */
typedef struct {
  uint64_t pfn;
  uint32_t page;  /* ofs / PCS_PAGE_SIZE */
  uint32_t seq;   /* line order within its file: keeps the first insert first */
  uint32_t task;  /* index in PcsKtraceScan.task_names */
  uint8_t order;
} InsertRec;

/* A file (dev + ino) named by readahead or insert events. */
typedef struct {
  guint major, minor;
  uint64_t ino;
  uint64_t ra_sync, ra_async;
  uint64_t ra_pages; /* the largest ra_pages= its readahead events print */
  GArray *inserts; /* InsertRec, in line order */
  uint32_t index;  /* in PcsKtraceScan.files */
} TracedFile;

/* A data read request issued and not yet completed. */
typedef struct {
  guint major, minor;
  uint64_t sector, nr;
  uint64_t issued_ns;
} PendingRq;

struct PcsKtraceScan {
  GHashTable *files_by_id;  /* TracedFile (key == value) */
  GPtrArray *files;         /* the same, in first-appearance order; owns them */
  GHashTable *task_ids;     /* "COMM-PID" -> index + 1 */
  GPtrArray *task_names;    /* index -> "COMM-PID" */
  GHashTable *pending;      /* PendingRq (key == value), owns them */
  gboolean keep;            /* PCS_KTRACE_KEEP_EVENTS: fill PcsKtrace.events */
};

static const char *const event_names[] = {
#define X(name, text) text,
  PCS_KTRACE_EVENT_KINDS(X)
#undef X
};

const char *pcs_ktrace_event_name(PcsKtraceEventKind k) {
  g_assert((size_t)k < G_N_ELEMENTS(event_names));
  return event_names[k];
}

/* "SECTOR + NR" somewhere in WORDS from index FROM. */
static gboolean sector_range(char **words, guint from, uint64_t *sector, uint64_t *nr) {
  for (guint i = from; words[i] && words[i + 1]; i++)
    if (!strcmp(words[i + 1], "+") && words[i + 2])
      return pcs_parse_u64(words[i], sector) && pcs_parse_u64(words[i + 2], nr);
  return FALSE;
}

static char **split_words(const char *line) {
  char **w = g_strsplit_set(line, " \t", -1);
  guint n = 0;
  for (guint i = 0; w[i]; i++) {
    if (*w[i]) w[n++] = w[i];
    else g_free(w[i]);
  }
  w[n] = NULL;
  return w;
}

/* ftrace: "... block_bio_queue: DEV RWBS ..." */
static EventKind ftrace_event(char **w, guint *rwbs_at) {
  for (guint i = 0; w[i]; i++)
    for (size_t e = 0; e < G_N_ELEMENTS(ftrace_events); e++)
      if (!strcmp(w[i], ftrace_events[e].word)) {
        *rwbs_at = i + 2;
        return ftrace_events[e].kind;
      }
  return EV_NONE;
}

/* blkparse default output: "DEV CPU SEQ TIME PID ACTION RWBS SECTOR + NR [PROC]" */
static EventKind blkparse_event(char **w, guint *rwbs_at) {
  if (g_strv_length(w) < 8 || !strchr(w[0], ',') || !strchr(w[3], '.')) return EV_NONE;
  *rwbs_at = 6;
  return !strcmp(w[5], "Q") ? EV_BIO : !strcmp(w[5], "D") ? EV_REQUEST : !strcmp(w[5], "C") ? EV_COMPLETE : EV_NONE;
}

/* A data bio of NR sectors queued by TASK, in trace order. */
static void count_data_bio(PcsKtrace *t, const char *task, uint64_t nr) {
  t->c.bios++;
  t->c.sectors += nr;
  guint pages = (guint)MIN((nr + PCS_SECTORS_PER_PAGE - 1) / PCS_SECTORS_PER_PAGE, 1u << 20);
  if (t->bio_pages_hist->len <= pages) g_array_set_size(t->bio_pages_hist, pages + 1);
  g_array_index(t->bio_pages_hist, guint64, pages)++;
  if (!g_hash_table_contains(t->tasks, task)) g_hash_table_add(t->tasks, g_strdup(task));
  pcs_large_bio_watch(&t->large, nr);
}

/* ---- parsing the fields of the mechanism events ---- */

/* "MAJ<SEP>MIN", e.g. "7,0" (block) or "0:40" (readahead, filemap). */
static gboolean parse_dev(const char *s, char sep, guint *major, guint *minor) {
  char *end;
  if (!s || !g_ascii_isdigit(*s)) return FALSE;
  guint64 a = g_ascii_strtoull(s, &end, 10);
  if (*end != sep || !g_ascii_isdigit(end[1])) return FALSE;
  guint64 b = g_ascii_strtoull(end + 1, &end, 10);
  if (*end || a > G_MAXUINT || b > G_MAXUINT) return FALSE;
  *major = (guint)a, *minor = (guint)b;
  return TRUE;
}

/* Hex digits only (the kernel's %lx), whole word. */
static gboolean parse_hex(const char *s, uint64_t *out) {
  if (!s || !g_ascii_isxdigit(*s) || strlen(s) > 16) return FALSE;
  for (const char *c = s; *c; c++)
    if (!g_ascii_isxdigit(*c)) return FALSE;
  *out = g_ascii_strtoull(s, NULL, 16);
  return TRUE;
}

/* ftrace's "SECONDS.FRACTION:" (blkparse's without the colon) as integer
 * nanoseconds: up to 9 fraction digits, no floating point. */
static gboolean parse_timestamp(const char *s, uint64_t *ns) {
  uint64_t sec = 0, frac = 0;
  guint digits = 0;
  const char *c = s;
  if (!c || !g_ascii_isdigit(*c)) return FALSE;
  for (; g_ascii_isdigit(*c); c++) {
    if (sec > UINT64_MAX / 1000000000u / 10u) return FALSE;
    sec = sec * 10 + (uint64_t)(*c - '0');
  }
  if (*c++ != '.') return FALSE;
  for (; g_ascii_isdigit(*c) && digits < 9; c++, digits++) frac = frac * 10 + (uint64_t)(*c - '0');
  if (!digits || (*c == ':' ? c[1] : *c)) return FALSE;
  for (; digits < 9; digits++) frac *= 10;
  *ns = sec * 1000000000u + frac;
  return TRUE;
}

/* The value of "KEY=VALUE", or of "KEY VALUE", among W from FROM. */
static const char *field(char **w, guint from, const char *key) {
  size_t n = strlen(key);
  for (guint i = from; w[i]; i++) {
    if (!strncmp(w[i], key, n) && w[i][n] == '=') return w[i] + n + 1;
    if (!strcmp(w[i], key)) return w[i + 1];
  }
  return NULL;
}

/* ---- per-file tallies: readahead and insert lines ---- */

static guint file_hash(gconstpointer p) {
  const TracedFile *f = p;
  return g_int64_hash(&f->ino) ^ (f->major * 31u + f->minor);
}

static gboolean file_equal(gconstpointer a, gconstpointer b) {
  const TracedFile *x = a, *y = b;
  return x->ino == y->ino && x->major == y->major && x->minor == y->minor;
}

static void file_free(gpointer p) {
  TracedFile *f = p;
  g_array_unref(f->inserts);
  g_free(f);
}

static guint pending_hash(gconstpointer p) {
  const PendingRq *r = p;
  return g_int64_hash(&r->sector) ^ (guint)(r->nr * 2654435761u) ^ (r->major * 31u + r->minor);
}

static gboolean pending_equal(gconstpointer a, gconstpointer b) {
  const PendingRq *x = a, *y = b;
  return x->sector == y->sector && x->nr == y->nr && x->major == y->major && x->minor == y->minor;
}

static struct PcsKtraceScan *scan_new(void) {
  struct PcsKtraceScan *s = g_new0(struct PcsKtraceScan, 1);
  s->files_by_id = g_hash_table_new(file_hash, file_equal);
  s->files = g_ptr_array_new_with_free_func(file_free);
  s->task_ids = g_hash_table_new(g_str_hash, g_str_equal);
  s->task_names = g_ptr_array_new_with_free_func(g_free);
  s->pending = g_hash_table_new_full(pending_hash, pending_equal, g_free, NULL);
  return s;
}

static void scan_free(struct PcsKtraceScan *s) {
  g_hash_table_unref(s->files_by_id);
  g_ptr_array_unref(s->files);
  g_hash_table_unref(s->task_ids);
  g_ptr_array_unref(s->task_names);
  g_hash_table_unref(s->pending);
  g_free(s);
}

static TracedFile *traced_file(struct PcsKtraceScan *s, guint major, guint minor, uint64_t ino) {
  TracedFile key = {.major = major, .minor = minor, .ino = ino};
  TracedFile *f = g_hash_table_lookup(s->files_by_id, &key);
  if (!f) {
    f = g_memdup2(&key, sizeof key);
    f->index = s->files->len;
    f->inserts = g_array_new(FALSE, FALSE, sizeof(InsertRec));
    g_hash_table_add(s->files_by_id, f);
    g_ptr_array_add(s->files, f);
  }
  return f;
}

static uint32_t task_id(struct PcsKtraceScan *s, const char *task) {
  gpointer id = g_hash_table_lookup(s->task_ids, task);
  if (id) return GPOINTER_TO_UINT(id) - 1;
  char *name = g_strdup(task);
  g_ptr_array_add(s->task_names, name);
  g_hash_table_insert(s->task_ids, name, GUINT_TO_POINTER(s->task_names->len));
  return s->task_names->len - 1;
}

/* A readahead entry on file F kept as an event (file index in dev until the
 * data file is known); its ra_pages field, when printed, in size. */
static gboolean keep_ra(PcsKtrace *t, EventKind k, const TracedFile *f, char **w, guint from, const char *line,
                        guint no, GError **error) {
  uint64_t ns, ra_pages = 0, index = 0;
  const char *rp = field(w, from, "ra_pages"), *ix = field(w, from, "index");
  if (from < 2 || !parse_timestamp(w[from - 2], &ns))
    return pcs_input_error(error, t->path, no, "readahead event without a timestamp 'SECONDS.FRACTION:': %s", line);
  if ((rp && (!pcs_parse_u64(rp, &ra_pages) || ra_pages > G_MAXUINT32)) || (ix && !pcs_parse_u64(ix, &index)))
    return pcs_input_error(error, t->path, no, "readahead event with a bad 'ra_pages=' or 'index=': %s", line);
  PcsKtraceEvent e = {.time_ns = ns, .where = index, .size = (uint32_t)ra_pages, .task = task_id(t->scan, w[0]),
                      .dev = f->index,
                      .kind = k == EV_RA_SYNC ? PCS_KEV_RA_SYNC : k == EV_RA_ASYNC ? PCS_KEV_RA_ASYNC : PCS_KEV_RA_ORDER};
  g_array_append_val(t->events, e);
  return TRUE;
}

/* A block event kept: a data bio, or a read request issue or complete. */
static gboolean keep_block(PcsKtrace *t, EventKind k, char **w, guint at, gboolean ftrace, const char *task,
                           uint64_t sector, uint64_t nr, gboolean meta, const char *line, guint no, GError **error) {
  uint64_t ns;
  guint major = 0, minor = 0;
  if ((ftrace && at < 3) || !parse_timestamp(w[ftrace ? at - 3 : 3], &ns))
    return pcs_input_error(error, t->path, no, "block event without a timestamp 'SECONDS.FRACTION': %s", line);
  if (!parse_dev(w[ftrace ? at - 1 : 0], ',', &major, &minor) || major >= 4096 || minor >= (1u << 20))
    return pcs_input_error(error, t->path, no, "block event without a device 'MAJOR,MINOR': %s", line);
  PcsKtraceEvent e = {.time_ns = ns, .where = sector, .size = (uint32_t)MIN(nr, G_MAXUINT32),
                      .task = task_id(t->scan, task), .dev = major << 20 | minor,
                      .kind = k == EV_BIO ? PCS_KEV_BIO : k == EV_REQUEST ? PCS_KEV_RQ_ISSUE : PCS_KEV_RQ_COMPLETE,
                      .meta = (uint8_t)meta};
  g_array_append_val(t->events, e);
  return TRUE;
}

#define MAX_FOLIO_ORDER PCS_KTRACE_MAX_FOLIO_ORDER

/* page_cache_{sync,async}_ra: "dev=0:40 ino=101 ..."; mm_filemap_add_to_page_cache:
 * "dev 0:40 ino 101 pfn=0x126cf1 ofs=0 order=0", fields from W[FROM]. */
static gboolean mechanism_line(PcsKtrace *t, EventKind k, char **w, guint from, const char *line, guint no,
                               GError **error) {
  const char *name = k == EV_RA_SYNC    ? "page_cache_sync_ra"
                     : k == EV_RA_ASYNC   ? "page_cache_async_ra"
                     : k == EV_RA_ORDER   ? "page_cache_ra_order"
                                          : "mm_filemap_add_to_page_cache";
  guint major, minor;
  uint64_t ino;
  if (!parse_dev(field(w, from, "dev"), ':', &major, &minor) || !parse_hex(field(w, from, "ino"), &ino))
    return pcs_input_error(error, t->path, no, "%s event without 'dev MAJOR:MINOR' and hex 'ino INODE': %s", name,
                           line);
  TracedFile *f = traced_file(t->scan, major, minor, ino);
  if (k == EV_RA_ORDER) return keep_ra(t, k, f, w, from, line, no, error); /* read only with KEEP_EVENTS */
  if (k == EV_RA_SYNC || k == EV_RA_ASYNC) {
    *(k == EV_RA_SYNC ? &f->ra_sync : &f->ra_async) += 1;
    uint64_t ra_pages;
    if (pcs_parse_u64(field(w, from, "ra_pages"), &ra_pages)) f->ra_pages = MAX(f->ra_pages, ra_pages);
    return !t->scan->keep || keep_ra(t, k, f, w, from, line, no, error);
  }
  const char *pfn = field(w, from, "pfn"), *order = field(w, from, "order");
  InsertRec r = {.seq = f->inserts->len};
  uint64_t ofs, ord = 0;
  if (!pfn || g_ascii_strncasecmp(pfn, "0x", 2) || !parse_hex(pfn + 2, &r.pfn))
    return pcs_input_error(error, t->path, no, "%s event without a hex 'pfn=0x...': %s", name, line);
  if (!pcs_parse_u64(field(w, from, "ofs"), &ofs) || ofs % PCS_PAGE_SIZE || ofs / PCS_PAGE_SIZE > G_MAXUINT32)
    return pcs_input_error(error, t->path, no, "%s event without 'ofs=BYTES' (a multiple of %u, under 16 TiB): %s",
                           name, PCS_PAGE_SIZE, line);
  if (order && (!pcs_parse_u64(order, &ord) || ord > MAX_FOLIO_ORDER))
    return pcs_input_error(error, t->path, no, "%s event with 'order=%s', expected 0 to %d: %s", name, order,
                           MAX_FOLIO_ORDER, line);
  r.page = (uint32_t)(ofs / PCS_PAGE_SIZE);
  r.order = (uint8_t)ord;
  r.task = task_id(t->scan, w[0]);
  g_array_append_val(f->inserts, r);
  if (t->scan->keep) {
    uint64_t ns;
    if (from < 2 || !parse_timestamp(w[from - 2], &ns))
      return pcs_input_error(error, t->path, no, "%s event without a timestamp 'SECONDS.FRACTION:' before it: %s",
                             name, line);
    PcsKtraceEvent e = {.time_ns = ns, .where = r.page, .pfn = r.pfn, .size = 1u << r.order, .task = r.task,
                        .dev = f->index, .kind = PCS_KEV_INSERT};
    g_array_append_val(t->events, e);
  }
  return TRUE;
}

/* ---- device service time: block_rq_issue -> block_rq_complete ---- */

static void device_issue(PcsKtrace *t, guint major, guint minor, uint64_t sector, uint64_t nr, uint64_t ns) {
  PendingRq key = {major, minor, sector, nr, ns};
  PendingRq *r = g_hash_table_lookup(t->scan->pending, &key);
  if (r) { /* issued again before completing (a requeue): time the later issue */
    t->dev.uncompleted_issues++;
    r->issued_ns = ns;
    return;
  }
  g_hash_table_add(t->scan->pending, g_memdup2(&key, sizeof key));
  t->dev.max_in_flight = MAX(t->dev.max_in_flight, g_hash_table_size(t->scan->pending));
}

static void device_complete(PcsKtrace *t, guint major, guint minor, uint64_t sector, uint64_t nr, uint64_t ns) {
  PendingRq key = {major, minor, sector, nr, 0};
  PendingRq *r = g_hash_table_lookup(t->scan->pending, &key);
  t->dev.present = TRUE;
  if (!r) {
    t->dev.unissued_completes++;
    return;
  }
  /* The default trace clock is per CPU: a complete may read a few us
   * earlier than its issue on another CPU; such a time counts as 0. */
  uint64_t service = ns > r->issued_ns ? ns - r->issued_ns : 0;
  uint64_t us = service / PCS_NS_PER_US;
  guint bucket = us < 2 ? 0 : MIN(g_bit_storage(us) - 1, PCS_KTRACE_LATENCY_BUCKETS - 1);
  t->dev.latency_us_hist[bucket]++;
  t->dev.timed++;
  t->dev.timed_sectors += nr;
  t->dev.service_ns += service;
  g_hash_table_remove(t->scan->pending, r);
}

/* A data request issue or complete of a block line: device and time from
 * DEV_AT and TS_AT. */
static gboolean device_line(PcsKtrace *t, EventKind k, char **w, guint dev_at, guint ts_at, uint64_t sector,
                            uint64_t nr, const char *line, guint no, GError **error) {
  guint major, minor;
  uint64_t ns;
  if (!parse_dev(w[dev_at], ',', &major, &minor))
    return pcs_input_error(error, t->path, no, "request event without a device 'MAJOR,MINOR': %s", line);
  if (!parse_timestamp(w[ts_at], &ns))
    return pcs_input_error(error, t->path, no, "request event without a timestamp 'SECONDS.FRACTION': %s", line);
  (k == EV_COMPLETE ? device_complete : device_issue)(t, major, minor, sector, nr, ns);
  return TRUE;
}

/* ---- the end of the trace: pick the data file, walk its pages ---- */

static int insert_by_page(gconstpointer a, gconstpointer b) {
  const InsertRec *x = a, *y = b;
  if (x->page != y->page) return x->page < y->page ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* MiB each thread inserted, in order of its first insert on the file. */
static void inserted_per_thread(PcsKtrace *t, const GArray *recs) {
  guint n = t->scan->task_names->len;
  g_autofree uint64_t *pages = g_new0(uint64_t, n);
  g_autofree uint32_t *order = g_new0(uint32_t, n);
  guint seen = 0;
  for (guint i = 0; i < recs->len; i++) {
    const InsertRec *r = &g_array_index(recs, InsertRec, i);
    if (!pages[r->task]) order[seen++] = r->task;
    pages[r->task] += (uint64_t)1 << r->order;
    t->mech.inserted_pages += (uint64_t)1 << r->order;
    t->mech.inserts_by_order[r->order]++;
  }
  for (guint i = 0; i < seen; i++) {
    PcsKtraceThreadMib m = {g_strdup(g_ptr_array_index(t->scan->task_names, order[i])),
                            (double)pages[order[i]] * PCS_PAGE_SIZE / PCS_MIB};
    g_array_append_val(t->mech.inserted_mib_per_thread, m);
  }
}

/* Over the file's pages in index order, each folio expanded in O(1): pairs
 * (i, i+1) both inserted, those with another owner, those in adjacent
 * frames.  A page covered twice keeps its first insert. */
static void walk_pages(PcsKtraceMechanism *m, GArray *recs) {
  g_array_sort(recs, insert_by_page);
  gboolean have = FALSE;
  uint64_t last = 0, last_pfn = 0; /* last page covered, its frame */
  uint32_t last_task = 0;
  for (guint i = 0; i < recs->len; i++) {
    const InsertRec *r = &g_array_index(recs, InsertRec, i);
    uint64_t first = r->page, end = first + ((uint64_t)1 << r->order) - 1;
    if (have && end <= last) continue;
    uint64_t from = have ? MAX(first, last + 1) : first, from_pfn = r->pfn + (from - first);
    if (have && from == last + 1) {
      m->page_pairs++;
      m->owner_changes += r->task != last_task;
      m->contiguous_pairs += from_pfn == last_pfn + 1;
    }
    m->page_pairs += end - from; /* inside one folio: one owner, adjacent frames */
    m->contiguous_pairs += end - from;
    have = TRUE, last = end, last_pfn = r->pfn + (end - first), last_task = r->task;
  }
  m->file_pages = have ? last + 1 : 0;
}

/* Kept events: readahead and inserts of the data file only (DATA may be
 * NULL: none), their dev the data file's; the task names handed over. */
static void finish_events(PcsKtrace *t, const TracedFile *data) {
  guint n = 0;
  for (guint i = 0; i < t->events->len; i++) {
    PcsKtraceEvent e = g_array_index(t->events, PcsKtraceEvent, i);
    gboolean file_event = e.kind == PCS_KEV_INSERT || e.kind == PCS_KEV_RA_SYNC || e.kind == PCS_KEV_RA_ASYNC ||
                          e.kind == PCS_KEV_RA_ORDER;
    if (file_event && (!data || e.dev != data->index)) continue;
    if (file_event) e.dev = data->major << 20 | (data->minor & 0xfffffu);
    g_array_index(t->events, PcsKtraceEvent, n++) = e;
  }
  g_array_set_size(t->events, n);
  t->event_tasks = g_ptr_array_ref(t->scan->task_names);
}

/* Is F more the data file than BEST: more insert lines, or as many (none,
 * in a trace without them) and more readahead lines?  See the top. */
static gboolean more_data(const TracedFile *f, const TracedFile *best) {
  if (f->inserts->len != best->inserts->len) return f->inserts->len > best->inserts->len;
  return f->ra_sync + f->ra_async > best->ra_sync + best->ra_async;
}

static void finish_mechanism(PcsKtrace *t) {
  TracedFile *data = NULL;
  for (guint i = 0; i < t->scan->files->len; i++) {
    TracedFile *f = g_ptr_array_index(t->scan->files, i);
    if (!data || more_data(f, data)) data = f;
  }
  if (data && !data->inserts->len && !data->ra_sync && !data->ra_async) data = NULL; /* page_cache_ra_order only */
  if (t->events) finish_events(t, data);
  if (!data) return;
  PcsKtraceMechanism *m = &t->mech;
  m->ra_present = TRUE;
  m->dev_major = data->major, m->dev_minor = data->minor, m->ino = data->ino;
  m->ra_sync = data->ra_sync, m->ra_async = data->ra_async;
  m->ra_pages = data->ra_pages;
  for (guint i = 0; i < t->scan->files->len; i++) {
    TracedFile *f = g_ptr_array_index(t->scan->files, i);
    *(f == data ? &m->inserts : &m->other_inserts) += f->inserts->len;
  }
  if (!data->inserts->len) return; /* no insert lines: readahead only */
  m->present = TRUE;
  inserted_per_thread(t, data->inserts);
  walk_pages(m, data->inserts);
  m->owner_changes_per_mib = pcs_per((double)m->owner_changes, (double)m->file_pages * PCS_PAGE_SIZE / PCS_MIB);
  m->contiguous_frames = pcs_per((double)m->contiguous_pairs, (double)m->page_pairs);
}

static void finish_device(PcsKtrace *t) {
  PcsKtraceDevice *d = &t->dev;
  d->uncompleted_issues += g_hash_table_size(t->scan->pending);
  double ms = (double)d->service_ns / 1e6;
  d->device_ms_per_mib = pcs_per(ms, (double)d->timed_sectors * PCS_SECTOR_SIZE / PCS_MIB);
  d->device_mean_us = pcs_per((double)d->service_ns / PCS_NS_PER_US, (double)d->timed);
}

/* A trace that lost events: ftrace's "CPU:N [LOST M EVENTS]" line where a
 * CPU's ring buffer overran ("[LOST EVENTS]" when uncounted, trace-cmd's
 * "[N EVENTS DROPPED]"), or a header whose entries-written exceed the
 * entries left in the buffer.  Its counts would be low: bad input. */
static gboolean lost_events(const PcsKtrace *t, const char *line, guint no, GError **error) {
  guint64 in_buffer = 0, written = 0, lost = 0;
  int cpu = 0;
  if (line[0] == '#' && sscanf(line, "# entries-in-buffer/entries-written: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                               &in_buffer, &written) == 2 && written > in_buffer)
    return pcs_input_error(error, t->path, no, "the trace lost %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                           " events (ftrace's ring buffer overran): its counts would be low; capture it again with a "
                           "larger buffer_size_kb (pcsim-capture-kernel-trace --buffer-kb)", written - in_buffer, written);
  char tail[16] = "";
  if (line[0] != 'C' || sscanf(line, "CPU:%d [%15[^]]", &cpu, tail) != 2) return TRUE;
  /* print_trace_line(): "[LOST N EVENTS]", or "[LOST EVENTS]" when the count is unknown; trace-cmd's
   * "[N EVENTS DROPPED]" */
  gboolean counted = sscanf(line, "CPU:%d [LOST %" G_GUINT64_FORMAT " EVENTS]", &cpu, &lost) == 2 ||
                     sscanf(line, "CPU:%d [%" G_GUINT64_FORMAT " EVENTS DROPPED]", &cpu, &lost) == 2;
  if (!counted && strcmp(tail, "LOST EVENTS")) return TRUE;
  g_autofree char *how = counted ? g_strdup_printf("%" G_GUINT64_FORMAT, lost) : g_strdup("an unknown number of");
  return pcs_input_error(error, t->path, no, "CPU %d lost %s events here (ftrace's ring buffer overran): the trace's "
                         "counts would be low; capture it again with a larger buffer_size_kb "
                         "(pcsim-capture-kernel-trace --buffer-kb)", cpu, how);
}

static gboolean count_line(PcsKtrace *t, const char *line, guint no, GError **error) {
  if ((line[0] == '#' || line[0] == 'C') && !lost_events(t, line, no, error)) return FALSE;
  g_auto(GStrv) w = split_words(line);
  guint at = 0;
  EventKind k = ftrace_event(w, &at);
  const char *format = "ftrace";
  const char *task = w[0]; /* ftrace: "COMM-PID"; blkparse: the PID column */
  if (k == EV_NONE) k = blkparse_event(w, &at), format = "blkparse", task = k == EV_NONE ? NULL : w[4];
  if (k == EV_NONE) return TRUE;
  if (k == EV_RA_ORDER && !t->scan->keep) return TRUE; /* page_cache_ra_order: only calibrate reads it */
  if (k == EV_RA_SYNC || k == EV_RA_ASYNC || k == EV_RA_ORDER || k == EV_INSERT)
    return mechanism_line(t, k, w, at - 1, line, no, error);
  uint64_t sector, nr;
  if (at >= g_strv_length(w) || !sector_range(w, at + 1, &sector, &nr))
    return pcs_input_error(error, t->path, no, "%s event without 'SECTOR + NR': %s", k == EV_BIO ? "bio" : "request",
                           line);
  const char *rwbs = w[at];
  gboolean meta = strchr(rwbs, 'M') != NULL;
  if (t->scan->keep && strchr(rwbs, 'R') &&
      !keep_block(t, k, w, at, !strcmp(format, "ftrace"), task, sector, nr, meta, line, no, error))
    return FALSE;
  if (strchr(rwbs, 'R') && !meta && (k == EV_REQUEST || k == EV_COMPLETE)) {
    gboolean ftrace = !strcmp(format, "ftrace"); /* ftrace: TIME: EVENT DEV RWBS; blkparse: DEV . . TIME */
    if (ftrace && at < 3)
      return pcs_input_error(error, t->path, no, "request event without a timestamp before it: %s", line);
    if (!device_line(t, k, w, ftrace ? at - 1 : 0, ftrace ? at - 3 : 3, sector, nr, line, no, error)) return FALSE;
  }
  if (k == EV_COMPLETE) return TRUE;
  t->format = format;
  if (!strchr(rwbs, 'R')) return TRUE; /* writes, flushes, discards */
  if (k == EV_BIO && !meta) {
    count_data_bio(t, task, nr);
  } else if (k == EV_BIO) {
    t->c.meta_bios++;
    t->c.meta_sectors += nr;
  } else {
    *(meta ? &t->c.meta_requests : &t->c.requests) += 1;
  }
  return TRUE;
}

gboolean pcs_ktrace_load_text(PcsKtrace *t, const char *path, const char *text, size_t len, GError **error) {
  return pcs_ktrace_load_text_flags(t, path, text, len, 0, error);
}

gboolean pcs_ktrace_load_text_flags(PcsKtrace *t, const char *path, const char *text, size_t len, guint flags,
                                    GError **error) {
  memset(t, 0, sizeof *t);
  t->path = g_strdup(path);
  t->bio_pages_hist = g_array_new(FALSE, TRUE, sizeof(guint64));
  t->tasks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  t->mech.inserted_mib_per_thread = g_array_new(FALSE, FALSE, sizeof(PcsKtraceThreadMib));
  if (!pcs_text_check(path, text, len, NULL)) /* the one text check, with a hint for blktrace files */
    return pcs_input_error(error, path, 1, "not a text trace (binary data; a blktrace file needs blkparse first)");
  t->scan = scan_new();
  t->scan->keep = (flags & PCS_KTRACE_KEEP_EVENTS) != 0;
  if (t->scan->keep) t->events = g_array_new(FALSE, FALSE, sizeof(PcsKtraceEvent));
  g_autoptr(GString) line = g_string_new(NULL);
  guint no = 0;
  for (size_t at = 0; at <= len; no++) { /* one line at a time: a 300 MB trace is not copied */
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    g_string_truncate(line, 0);
    g_string_append_len(line, text + at, (gssize)n);
    if (!count_line(t, line->str, no + 1, error)) return FALSE;
    at += n + 1;
  }
  t->c.threads = g_hash_table_size(t->tasks);
  if (!t->format)
    return pcs_input_error(error, path, 0, "no block_bio_queue/block_rq_issue (ftrace) or Q/D (blkparse) events");
  finish_mechanism(t);
  finish_device(t);
  g_clear_pointer(&t->scan, scan_free);
  return TRUE;
}

/* Whole file, gunzipped when it starts with the gzip magic. */
gboolean pcs_ktrace_load(PcsKtrace *t, const char *path, GError **error) {
  return pcs_ktrace_load_flags(t, path, 0, error);
}

gboolean pcs_ktrace_load_flags(PcsKtrace *t, const char *path, guint flags, GError **error) {
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!pcs_text_read(path, PCS_TEXT_GZIP, &text, &len, error)) {
    memset(t, 0, sizeof *t);
    return FALSE;
  }
  return pcs_ktrace_load_text_flags(t, path, text ? text : "", text ? len : 0, flags, error);
}

void pcs_ktrace_clear(PcsKtrace *t) {
  g_clear_pointer(&t->path, g_free);
  g_clear_pointer(&t->bio_pages_hist, g_array_unref);
  g_clear_pointer(&t->tasks, g_hash_table_unref);
  g_clear_pointer(&t->scan, scan_free);
  g_clear_pointer(&t->events, g_array_unref);
  g_clear_pointer(&t->event_tasks, g_ptr_array_unref);
  for (guint i = 0; t->mech.inserted_mib_per_thread && i < t->mech.inserted_mib_per_thread->len; i++)
    g_free(g_array_index(t->mech.inserted_mib_per_thread, PcsKtraceThreadMib, i).task);
  g_clear_pointer(&t->mech.inserted_mib_per_thread, g_array_unref);
}
