/* rng.c - seeded random streams: MT19937, exactly as GLib's GRand.
 *
 * pcsim first drew its cost jitter from GRand (g_rand_new_with_seed_array()
 * and g_rand_int()).  GRand's seeding silently changes when the environment
 * variable G_RANDOM_VERSION is set (to 2.0, GLib 1.x's seeding), so the same
 * scenario and seed could print different results on two machines.  This
 * module carries the same generator, seeded the same way as GLib >= 2.2
 * (init_by_array() of the MT19937 reference code), so every stream is the
 * one GRand gave by default, and no environment can change it.  A draw
 * (pcs_rng_u32()) is inline in rng.h; only the refill of the 624-word
 * state, once every 624 draws, is a call.
 */
#include "rng.h"

#include <math.h>

#define MT_N PCS_RNG_N
#define MT_M 397

static void init_genrand(PcsRng *r, uint32_t s) {
  r->mt[0] = s;
  for (uint32_t i = 1; i < MT_N; i++) r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + i;
  r->mti = MT_N;
}

void pcs_rng_init(PcsRng *r, const uint32_t *key, uint32_t len) {
  init_genrand(r, 19650218u);
  uint32_t i = 1, j = 0;
  for (uint32_t k = MT_N > len ? MT_N : len; k; k--) {
    r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] + j;
    i++, j++;
    if (i >= MT_N) r->mt[0] = r->mt[MT_N - 1], i = 1;
    if (j >= len) j = 0;
  }
  for (uint32_t k = MT_N - 1; k; k--) {
    r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) - i;
    i++;
    if (i >= MT_N) r->mt[0] = r->mt[MT_N - 1], i = 1;
  }
  r->mt[0] = 0x80000000u; /* MSB is 1, assuring a non-zero initial array */
}

/* The reference code's genrand refill, with mag01[y & 1] written as a mask
 * (0 - (y & 1)) & MATRIX_A: no table lookup, so the loops vectorise (the
 * last reads words the first wrote 227 words back).  The first 227 words
 * go as 224, a multiple of any vector width, and 3: a loop that needs no
 * scalar epilogue is one -O2's cheap vectoriser takes. */
#define MT_WORD(kk, far)                                               \
  do {                                                                 \
    uint32_t y = (mt[kk] & 0x80000000u) | (mt[(kk) + 1] & 0x7fffffffu); \
    mt[kk] = mt[far] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);     \
  } while (0)

void pcs_rng_refill(PcsRng *r) {
  uint32_t *mt = r->mt, kk;
  for (kk = 0; kk < 224; kk++) MT_WORD(kk, kk + MT_M);
  for (; kk < MT_N - MT_M; kk++) MT_WORD(kk, kk + MT_M);
  for (; kk < MT_N - 1; kk++) MT_WORD(kk, kk + (MT_M - MT_N));
  uint32_t y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
  mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
  r->mti = 0;
}
#undef MT_WORD

void pcs_rng_init_stream(PcsRng *r, uint64_t seed, uint32_t id) {
  uint32_t key[3] = {(uint32_t)seed, (uint32_t)(seed >> 32), id};
  pcs_rng_init(r, key, 3);
}

double pcs_rng_normal(PcsRng *r) {
  double u1 = pcs_rng_open01(r);
  double u2 = (double)pcs_rng_u32(r) / 4294967296.0;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * G_PI * u2);
}
