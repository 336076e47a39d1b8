/* fiorand.h - fio's choice of the next random block (see fiorand.c). */
#ifndef PCSIM_MODEL_FIORAND_H
#define PCSIM_MODEL_FIORAND_H

#include <glib.h>
#include <stdint.h>

/* How a thread's generator is seeded (workload.random_seed). */
typedef enum {
  PCS_FIORAND_REPEAT,   /* fio's randrepeat=1: FIO_RANDSEED * thread_number */
  PCS_FIORAND_RANDSEED, /* fio's randseed=N: setup_random_seeds() */
} PcsFioSeedMode;

/* One fio thread's random block state: its generator (td->random_state)
 * and its file's random map (f->io_axmap), one bit per block. */
typedef struct {
  gboolean use64;                /* tausworthe64 (taus258), else taus88 */
  uint32_t s32[3];               /* struct taus88_state */
  uint64_t s64[5];               /* struct taus258_state */
  uint64_t seed;                 /* td->rand_seeds[FIO_RAND_BLOCK_OFF], for a new loop */
  uint64_t nblocks;              /* last_block(): io_size / bs */
  uint64_t *map;                 /* NULL with norandommap */
} PcsFioRand;

/* fio's td->rand_seeds[FIO_RAND_BLOCK_OFF] for thread THREAD_NUMBER (1 for
 * the first clone): init.c setup_random_seeds(), td_fill_rand_seeds_internal(). */
uint64_t pcs_fiorand_block_seed(PcsFioSeedMode mode, uint64_t randseed, uint32_t thread_number);
/* fio's td->rand_seeds[OFF] from setup_random_seeds() for RANDSEED (fio's
 * randseed; 0x89, PCS_FIORAND_DEFAULT_RANDSEED, when the job sets none)
 * and THREAD_NUMBER: RANDSEED times 0x9e370001 four times, then OFF times
 * more, times THREAD_NUMBER, plus OFF. */
uint64_t pcs_fiorand_stream_seed(uint64_t randseed, uint32_t thread_number, unsigned off);
#define PCS_FIORAND_DEFAULT_RANDSEED UINT64_C(0x89) /* options.c randseed .def */
#define PCS_FIORAND_FILE_OFF 5                      /* fio.h FIO_RAND_FILE_OFF: file_service_type=random's stream */
/* Allocates the map (setup: nothing is allocated after) and seeds. */
void pcs_fiorand_init(PcsFioRand *fr, uint64_t nblocks, gboolean norandommap, gboolean use64, uint64_t seed);
void pcs_fiorand_clear(PcsFioRand *fr);
/* A new loop: the map emptied (fio_file_reset(): axmap_reset()) after the
 * draw that found it full; RESEED
 * (fio's randrepeat, clear_io_state() -> td_fill_rand_seeds()) seeds the
 * generator again, so each loop reads the same order. */
void pcs_fiorand_reset(PcsFioRand *fr, gboolean reseed);
/* The next block, marked in the map: __get_next_rand_offset() and
 * mark_random_map().  UINT64_MAX when the map is full. */
uint64_t pcs_fiorand_next(PcsFioRand *fr);
/* The generator's next raw value (__rand()): for tests. */
uint64_t pcs_fiorand_raw(PcsFioRand *fr);

#endif
