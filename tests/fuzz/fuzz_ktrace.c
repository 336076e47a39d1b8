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
  }
  pcs_ktrace_clear(&t);
  return 0;
}
