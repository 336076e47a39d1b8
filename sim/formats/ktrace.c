/* ktrace.c - counting bios and requests in real kernel block traces.
 *
 * Models nothing; it is the measuring stick the model is held against.  A
 * bio is counted where the kernel's block_bio_queue tracepoint fires
 * (blkparse's Q: submit_bio() reaching the queue, before any split or
 * merge), a request where block_rq_issue fires (blkparse's D: the driver
 * taking it), the same points as pcsim's `bios` and `requests`.  Only reads
 * are counted; metadata (rwbs with M) is kept apart because pcsim models
 * file data only.  .gz files are decompressed with GIO's zlib converter.
 */
#include "pcsim/ktrace.h"
#include "pcsim/text.h"
#include "pcsim/units.h"

#include <gio/gio.h>
#include <string.h>

typedef enum { EV_NONE, EV_BIO, EV_REQUEST } EventKind;

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
  for (guint i = 0; w[i]; i++) {
    EventKind k = !strcmp(w[i], "block_bio_queue:") ? EV_BIO : !strcmp(w[i], "block_rq_issue:") ? EV_REQUEST : EV_NONE;
    if (k != EV_NONE) {
      *rwbs_at = i + 2;
      return k;
    }
  }
  return EV_NONE;
}

/* blkparse default output: "DEV CPU SEQ TIME PID ACTION RWBS SECTOR + NR [PROC]" */
static EventKind blkparse_event(char **w, guint *rwbs_at) {
  if (g_strv_length(w) < 8 || !strchr(w[0], ',') || !strchr(w[3], '.')) return EV_NONE;
  *rwbs_at = 6;
  return !strcmp(w[5], "Q") ? EV_BIO : !strcmp(w[5], "D") ? EV_REQUEST : EV_NONE;
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

static gboolean count_line(PcsKtrace *t, const char *line, guint no, GError **error) {
  g_auto(GStrv) w = split_words(line);
  guint at = 0;
  EventKind k = ftrace_event(w, &at);
  const char *format = "ftrace";
  const char *task = w[0]; /* ftrace: "COMM-PID"; blkparse: the PID column */
  if (k == EV_NONE) k = blkparse_event(w, &at), format = "blkparse", task = k == EV_NONE ? NULL : w[4];
  if (k == EV_NONE) return TRUE;
  uint64_t sector, nr;
  if (at >= g_strv_length(w) || !sector_range(w, at + 1, &sector, &nr))
    return pcs_input_error(error, t->path, no, "%s event without 'SECTOR + NR': %s", k == EV_BIO ? "bio" : "request",
                           line);
  t->format = format;
  const char *rwbs = w[at];
  if (!strchr(rwbs, 'R')) return TRUE; /* writes, flushes, discards */
  gboolean meta = strchr(rwbs, 'M') != NULL;
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
  memset(t, 0, sizeof *t);
  t->path = g_strdup(path);
  t->bio_pages_hist = g_array_new(FALSE, TRUE, sizeof(guint64));
  t->tasks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (!pcs_text_check(path, text, len, NULL)) /* the one text check, with a hint for blktrace files */
    return pcs_input_error(error, path, 1, "not a text trace (binary data; a blktrace file needs blkparse first)");
  g_autofree char *copy = g_strndup(text, len);
  g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (!count_line(t, lines[i], i + 1, error)) return FALSE;
  t->c.threads = g_hash_table_size(t->tasks);
  if (!t->format)
    return pcs_input_error(error, path, 0, "no block_bio_queue/block_rq_issue (ftrace) or Q/D (blkparse) events");
  return TRUE;
}

/* Whole file, gunzipped when it starts with the gzip magic. */
gboolean pcs_ktrace_load(PcsKtrace *t, const char *path, GError **error) {
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!pcs_text_read(path, PCS_TEXT_GZIP, &text, &len, error)) {
    memset(t, 0, sizeof *t);
    return FALSE;
  }
  return pcs_ktrace_load_text(t, path, text ? text : "", text ? len : 0, error);
}

void pcs_ktrace_clear(PcsKtrace *t) {
  g_clear_pointer(&t->path, g_free);
  g_clear_pointer(&t->bio_pages_hist, g_array_unref);
  g_clear_pointer(&t->tasks, g_hash_table_unref);
}
