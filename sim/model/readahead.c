/* readahead.c - the on-demand readahead window of one open file.
 *
 * Mirrors mm/readahead.c of v3.1..v3.6: ondemand_readahead(),
 * get_init_ra_size(), get_next_ra_size() and __do_page_cache_readahead().
 *
 *          |<------------- size ------------->|
 *          |                 |<-- async_size ->|
 *   -------+-----------------+-----------------+------
 *        start           marker (PG_readahead)
 *
 * Each reader has its own state (struct file_ra_state), all share the page
 * cache.  A miss runs synchronous readahead; touching a marker runs
 * asynchronous readahead for the next window.  The result is a list of the
 * window's pages that were absent at lookup time, handed to ->readpages
 * (reader.c): they are not in the cache yet, the filesystem inserts them,
 * and that is where the threads race.
 *
 * Differs from the kernel: no thrashing detection, no mmap paths, and the
 * "standalone small random read" path reads req pages without a window (a
 * sequential reader never takes it).  Under v6.18 a synchronous readahead
 * keeps the reader's ra->order where page_cache_sync_ra() starts over at 0:
 * with that reset pcsim's four readers on ext4 and xfs run the kernel's
 * cycle of order-0 windows at full strength on every host, where the
 * kernel ran it on some (docs/notebook/2026-12-07-next-miss-walk.md).
 *
 * Under [scenario] kernel = v6.18 the entry points mirror mm/readahead.c of
 * 6.10 and later instead (page_cache_sync_ra(), page_cache_async_ra(),
 * page_cache_ra_order(), do_page_cache_ra(); read off the 6.17/6.18 source):
 *   - sync: a start of file, an oversized read or a sequential miss
 *     (index - prev_index <= 1, prev_pos being the end of the last read)
 *     restarts at get_init_ra_size(), async_size = size - req; there is no
 *     expected-index ramp on this path any more.  Otherwise context
 *     readahead: the cached run before index (page_cache_prev_miss(),
 *     doubled when it reaches the start of the file) sizes a window with
 *     async_size = 1; a run no longer than req reads req pages alone.
 *   - async: the expected index (start + size - async_size, rounded down to
 *     the marker folio's pages: 1 here) moves the window on; else the window
 *     starts where page_cache_next_miss() reports the first hole after
 *     index: the hole itself, or one page past it when the marked folio has
 *     2..32 pages (lib/xarray.c's walk, pcs_ra_next_miss()).  Then
 *     ra->order += 2 and the window end is rounded down to 1 << order
 *     pages (at most the window's own alignment), async_size = size.
 *   - page_cache_ra_order(): btrfs data in 6.18 has no large folios, so it
 *     resets ra->order to 0 and falls back to do_page_cache_ra(): every
 *     index of the window up to EOF, PG_readahead on index
 *     start + size - async_size.
 *     pcs_ra_order() is the whole of it, as a pure function, for a mapping
 *     with large folios (ext4 and xfs here: up to order 9): the order asked
 *     for clamped to the mapping's maximum and ilog2(size) and kept in
 *     ra->order; folios carved from start, each of that order unless the
 *     index is less aligned (__ffs(index)) or the folio would pass EOF (the
 *     order drops until it fits); PG_readahead on the folio at
 *     round_down(mark, 1 << order); the first insert that fails (a page of
 *     its range present) ends the loop and do_page_cache_ra() reads the
 *     rest of the window at order 0.  The simulation does not call it yet
 *     (btrfs only: its page state is one byte per page and order 0);
 *     tests/test_readahead.c holds it to the folios the kernel inserted.
 *   - the window is not filtered here: page_cache_ra_unbounded() looks each
 *     index up as it gets there (reader.c), so a page another thread
 *     inserted meanwhile splits the batch instead of being listed.
 *   - get_next_ra_size(): 4x below max/16, 2x up to max/2, else max.
 *   - ractl_max_pages(): max is the window, but a read() larger than it
 *     may read up to the bdi's io_pages (a block device's max_sectors:
 *     ext4, xfs; btrfs's own bdi's 32 pages never exceed its window).
 *   - the context paths walk the cache (page_cache_prev_miss() back from
 *     a miss, page_cache_next_miss() on from a marker): the list says how
 *     many cached pages were walked (scanned), and reader.c charges
 *     cost.ra_scan_page for each before the window's first insert, so a
 *     follower deciding over a 4 MiB window is that much later at its
 *     start.  Differs from the kernel: the walk is timed but decides at
 *     its start (the hole it finds is the one present when it began); a
 *     walk that finds no hole within max pages costs nothing.
 * A per-thread file (workload.files = per-thread) ends each reader's
 * window at its own file's end; pages of other files are never looked at.
 *
 * POSIX_FADV_RANDOM (fio's fadvise_hint=1 on rw=randread, or
 * fadvise_hint=random) sets FMODE_RANDOM, and sync readahead is "dumb"
 * (ra_forced()), one rule per kernel:
 *   - v6.18 page_cache_sync_ra(): the tracepoint fires, then
 *     force_page_cache_ra() of the request: at most max(bdi io_pages,
 *     ra_pages) pages (btrfs's own bdi has bdi_alloc()'s io_pages of
 *     VM_READAHEAD_PAGES, 32; a block device's, ext4's and xfs's, its
 *     max_sectors), in 2 MiB chunks, each do_page_cache_ra()
 *     with no lookahead: exactly the request's pages, no marker, the
 *     file_ra_state untouched;
 *   - v3.5 page_cache_sync_readahead(): force_page_cache_readahead() of
 *     the request, __do_page_cache_readahead() per 2 MiB chunk with no
 *     lookahead: the request's absent pages, no marker.
 * No marker is ever set, so async readahead never runs.  Differs from the
 * kernel: a request over 2 MiB is one list, where the kernel calls
 * read_pages() at each chunk's end (a read() that large is rare here).  Without it
 * (fadvise_hint=0 on randread) the kernel's own random-read detection
 * runs as above: 6.18's prev_pos / page_cache_prev_miss() tests, 3.5's
 * ondemand_readahead() small standalone read.
 */
#include "internal.h"

/* get_init_ra_size(): round up to a power of two, then x4 / x2 / max. */
uint64_t pcs_ra_init_size(uint64_t req, uint64_t max) {
  uint64_t size = 1;
  while (size < req) size <<= 1;
  if (size <= max / 32)
    size *= 4;
  else if (size <= max / 4)
    size *= 2;
  else
    size = max;
  return MIN(size, max);
}

/* get_next_ra_size(): x4 while small, else x2, capped at max. */
uint64_t pcs_ra_next_size(uint64_t cur, uint64_t max) {
  uint64_t next = cur < max / 16 ? 4 * cur : 2 * cur;
  return MIN(next, max);
}

/* The first page of THREAD's file and the page after its last. */
static inline uint64_t file_first(const PcsSim *s, uint32_t thread) { return s->readers[thread].file_first; }
static inline uint64_t file_end(const PcsSim *s, uint32_t thread) { return s->readers[thread].file_end; }
/* THREAD's per-file window (its job's fadvise_hint and rw) and FMODE_RANDOM. */
static inline uint64_t window(const PcsSim *s, uint32_t thread) { return s->readers[thread].job->window_pages; }
static inline gboolean fmode_random(const PcsSim *s, uint32_t thread) { return s->readers[thread].job->fmode_random; }

/* radix_tree_next_hole(): first absent index in [from, from + scan). */
static uint64_t next_hole(PcsSim *s, uint32_t thread, uint64_t from, uint64_t scan) {
  uint64_t end = MIN(from + scan, s->readers[thread].file_end); /* past the file: a hole */
  for (uint64_t p = from; p < end; p++)
    if (!pcs_pc_present(&s->pc, p)) return p;
  return from + scan;
}

/* radix_tree_prev_hole() distance: cached pages right before INDEX, up to max. */
static uint64_t count_history(PcsSim *s, uint32_t thread, uint64_t index, uint64_t max) {
  uint64_t n = 0, rel = index - file_first(s, thread);
  while (n < max && n < rel && pcs_pc_present(&s->pc, index - 1 - n)) n++;
  return n;
}

/* __do_page_cache_readahead(): list the absent pages of [start, start+n),
 * marking the one at n - async for PG_readahead. */
static gboolean ra_build_list(PcsSim *s, uint32_t thread, PcsRaList *out, uint64_t start, uint64_t n,
                              uint64_t async, PcsTraceKind kind) {
  out->n = out->next = 0;
  out->scanned = 0;
  out->marker = UINT64_MAX;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t p = start + i;
    if (p >= s->npages) break;
    if (pcs_pc_present(&s->pc, p)) continue;
    g_assert(out->n < out->cap);
    out->pages[out->n++] = p;
    if (async && i == n - async) out->marker = p;
  }
  if (kind == PCS_TRACE_RA_SYNC)
    s->res->ra_sync++;
  else
    s->res->ra_async++;
  pcs_trace(s, thread + 1, kind, start, n);
  return out->n > 0;
}

/* ra_submit() after the "readit:" label: a window that is entirely async
 * (e.g. just ramped up from the marker) gets the next window appended. */
static gboolean ra_submit(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset,
                          PcsTraceKind kind) {
  uint64_t max = window(s, thread);
  if (offset == ra->start && ra->size == ra->async_size) {
    ra->async_size = pcs_ra_next_size(ra->size, max);
    ra->size += ra->async_size;
  }
  return ra_build_list(s, thread, out, ra->start, ra->size, ra->async_size, kind);
}

static gboolean ra_initial(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset,
                           uint64_t req, PcsTraceKind kind) {
  ra->start = offset;
  ra->size = pcs_ra_init_size(req, window(s, thread));
  ra->async_size = ra->size > req ? ra->size - req : ra->size;
  return ra_submit(s, thread, ra, out, offset, kind);
}

/* The part of ondemand_readahead() shared by both entry points: a hit at
 * the expected index ramps the window up. */
static gboolean ra_sequential(PcsSim *s, uint32_t thread, PcsRaState *ra, uint64_t offset) {
  if (offset != ra->start + ra->size - ra->async_size && offset != ra->start + ra->size)
    return FALSE;
  ra->start += ra->size;
  ra->size = pcs_ra_next_size(ra->size, window(s, thread));
  ra->async_size = ra->size;
  return TRUE;
}

/* ---- v6.18: page_cache_sync_ra() / page_cache_async_ra() ------------------ */

/* get_next_ra_size() of 6.x: 4x while small, 2x up to max/2, else max. */
static uint64_t ra6_next_size(uint64_t cur, uint64_t max) {
  if (cur < max / 16) return 4 * cur;
  if (cur <= max / 2) return 2 * cur;
  return max;
}

/* Counts one entry into page_cache_{sync,async}_ra() (the kernel's
 * tracepoint fires on entry, whatever follows). */
static void ra6_count(PcsSim *s, PcsTraceKind kind) {
  if (kind == PCS_TRACE_RA_SYNC)
    s->res->ra_sync++;
  else
    s->res->ra_async++;
}

/* do_page_cache_ra(): every index of [START, START+N) up to THREAD's EOF,
 * the marker on START + N - LOOKAHEAD (page_cache_ra_unbounded()). */
static gboolean ra6_list(PcsSim *s, uint32_t thread, PcsRaList *out, uint64_t start, uint64_t n, uint64_t lookahead,
                         PcsTraceKind kind) {
  pcs_trace(s, thread + 1, kind, start, n);
  uint64_t end = MIN(start + n, file_end(s, thread));
  out->n = out->next = 0;
  out->scanned = 0;
  out->large = FALSE;
  out->marker = lookahead && lookahead <= n && start + n - lookahead < end ? start + n - lookahead : UINT64_MAX;
  for (uint64_t p = start; p < end; p++) {
    g_assert(out->n < out->cap);
    out->pages[out->n++] = p;
  }
  return out->n > 0;
}

static gboolean ra6_folios(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, PcsTraceKind kind);

/* page_cache_ra_order(): for btrfs (no large data folios) order back to 0,
 * do_page_cache_ra() of the window; with large folios, the window's folios. */
static gboolean ra6_readit(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, PcsTraceKind kind) {
  if (s->max_folio_order) return ra6_folios(s, thread, ra, out, kind);
  ra->order = 0;
  return ra6_list(s, thread, out, ra->start, ra->size, ra->async_size, kind);
}

/* page_cache_prev_miss() before INDEX over at most MAX pages: the cached
 * run's length, and *FROM_START when it reaches the file's first page
 * (the kernel's miss == ULONG_MAX). */
static uint64_t ra6_prev_run(PcsSim *s, uint32_t thread, uint64_t index, uint64_t max, gboolean *from_start) {
  uint64_t first = file_first(s, thread), n = 0;
  while (n < max && index - n > first && pcs_pc_present(&s->pc, index - 1 - n)) n++;
  *from_start = n < max && index - n == first;
  return n;
}

/* ractl_max_pages(): the window, or a read larger than it up to the bdi's
 * io_pages (btrfs's own bdi has 32, less than any window it gets here; a
 * block device's is its max_sectors: ext4, xfs). */
static uint64_t ra6_max_pages(const PcsSim *s, uint32_t thread, uint64_t req) {
  uint64_t max = window(s, thread);
  if (req > max && s->bdi_io_pages > max) max = MIN(req, s->bdi_io_pages);
  return max;
}

static gboolean ra6_sync(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t index, uint64_t req) {
  uint64_t max = ra6_max_pages(s, thread, req);
  uint64_t rel = index - file_first(s, thread);
  /* prev_pos is set where the last read() call ended (filemap_read()) */
  uint64_t prev_index = ra->prev_end_valid ? ra->prev_end : UINT64_MAX;
  const PcsTraceKind kind = PCS_TRACE_RA_SYNC;
  ra6_count(s, kind);
  if (!rel || req > max || index - prev_index <= 1) {
    ra->start = index;
    ra->size = pcs_ra_init_size(req, max);
    ra->async_size = ra->size > req ? ra->size - req : ra->size >> 1;
    return ra6_readit(s, thread, ra, out, kind);
  }
  gboolean from_start, listed;
  uint64_t walked = ra6_prev_run(s, thread, index, max, &from_start), contig = walked;
  if (contig <= req) {
    listed = ra6_list(s, thread, out, index, req, 0, kind); /* standalone small read */
  } else {
    if (from_start) contig *= 2;
    ra->start = index;
    ra->size = MIN(contig + req, max);
    ra->async_size = 1;
    listed = ra6_readit(s, thread, ra, out, kind);
  }
  out->scanned = walked; /* page_cache_prev_miss() walked the cached run */
  return listed;
}

/* ffs(max) - 1: the window's own alignment, as a shift. */
static uint32_t ra6_max_shift(uint64_t max) {
  uint32_t sh = 0;
  while (max && !(max & 1)) max >>= 1, sh++;
  return sh;
}

/* The "readit:" tail of page_cache_async_ra(): ra->order += 2, the window
 * end rounded down to 1 << order pages (at most MAX's own alignment),
 * async_size = size. */
static void ra6_ramp(PcsRaState *ra, uint64_t max) {
  ra->order += 2;
  uint64_t align = UINT64_C(1) << MIN(ra->order, ra6_max_shift(max));
  uint64_t end = ra->start + ra->size, aligned_end = end / align * align;
  if (aligned_end > ra->start) ra->size -= end - aligned_end;
  ra->async_size = ra->size;
}

gboolean pcs_ra6_advance(PcsRaState *ra, uint64_t index, uint64_t folio_pages, uint64_t max) {
  g_assert(folio_pages > 0);
  uint64_t expected = (ra->start + ra->size - ra->async_size) / folio_pages * folio_pages;
  if (!ra->size || index != expected) return FALSE;
  ra->start += ra->size;
  ra->size = MAX(ra->size, ra6_next_size(ra->size, max));
  ra6_ramp(ra, max);
  return TRUE;
}

/* floor(log2(V)), V > 0: ilog2(). */
static uint32_t ra_ilog2(uint64_t v) {
  uint32_t r = 0;
  while (v >>= 1) r++;
  return r;
}

/* do_page_cache_ra() after a failed large-folio insert at FROM (or for the
 * whole window): what is left of the window, cut at the page holding the
 * file's last byte; page_cache_ra_unbounded() marks the page at
 * nr - lookahead of what it reads, none when lookahead is 0 or more than
 * that. */
static void ra_order_rest(const PcsRaState *ra, uint64_t from, uint64_t eof, PcsRaFolios *out) {
  out->rest_start = from, out->rest_n = 0, out->rest_marker = UINT64_MAX;
  if (ra->size <= from - ra->start || from >= eof) return;
  uint64_t nr = MIN(ra->size - (from - ra->start), eof - from), lookahead = ra->async_size;
  out->rest_n = nr;
  if (lookahead && lookahead <= nr) out->rest_marker = from + nr - lookahead;
}

void pcs_ra_order(PcsRaState *ra, uint32_t max_order, uint64_t eof, PcsRaPresentFn present, void *user,
                  PcsRaFolios *out) {
  uint64_t index = ra->start;
  out->n = 0;
  if (!max_order) { /* !mapping_large_folio_support(): order back to 0, the window page by page */
    ra->order = 0;
    ra_order_rest(ra, index, eof, out);
    return;
  }
  out->rest_start = index, out->rest_n = 0, out->rest_marker = UINT64_MAX;
  if (!ra->size || !eof) return;
  uint64_t limit = MIN(eof - 1, ra->start + ra->size - 1), mark = ra->start + ra->size - ra->async_size;
  uint32_t order = MIN(MIN(ra->order, max_order), ra_ilog2(ra->size));
  ra->order = order;
  while (index <= limit) {
    uint32_t o = order;
    if (index & ((UINT64_C(1) << o) - 1)) o = (uint32_t)__builtin_ctzll(index); /* __ffs(index): align down */
    while (o > 0 && index + (UINT64_C(1) << o) - 1 > limit) o--;                /* nothing past EOF */
    uint64_t pages = UINT64_C(1) << o;
    if (present && present(user, index, pages)) break; /* -EEXIST: the large loop ends here */
    g_assert(out->n < out->cap);
    out->folios[out->n++] = (PcsRaFolio){index, o, index == mark / pages * pages};
    index += pages;
  }
  if (index <= limit) ra_order_rest(ra, index, eof, out);
}

/* pcs_ra_order() of RA's window in THREAD's file, whose folios are aligned
 * to the file's own index 0: the window and EOF taken relative to it. */
static void ra6_order(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaFolios *out) {
  uint64_t first = file_first(s, thread);
  PcsRaState rel = *ra;
  rel.start -= first;
  pcs_ra_order(&rel, s->max_folio_order, file_end(s, thread) - first, NULL, NULL, out);
  ra->order = rel.order;
  for (uint32_t i = 0; i < out->n; i++) out->folios[i].index += first;
}

/* page_cache_ra_order() with large folios: the window's folios in index
 * order, each inserted as the reader gets there (reader.c); which insert
 * fails is decided then, and pcs_ra_list_fallback() takes over. */
static gboolean ra6_folios(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, PcsTraceKind kind) {
  pcs_trace(s, thread + 1, kind, ra->start, ra->size);
  PcsRaFolios *f = &s->ra_folios;
  ra6_order(s, thread, ra, f);
  out->n = out->next = 0;
  out->scanned = 0;
  out->marker = UINT64_MAX;
  out->large = TRUE;
  for (uint32_t i = 0; i < f->n; i++) {
    g_assert(out->n < out->cap);
    out->pages[out->n] = f->folios[i].index;
    out->orders[out->n++] = (uint8_t)f->folios[i].order;
    if (f->folios[i].marker) out->marker = f->folios[i].index;
  }
  return out->n > 0;
}

void pcs_ra_list_fallback(PcsSim *s, uint32_t thread, const PcsRaState *ra, PcsRaList *list, uint32_t at) {
  uint64_t first = file_first(s, thread), from = list->pages[at];
  PcsRaState rel = *ra;
  rel.start -= first;
  PcsRaFolios rest = {0};
  ra_order_rest(&rel, from - first, file_end(s, thread) - first, &rest);
  list->n = at;
  list->next = at;
  list->large = FALSE;
  list->marker = rest.rest_marker == UINT64_MAX ? UINT64_MAX : rest.rest_marker + first;
  for (uint64_t i = 0; i < rest.rest_n; i++) {
    g_assert(list->n < list->cap);
    list->pages[list->n] = from + i;
    list->orders[list->n++] = 0;
  }
}

/* The first page at or after FROM, before END, that PRESENT says is
 * empty; END when there is none. */
static uint64_t ra_first_absent(uint64_t from, uint64_t end, PcsRaPresentFn present, void *user) {
  while (from < end && present(user, from, 1)) from++;
  return from;
}

/* An XArray node has 64 slots (XA_CHUNK_SHIFT 6).  A folio of 2 to 32
 * pages lies in one leaf node: its first slot holds the folio, the rest
 * sibling entries.  The walk's first xas_load() at INDEX + 1 follows the
 * sibling back to the folio's slot (xas_descend() sets xa_offset there)
 * while xa_index stays at INDEX + 1, and each xas_next() then steps both:
 * an empty slot at page h is reported as h + 1.  At the leaf's end,
 * __xas_next() enters the next node at get_offset(xa_index), one slot in:
 * that node's first page is not looked at, and from there index and offset
 * agree again.  A folio of one page (INDEX + 1 is another entry) or of 64
 * and more (kept in a node above the leaves, where __xas_next() keeps the
 * offset in step with the index) gives the first empty page itself.
 * Measured: `pcsim-trace async-start` puts 96% of the asynchronous windows
 * of ext4k's four threads at 128 KiB where this walk does, 92% at the first
 * empty page (docs/validation.md).  btrfs (one-page folios) never takes the
 * sibling path. */
uint64_t pcs_ra_next_miss(uint64_t index, uint64_t folio_pages, uint64_t max, PcsRaPresentFn present, void *user) {
  const uint64_t chunk = 64; /* XA_CHUNK_SIZE */
  uint64_t end = index + 1 + max; /* max slots looked at; none empty: index + 1 + max */
  if (folio_pages < 2 || folio_pages >= chunk) return ra_first_absent(index + 1, end, present, user);
  /* the walk's call k looks at page index + k - 1 and reports index + k */
  uint64_t leaf_end = (index | (chunk - 1)) + 1, stop = MIN(leaf_end, end - 1);
  uint64_t hole = ra_first_absent(index + 1, stop, present, user);
  if (hole < stop) return hole + 1; /* reported one past the empty slot */
  if (leaf_end >= end - 1) return end;
  return ra_first_absent(leaf_end + 1, end, present, user); /* leaf_end itself is not looked at */
}

/* PcsRaPresentFn over the simulation's page cache, in THREAD's file pages. */
typedef struct {
  const PcsPageCache *pc;
  uint64_t first, end; /* the file's first page and the page after its last */
} RaFileCache;

static gboolean ra_file_present(void *user, uint64_t index, uint64_t n) {
  const RaFileCache *c = user;
  for (uint64_t p = c->first + index; p < c->first + index + n && p < c->end; p++) /* past EOF: empty */
    if (pcs_pc_present(c->pc, p)) return TRUE;
  return FALSE;
}

/* pcs_ra_next_miss() in THREAD's file; INDEX and the answer in the run's pages. */
static uint64_t ra6_next_miss(const PcsSim *s, uint32_t thread, uint64_t index, uint64_t folio_pages, uint64_t max) {
  RaFileCache c = {&s->pc, file_first(s, thread), file_end(s, thread)};
  return c.first + pcs_ra_next_miss(index - c.first, folio_pages, max, ra_file_present, &c);
}

static gboolean ra6_async(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t index, uint64_t req) {
  uint64_t max = ra6_max_pages(s, thread, req);
  const PcsTraceKind kind = PCS_TRACE_RA_ASYNC;
  uint64_t scanned = 0;
  ra6_count(s, kind);
  /* the expected index rounded down to the marked folio (order-0 folios: no rounding) */
  uint64_t folio_pages = s->max_folio_order ? pcs_pc_folio_pages(&s->pc, index) : 1;
  if (!pcs_ra6_advance(ra, index, folio_pages, max)) {
    /* a marked folio without valid state (interleaved readers) */
    uint64_t start = ra6_next_miss(s, thread, index, folio_pages, max);
    if (start - index > max) {
      pcs_trace(s, thread + 1, kind, index, 0);
      return FALSE;
    }
    ra->start = start;
    ra->size = ra6_next_size(start - index + req, max);
    scanned = start - index - 1; /* page_cache_next_miss() walked [index + 1, start) */
    ra6_ramp(ra, max);
  }
  gboolean listed = ra6_readit(s, thread, ra, out, kind);
  out->scanned = scanned;
  return listed;
}

/* FMODE_RANDOM: force_page_cache_ra() of REQ pages at OFFSET (see the top). */
static gboolean ra_forced(PcsSim *s, uint32_t thread, PcsRaList *out, uint64_t offset, uint64_t req) {
  const PcsTraceKind kind = PCS_TRACE_RA_SYNC;
  if (s->kernel == PCS_KERNEL_V6_18) {
    ra6_count(s, kind);
    uint64_t n = MIN(req, MAX(s->bdi_io_pages, window(s, thread)));
    return ra6_list(s, thread, out, offset, n, 0, kind);
  }
  return ra_build_list(s, thread, out, offset, req, 0, kind);
}

gboolean pcs_ra_sync(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req) {
  if (fmode_random(s, thread)) return ra_forced(s, thread, out, offset, req);
  if (s->kernel == PCS_KERNEL_V6_18) return ra6_sync(s, thread, ra, out, offset, req);
  const PcsTraceKind kind = PCS_TRACE_RA_SYNC;
  uint64_t max = window(s, thread);
  uint64_t rel = offset - file_first(s, thread); /* ondemand_readahead()'s offset: in THREAD's file */
  if (rel == 0) return ra_initial(s, thread, ra, out, offset, req, kind);
  if (ra->size && ra_sequential(s, thread, ra, offset)) return ra_submit(s, thread, ra, out, offset, kind);
  if (req > max) return ra_initial(s, thread, ra, out, offset, req, kind);
  /* sequential cache miss: the last read() call ended at offset - 1
   * (ra->prev_pos is stored once per call, reader.c next_call()) */
  if (ra->prev_valid && offset - ra->prev_index <= 1) return ra_initial(s, thread, ra, out, offset, req, kind);
  /* try_context_readahead(): a run of cached pages before offset */
  uint64_t hist = count_history(s, thread, offset, max);
  if (hist) {
    if (hist >= rel) hist *= 2; /* stream from the start of the file */
    ra->start = offset;
    ra->size = pcs_ra_init_size(hist + req, max);
    ra->async_size = ra->size;
    return ra_submit(s, thread, ra, out, offset, kind);
  }
  return ra_build_list(s, thread, out, offset, req, 0, kind);
}

gboolean pcs_ra_async(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req) {
  if (s->kernel == PCS_KERNEL_V6_18) return ra6_async(s, thread, ra, out, offset, req);
  const PcsTraceKind kind = PCS_TRACE_RA_ASYNC;
  uint64_t max = window(s, thread);
  if (pcs_blk_read_congested(&s->blk)) return FALSE; /* v3.5 page_cache_async_readahead() */
  if (ra->size && ra_sequential(s, thread, ra, offset)) return ra_submit(s, thread, ra, out, offset, kind);
  /* Hit a marker without valid state (interleaved readers): start right
   * after the cached run that follows offset. */
  uint64_t start = next_hole(s, thread, offset + 1, max);
  if (start - offset > max || start >= file_end(s, thread)) return FALSE;
  ra->start = start;
  ra->size = pcs_ra_next_size(start - offset + req, max);
  ra->async_size = ra->size;
  return ra_submit(s, thread, ra, out, offset, kind);
}
