/* pool.c - index pools for bios and requests.
 *
 * Models nothing in the kernel (bio_alloc() and get_request() come from
 * mempools there too).  Items are addressed by 32-bit index; the free list
 * threads through a uint32_t field of the item.  A pool grows by doubling
 * until it reaches the run's high-water mark and is then only recycled.
 * Invariant: live == number of ids handed out and not returned; teardown
 * asserts it is zero.
 */
#include "pool.h"

#include <string.h>

static void pool_grow(PcsPool *pool, uint32_t new_cap) {
  pool->items = g_realloc(pool->items, (size_t)new_cap * pool->item_size);
  for (uint32_t i = new_cap; i-- > pool->cap;) {
    *pcs_pool_next_of(pool, i) = pool->free_head;
    pool->free_head = i;
  }
  pool->cap = new_cap;
}

void pcs_pool_init(PcsPool *pool, size_t item_size, size_t next_offset, uint32_t cap) {
  memset(pool, 0, sizeof *pool);
  pool->item_size = item_size;
  pool->next_offset = next_offset;
  pool->free_head = PCS_NONE;
  pool_grow(pool, cap ? cap : 16);
}

void pcs_pool_clear(PcsPool *pool) { g_clear_pointer(&pool->items, g_free); }

void pcs_pool_grow(PcsPool *pool) { pool_grow(pool, pool->cap * 2); }
