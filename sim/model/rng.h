/* rng.h - seeded random streams: MT19937 with GRand's seeding (see rng.c). */
#ifndef PCSIM_MODEL_RNG_H
#define PCSIM_MODEL_RNG_H

#include <stdint.h>

typedef struct {
  uint32_t mt[624];
  uint32_t mti;
} PcsRng;

/* Seeds R from KEY[0..LEN) exactly as g_rand_new_with_seed_array() (GLib >= 2.2). */
void pcs_rng_init(PcsRng *r, const uint32_t *key, uint32_t len);
/* The next draw, equal to g_rand_int() of the same stream. */
uint32_t pcs_rng_u32(PcsRng *r);

#endif
