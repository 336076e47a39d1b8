/* lathist.c - percentiles and sums of fio-style latency histograms.
 *
 * Models fio's stat.c: plat_idx_to_val(), calc_clat_percentiles() and, for
 * group_reporting, sum_stat() (the pooled mean and squared deviations of
 * two samples).  Recording (pcs_lathist_add()) is inline in lathist.h.
 * Differs from fio: nothing; the percentile rule and bucket values are
 * fio's, so a histogram of the same latencies prints the same percentiles.
 */
#include "pcsim/lathist.h"

#include <math.h>

uint64_t pcs_lathist_value(uint32_t idx) {
  g_assert(idx < PCS_LAT_PLAT_NR);
  if (idx < (PCS_LAT_PLAT_VAL << 1)) return idx;
  uint32_t error_bits = (idx >> PCS_LAT_PLAT_BITS) - 1;
  uint64_t base = UINT64_C(1) << (error_bits + PCS_LAT_PLAT_BITS);
  uint64_t k = idx % PCS_LAT_PLAT_VAL;
  return base + (uint64_t)(((double)k + 0.5) * (double)(UINT64_C(1) << error_bits));
}

void pcs_lathist_percentiles(const PcsLatHist *h, const double *pcts, size_t n, uint64_t *out) {
  uint64_t sum = 0;
  size_t j = 0;
  for (size_t j0 = 0; j0 < n; j0++) out[j0] = 0;
  if (!h->n || !n) return;
  /* fio: walk the buckets, and at each one emit every percentile whose
   * share of all samples the running count has reached */
  for (uint32_t i = 0; i < PCS_LAT_PLAT_NR && j < n; i++) {
    sum += h->plat[i];
    while (j < n && (long double)sum >= (long double)pcts[j] / 100.0L * (long double)h->n) out[j++] = pcs_lathist_value(i);
  }
}

uint64_t pcs_lathist_percentile(const PcsLatHist *h, double p) {
  uint64_t v;
  pcs_lathist_percentiles(h, &p, 1, &v);
  return v;
}

double pcs_lathist_stddev(const PcsLatHist *h) {
  return h->n > 1 ? sqrt(h->S / (double)(h->n - 1)) : 0.0;
}

void pcs_lathist_merge(PcsLatHist *dst, const PcsLatHist *src) {
  if (!src->n) return;
  if (!dst->n) {
    *dst = *src;
    return;
  }
  /* sum_stat(): pooled mean and squared deviations (Chan et al.) */
  double n1 = (double)dst->n, n2 = (double)src->n, delta = src->mean - dst->mean;
  double mean = dst->mean + delta * n2 / (n1 + n2);
  dst->S += src->S + delta * delta * n1 * n2 / (n1 + n2);
  dst->mean = mean;
  dst->min = MIN(dst->min, src->min);
  dst->max = MAX(dst->max, src->max);
  dst->n += src->n;
  dst->sum += src->sum;
  for (uint32_t i = 0; i < PCS_LAT_PLAT_NR; i++) dst->plat[i] += src->plat[i];
  for (uint32_t i = 0; i < PCS_LAT_NR_N; i++) dst->lat_n[i] += src->lat_n[i];
  for (uint32_t i = 0; i < PCS_LAT_NR_U; i++) dst->lat_u[i] += src->lat_u[i];
  for (uint32_t i = 0; i < PCS_LAT_NR_M; i++) dst->lat_m[i] += src->lat_m[i];
}
