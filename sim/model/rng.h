/* rng.h - seeded random streams: MT19937 with GRand's seeding (see rng.c). */
#ifndef PCSIM_MODEL_RNG_H
#define PCSIM_MODEL_RNG_H

#include <glib.h>
#include <stdint.h>

/* Stream ids: each stream is seeded from (scenario.seed low, high, id), one
 * id per purpose, so adding a stream never moves another. */
#define PCS_RNG_STREAM_JITTER(task) ((uint32_t)(task) + 1u) /* cpu.c: task's cost jitter */
#define PCS_RNG_STREAM_FRAMES 0x80000000u                   /* alloc.c: memory.contiguous_share */
#define PCS_RNG_STREAM_DEVICE 0x80000001u                   /* device.c: device.jitter */
#define PCS_RNG_STREAM_WAKE 0x80000002u                     /* cpu.c: cpu.wake_latency */
#define PCS_RNG_STREAM_PLACE 0x80000003u                    /* cpu.c: cpu.wake_affine */

#define PCS_RNG_N 624 /* MT19937's state words */

typedef struct {
  uint32_t mt[PCS_RNG_N];
  uint32_t mti; /* the next of mt[] to temper and hand out; PCS_RNG_N: refill first */
} PcsRng;

/* Seeds R from KEY[0..LEN) exactly as g_rand_new_with_seed_array() (GLib >= 2.2). */
void pcs_rng_init(PcsRng *r, const uint32_t *key, uint32_t len);
/* Seeds R for stream ID of SEED (scenario.seed): key {low, high, ID}. */
void pcs_rng_init_stream(PcsRng *r, uint64_t seed, uint32_t id);
/* Advances the state by 624 words (rng.c). */
void pcs_rng_refill(PcsRng *r);
/* The next draw, equal to g_rand_int() of the same stream. */
/* MT19937's tempering of one state word: what a draw hands out. */
static inline uint32_t pcs_rng_temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

/* A standard normal draw (Box-Muller from two draws of R). */
double pcs_rng_normal(PcsRng *r);

static inline uint32_t pcs_rng_u32(PcsRng *r) {
  if (__builtin_expect(r->mti >= PCS_RNG_N, 0)) pcs_rng_refill(r);
  return pcs_rng_temper(r->mt[r->mti++]);
}

/* The next draw as a double in (0, 1), never 0 or 1 (a logarithm's argument). */
static inline double pcs_rng_open01(PcsRng *r) { return ((double)pcs_rng_u32(r) + 1.0) / 4294967297.0; }

#endif
