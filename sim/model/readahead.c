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
 * sequential reader never takes it).
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

/* radix_tree_next_hole(): first absent index in [from, from + scan). */
static uint64_t next_hole(PcsSim *s, uint64_t from, uint64_t scan) {
  uint64_t end = MIN(from + scan, s->npages);
  for (uint64_t p = from; p < end; p++)
    if (!pcs_pc_present(&s->pc, p)) return p;
  return from + scan;
}

/* radix_tree_prev_hole() distance: cached pages right before INDEX, up to max. */
static uint64_t count_history(PcsSim *s, uint64_t index, uint64_t max) {
  uint64_t n = 0;
  while (n < max && n < index && pcs_pc_present(&s->pc, index - 1 - n)) n++;
  return n;
}

/* __do_page_cache_readahead(): list the absent pages of [start, start+n),
 * marking the one at n - async for PG_readahead. */
static gboolean ra_build_list(PcsSim *s, uint32_t thread, PcsRaList *out, uint64_t start, uint64_t n,
                              uint64_t async, PcsTraceKind kind) {
  out->n = out->next = 0;
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
  uint64_t max = s->window_pages;
  if (offset == ra->start && ra->size == ra->async_size) {
    ra->async_size = pcs_ra_next_size(ra->size, max);
    ra->size += ra->async_size;
  }
  return ra_build_list(s, thread, out, ra->start, ra->size, ra->async_size, kind);
}

static gboolean ra_initial(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset,
                           uint64_t req, PcsTraceKind kind) {
  ra->start = offset;
  ra->size = pcs_ra_init_size(req, s->window_pages);
  ra->async_size = ra->size > req ? ra->size - req : ra->size;
  return ra_submit(s, thread, ra, out, offset, kind);
}

/* The part of ondemand_readahead() shared by both entry points: a hit at
 * the expected index ramps the window up. */
static gboolean ra_sequential(PcsSim *s, PcsRaState *ra, uint64_t offset) {
  if (offset != ra->start + ra->size - ra->async_size && offset != ra->start + ra->size)
    return FALSE;
  ra->start += ra->size;
  ra->size = pcs_ra_next_size(ra->size, s->window_pages);
  ra->async_size = ra->size;
  return TRUE;
}

gboolean pcs_ra_sync(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req) {
  const PcsTraceKind kind = PCS_TRACE_RA_SYNC;
  uint64_t max = s->window_pages;
  if (offset == 0) return ra_initial(s, thread, ra, out, offset, req, kind);
  if (ra->size && ra_sequential(s, ra, offset)) return ra_submit(s, thread, ra, out, offset, kind);
  if (req > max) return ra_initial(s, thread, ra, out, offset, req, kind);
  /* sequential cache miss: the thread just read offset - 1 */
  if (ra->prev_valid && offset - ra->prev_index <= 1) return ra_initial(s, thread, ra, out, offset, req, kind);
  /* try_context_readahead(): a run of cached pages before offset */
  uint64_t hist = count_history(s, offset, max);
  if (hist) {
    if (hist >= offset) hist *= 2; /* stream from the start of the file */
    ra->start = offset;
    ra->size = pcs_ra_init_size(hist + req, max);
    ra->async_size = ra->size;
    return ra_submit(s, thread, ra, out, offset, kind);
  }
  return ra_build_list(s, thread, out, offset, req, 0, kind);
}

gboolean pcs_ra_async(PcsSim *s, uint32_t thread, PcsRaState *ra, PcsRaList *out, uint64_t offset, uint64_t req) {
  const PcsTraceKind kind = PCS_TRACE_RA_ASYNC;
  uint64_t max = s->window_pages;
  if (pcs_blk_read_congested(&s->blk)) return FALSE; /* v3.5 page_cache_async_readahead() */
  if (ra->size && ra_sequential(s, ra, offset)) return ra_submit(s, thread, ra, out, offset, kind);
  /* Hit a marker without valid state (interleaved readers): start right
   * after the cached run that follows offset. */
  uint64_t start = next_hole(s, offset + 1, max);
  if (start - offset > max || start >= s->npages) return FALSE;
  ra->start = start;
  ra->size = pcs_ra_next_size(start - offset + req, max);
  ra->async_size = ra->size;
  return ra_submit(s, thread, ra, out, offset, kind);
}
