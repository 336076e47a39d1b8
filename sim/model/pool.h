/* pool.h - index pools: bios and requests without malloc on the hot path.
 *
 * Items are addressed by 32-bit index; the free list threads through a
 * uint32_t field of the item (NEXT_OFFSET).  See pool.c.
 */
#ifndef PCSIM_MODEL_POOL_H
#define PCSIM_MODEL_POOL_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#define PCS_NONE UINT32_MAX /* "no item": end of a list, no open bio, idle worker */

typedef struct {
  char *items;
  size_t item_size, next_offset; /* free list threads through a uint32_t field */
  uint32_t cap, free_head, live;
} PcsPool;

/* Called once per run; allocates CAP items (16 when 0). */
void pcs_pool_init(PcsPool *pool, size_t item_size, size_t next_offset, uint32_t cap);
/* Frees the items; ids still live are the caller's bug (teardown asserts live == 0). */
void pcs_pool_clear(PcsPool *pool);
/* The item ID; valid until the next pcs_pool_get(). */
static inline void *pcs_pool_at(const PcsPool *pool, uint32_t id) {
  return pool->items + (size_t)id * pool->item_size;
}

/* Doubles the pool (pool.c): the items may move. */
void pcs_pool_grow(PcsPool *pool);

static inline uint32_t *pcs_pool_next_of(PcsPool *pool, uint32_t id) {
  return (uint32_t *)(pool->items + (size_t)id * pool->item_size + pool->next_offset);
}

/* A free id; grows (and may move the items: re-fetch pointers) only past the high-water mark. */
static inline uint32_t pcs_pool_get(PcsPool *pool) {
  if (G_UNLIKELY(pool->free_head == PCS_NONE)) pcs_pool_grow(pool);
  uint32_t id = pool->free_head;
  uint32_t *next = pcs_pool_next_of(pool, id);
  pool->free_head = *next;
  *next = PCS_NONE;
  pool->live++;
  return id;
}

/* Returns ID to the free list; never frees memory. */
static inline void pcs_pool_put(PcsPool *pool, uint32_t id) {
  g_assert(pool->live > 0);
  *pcs_pool_next_of(pool, id) = pool->free_head;
  pool->free_head = id;
  pool->live--;
}

#endif
