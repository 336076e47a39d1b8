/* lathist.h - read() latencies in fio's histogram (stat.h io_u_plat[]).
 *
 * fio keeps completion latencies in FIO_IO_U_PLAT_NR buckets: values below
 * 2 * 64 ns exactly, then per power of two 64 buckets, each 1/64 of the
 * group's base wide (FIO_IO_U_PLAT_BITS 6, FIO_IO_U_PLAT_VAL 64,
 * FIO_IO_U_PLAT_GROUP_NR 29: 1856 buckets, up to about 17 s; longer times
 * share the last).  pcsim files each simulated read() call the same way,
 * so its percentiles are fio's: the value of the first bucket where the
 * running count reaches p% of all (stat.c calc_clat_percentiles()),
 * reported as the middle of that bucket (plat_idx_to_val()).
 * Beside the buckets: count, min, max, sum and fio's running mean and
 * squared deviations (Welford, stat.c add_stat_sample()), for mean and
 * stddev as fio prints them.  Fixed size, no allocation: recording is
 * on the model's hot path.
 */
#ifndef PCSIM_LATHIST_H
#define PCSIM_LATHIST_H

#include <glib.h>
#include <stdint.h>

#define PCS_LAT_PLAT_BITS 6
#define PCS_LAT_PLAT_VAL (1u << PCS_LAT_PLAT_BITS)
#define PCS_LAT_PLAT_GROUP_NR 29
#define PCS_LAT_PLAT_NR (PCS_LAT_PLAT_GROUP_NR * PCS_LAT_PLAT_VAL) /* 1856 */

/* fio's io_u_lat_n/u/m buckets (io_u.c io_u_mark_lat_*sec()): "2" holds
 * 0..1, "4" 2..3, "10" 4..9, ... "1000" 750..999 of the unit; the ms list
 * adds "2000" (1000..1999 ms) and ">=2000". */
#define PCS_LAT_NR_N 10
#define PCS_LAT_NR_U 10
#define PCS_LAT_NR_M 12

typedef struct {
  uint64_t n, min, max, sum; /* ns */
  double mean, S;            /* running mean and sum of squared deviations (fio's io_stat) */
  uint64_t plat[PCS_LAT_PLAT_NR];
  uint64_t lat_n[PCS_LAT_NR_N], lat_u[PCS_LAT_NR_U], lat_m[PCS_LAT_NR_M];
} PcsLatHist;

/* The bucket of NS (fio's plat_val_to_idx()). */
static inline uint32_t pcs_lathist_idx(uint64_t ns) {
  uint32_t msb = ns ? 63u - (uint32_t)__builtin_clzll(ns) : 0;
  if (msb <= PCS_LAT_PLAT_BITS) return (uint32_t)ns;
  uint32_t error_bits = msb - PCS_LAT_PLAT_BITS;
  uint64_t idx = ((uint64_t)(error_bits + 1) << PCS_LAT_PLAT_BITS) + ((PCS_LAT_PLAT_VAL - 1) & (ns >> error_bits));
  return idx < PCS_LAT_PLAT_NR - 1 ? (uint32_t)idx : PCS_LAT_PLAT_NR - 1;
}

/* The index of V among fio's decade-ish bounds 2,4,10,20,50,100,250,500,750,1000. */
static inline uint32_t pcs_lathist_decade(uint64_t v) {
  static const uint16_t upper[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  uint32_t i = 0;
  while (i < G_N_ELEMENTS(upper) - 1 && v >= upper[i]) i++;
  return i;
}

/* Files one latency of NS nanoseconds. */
static inline void pcs_lathist_add(PcsLatHist *h, uint64_t ns) {
  if (h->n == 0 || ns < h->min) h->min = ns;
  if (ns > h->max) h->max = ns;
  h->n++;
  h->sum += ns;
  double delta = (double)ns - h->mean;
  h->mean += delta / (double)h->n;
  h->S += delta * ((double)ns - h->mean);
  h->plat[pcs_lathist_idx(ns)]++;
  if (ns < 1000) h->lat_n[pcs_lathist_decade(ns)]++;
  else if (ns < 1000000) h->lat_u[pcs_lathist_decade(ns / 1000)]++;
  else {
    uint64_t ms = ns / 1000000;
    h->lat_m[ms < 1000 ? pcs_lathist_decade(ms) : ms < 2000 ? 10 : 11]++;
  }
}

/* The value a bucket stands for, in ns (fio's plat_idx_to_val(): its middle). */
uint64_t pcs_lathist_value(uint32_t idx);
/* The P-th percentile (0 < P <= 100) in ns by calc_clat_percentiles()'s
 * rule; 0 when nothing was recorded. */
uint64_t pcs_lathist_percentile(const PcsLatHist *h, double p);
/* PCTS[0..N-1] (ascending) at once, into OUT (ns). */
void pcs_lathist_percentiles(const PcsLatHist *h, const double *pcts, size_t n, uint64_t *out);
/* Sample standard deviation in ns, as fio's calc_lat() (0 for fewer than 2). */
double pcs_lathist_stddev(const PcsLatHist *h);
/* Adds SRC into DST (fio's sum_stat() for group_reporting). */
void pcs_lathist_merge(PcsLatHist *dst, const PcsLatHist *src);

#endif
