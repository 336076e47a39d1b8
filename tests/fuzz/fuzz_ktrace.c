/* fuzz_ktrace.c - libFuzzer target: kernel block traces (ftrace text or
 * blkparse output) as `pcsim trace-stats` and `pcsim compare` read them. */
#include "pcsim/ktrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsKtrace t;
  GError *error = NULL;
  if (!pcs_ktrace_load_text(&t, "fuzz.trace", (const char *)data, size, &error)) {
    g_assert(error && error->domain == PCS_ERROR && *error->message);
    g_error_free(error);
  } else {
    guint64 n = 0;
    for (guint k = 0; k < t.bio_pages_hist->len; k++) n += g_array_index(t.bio_pages_hist, guint64, k);
    g_assert(n == t.c.bios);
    const PcsKtraceMechanism *m = &t.mech;
    g_assert(m->owner_changes <= m->page_pairs && m->contiguous_pairs <= m->page_pairs);
    g_assert(m->page_pairs < m->file_pages || !m->present);
    double mib = 0;
    for (guint k = 0; k < m->inserted_mib_per_thread->len; k++)
      mib += g_array_index(m->inserted_mib_per_thread, PcsKtraceThreadMib, k).mib;
    g_assert(mib == (double)m->inserted_pages * 4096 / (1024.0 * 1024.0) || m->inserted_mib_per_thread->len > 1);
    n = 0;
    for (guint k = 0; k < PCS_KTRACE_LATENCY_BUCKETS; k++) n += t.dev.latency_us_hist[k];
    g_assert(n == t.dev.timed);
  }
  pcs_ktrace_clear(&t);
  return 0;
}
