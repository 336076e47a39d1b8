/* rng.h - seeded random streams: MT19937 with GRand's seeding (see rng.c). */
#ifndef PCSIM_MODEL_RNG_H
#define PCSIM_MODEL_RNG_H

#include <stdint.h>

/* Stream ids: each stream is seeded from (scenario.seed low, high, id), one
 * id per purpose, so adding a stream never moves another. */
#define PCS_RNG_STREAM_JITTER(task) ((uint32_t)(task) + 1u) /* cpu.c: task's cost jitter */
#define PCS_RNG_STREAM_FRAMES 0x80000000u                   /* alloc.c: memory.contiguous_share */
#define PCS_RNG_STREAM_DEVICE 0x80000001u                   /* device.c: device.jitter */

typedef struct {
  uint32_t mt[624];
  uint32_t mti;
} PcsRng;

/* Seeds R from KEY[0..LEN) exactly as g_rand_new_with_seed_array() (GLib >= 2.2). */
void pcs_rng_init(PcsRng *r, const uint32_t *key, uint32_t len);
/* Seeds R for stream ID of SEED (scenario.seed): key {low, high, ID}. */
void pcs_rng_init_stream(PcsRng *r, uint64_t seed, uint32_t id);
/* The next draw, equal to g_rand_int() of the same stream. */
uint32_t pcs_rng_u32(PcsRng *r);

#endif
