/* fiorand.c - which block fio's rw=randread reads next.
 *
 * Models no kernel code: it mirrors fio 3.33, so that a simulated randread
 * job asks for the blocks in the order the real fio asks for them:
 *   - the generator (lib/rand.h, lib/rand.c): L'Ecuyer's combined
 *     Tausworthe generators, taus88 (32-bit, fio's default
 *     random_generator=tausworthe) or taus258 (tausworthe64), seeded by
 *     __init_rand32() / __init_rand64() (an LCG fill, then six cranks);
 *   - the seed (init.c): with randrepeat=1 (fio's default) the block
 *     stream's seed is FIO_RANDSEED (0xb1899bed) times the thread's number
 *     (td->thread_number: 1, 2, ... over every clone of every job section
 *     in file order), also with randseed=N unless randrepeat=0 (fio runs
 *     setup_random_seeds() before fixup_options() clears randrepeat for
 *     randseed); with randseed=N and randrepeat=0, setup_random_seeds(): N multiplied
 *     by 0x9e370001 four times, then td->rand_seeds[i] = seed *
 *     thread_number + i, seed multiplied again after each i, and the block
 *     stream takes i = FIO_RAND_BLOCK_OFF (6);
 *   - file_service_type=random (io_u.c __get_next_fileno_rand()): the file
 *     stream td->next_file_state, seeded with td->rand_seeds[FIO_RAND_FILE_OFF]
 *     (5) as above, from fio's default randseed 0x89 when the job sets
 *     none (randrepeat=1 overrides only the block stream's seed), draws
 *     fileno = nrfiles * (r / (rand_max + 1.0)): pcs_fiorand_next() of a
 *     generator over nrfiles "blocks" without a map;
 *   - the block (io_u.c __get_next_rand_offset()): b = lastb * (r /
 *     (rand_max + 1.0)) in double, truncated; if b is already in the random
 *     map, axmap_next_free(b): the first free block after b, wrapping to
 *     the map's start; then mark_random_map() sets it.  So with the map
 *     every block is read once per loop, and a loop ends when all are.
 *     norandommap takes b as drawn.  A loop with the map ends on one more
 *     draw, the pick that finds the map full: a stream that is not
 *     reseeded goes on after it (fio's write_iolog over two loops shows it).
 * The map is a flat bitmap, one bit per block, allocated at setup; fio's
 * axmap has levels above it to find a free bit fast, with the same
 * answer (the first free bit at or after the one it starts at).
 * Differs from fio: lfsr (random_generator=lfsr) is not modelled, and
 * fio's /dev/urandom seeds (randrepeat=0) are the scenario seed taken as a
 * randseed (params.c pcs_params_random_seed()).
 */
#include "fiorand.h"

#include <string.h>

#define FIO_RANDSEED UINT64_C(0xb1899bed) /* init.c */
#define FIO_SEED_MULT UINT64_C(0x9e370001) /* init.c setup_random_seeds() */
#define FIO_RAND_BLOCK_OFF 6               /* fio.h: the block stream's index in td->rand_seeds[] */

uint64_t pcs_fiorand_stream_seed(uint64_t randseed, uint32_t thread_number, unsigned off) {
  uint64_t seed = randseed;
  for (int i = 0; i < 4; i++) seed *= FIO_SEED_MULT;
  for (unsigned i = 0; i < off; i++) seed *= FIO_SEED_MULT;
  return seed * thread_number + off;
}

uint64_t pcs_fiorand_block_seed(PcsFioSeedMode mode, uint64_t randseed, uint32_t thread_number) {
  if (mode == PCS_FIORAND_REPEAT) return FIO_RANDSEED * thread_number; /* td_fill_rand_seeds_internal() */
  return pcs_fiorand_stream_seed(randseed, thread_number, FIO_RAND_BLOCK_OFF);
}

/* ---- lib/rand.h, lib/rand.c ---- */

static uint32_t taus88(uint32_t s[3]) {
#define TAUSWORTHE(x, a, b, c, d) ((((x) & (c)) << (d)) ^ ((((x) << (a)) ^ (x)) >> (b)))
  s[0] = TAUSWORTHE(s[0], 13, 19, UINT32_C(4294967294), 12);
  s[1] = TAUSWORTHE(s[1], 2, 25, UINT32_C(4294967288), 4);
  s[2] = TAUSWORTHE(s[2], 3, 11, UINT32_C(4294967280), 17);
#undef TAUSWORTHE
  return s[0] ^ s[1] ^ s[2];
}

static uint64_t taus258(uint64_t s[5]) {
  uint64_t x;
  x = ((s[0] << 1) ^ s[0]) >> 53;
  s[0] = ((s[0] & UINT64_C(18446744073709551614)) << 10) ^ x;
  x = ((s[1] << 24) ^ s[1]) >> 50;
  s[1] = ((s[1] & UINT64_C(18446744073709551104)) << 5) ^ x;
  x = ((s[2] << 3) ^ s[2]) >> 23;
  s[2] = ((s[2] & UINT64_C(18446744073709547520)) << 29) ^ x;
  x = ((s[3] << 5) ^ s[3]) >> 24;
  s[3] = ((s[3] & UINT64_C(18446744073709420544)) << 23) ^ x;
  x = ((s[4] << 3) ^ s[4]) >> 33;
  s[4] = ((s[4] & UINT64_C(18446744073701163008)) << 8) ^ x;
  return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

/* __seed(): the state words must exceed a minimum (L'Ecuyer's erratum). */
static inline uint64_t seed_min(uint64_t x, uint64_t m) { return x < m ? x + m : x; }

/* (2^31) + (2^17) + (2^7) in fio's source is C's xor: 29 + 19 + 5. */
#define FIO_LCG_START ((2 ^ 31) + (2 ^ 17) + (2 ^ 7))

static void seed32(uint32_t s[3], uint32_t seed) {
#define LCG(x) ((uint32_t)(x) * UINT32_C(69069) ^ seed)
  s[0] = (uint32_t)seed_min(LCG(FIO_LCG_START), 1);
  s[1] = (uint32_t)seed_min(LCG(s[0]), 7);
  s[2] = (uint32_t)seed_min(LCG(s[1]), 15);
#undef LCG
  for (int i = 0; i < 6; i++) taus88(s);
}

static void seed64(uint64_t s[5], uint64_t seed) {
#define LCG64(x) ((uint64_t)(x) * UINT64_C(6906969069) ^ seed)
  s[0] = seed_min(LCG64(FIO_LCG_START), 1);
  s[1] = seed_min(LCG64(s[0]), 7);
  s[2] = seed_min(LCG64(s[1]), 15);
  s[3] = seed_min(LCG64(s[2]), 33);
  s[4] = seed_min(LCG64(s[3]), 49);
#undef LCG64
  for (int i = 0; i < 6; i++) taus258(s);
}

/* init_rand_seed(): the 32-bit generator takes the seed's low 32 bits. */
static void fiorand_seed(PcsFioRand *fr) {
  if (fr->use64) seed64(fr->s64, fr->seed);
  else seed32(fr->s32, (uint32_t)fr->seed);
}

uint64_t pcs_fiorand_raw(PcsFioRand *fr) { return fr->use64 ? taus258(fr->s64) : taus88(fr->s32); }

/* ---- the random map ---- */

static inline gboolean map_isset(const PcsFioRand *fr, uint64_t b) { return (fr->map[b >> 6] >> (b & 63)) & 1; }

/* The first clear bit in [from, nblocks), or UINT64_MAX. */
static uint64_t map_first_free(const PcsFioRand *fr, uint64_t from) {
  uint64_t nwords = (fr->nblocks + 63) / 64;
  for (uint64_t w = from >> 6; w < nwords; w++) {
    uint64_t free = ~fr->map[w];
    if (w == from >> 6) free &= ~UINT64_C(0) << (from & 63);
    if (!free) continue;
    uint64_t b = w * 64 + (uint64_t)__builtin_ctzll(free);
    return b < fr->nblocks ? b : UINT64_MAX;
  }
  return UINT64_MAX;
}

/* axmap_next_free(): the first free block after B, wrapping to 0. */
static uint64_t map_next_free(const PcsFioRand *fr, uint64_t b) {
  uint64_t next = b + 1 == fr->nblocks ? 0 : b + 1;
  uint64_t got = map_first_free(fr, next);
  if (got == UINT64_MAX && next) got = map_first_free(fr, 0);
  return got;
}

void pcs_fiorand_init(PcsFioRand *fr, uint64_t nblocks, gboolean norandommap, gboolean use64, uint64_t seed) {
  memset(fr, 0, sizeof *fr);
  fr->use64 = use64;
  fr->seed = seed;
  fr->nblocks = nblocks;
  if (!norandommap) fr->map = g_new0(uint64_t, (nblocks + 63) / 64);
  fiorand_seed(fr);
}

void pcs_fiorand_clear(PcsFioRand *fr) { g_clear_pointer(&fr->map, g_free); }

void pcs_fiorand_reset(PcsFioRand *fr, gboolean reseed) {
  if (fr->map) {
    pcs_fiorand_raw(fr); /* the pick that found the map full and ended fio's loop */
    memset(fr->map, 0, (fr->nblocks + 63) / 64 * sizeof *fr->map);
  }
  if (reseed) fiorand_seed(fr);
}

uint64_t pcs_fiorand_next(PcsFioRand *fr) {
  uint64_t r = pcs_fiorand_raw(fr);
  double rand_max = fr->use64 ? (double)UINT64_MAX : (double)UINT32_MAX;
  uint64_t b = (uint64_t)((double)fr->nblocks * ((double)r / (rand_max + 1.0)));
  if (!fr->map) return b;
  if (map_isset(fr, b)) b = map_next_free(fr, b);
  if (b == UINT64_MAX) return b;
  fr->map[b >> 6] |= UINT64_C(1) << (b & 63);
  return b;
}
