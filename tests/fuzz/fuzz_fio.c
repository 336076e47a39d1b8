/* fuzz_fio.c - libFuzzer target: fio job files (pcs_fio_load_text), mapped
 * onto a scenario and validated. */
#include "pcsim/fio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsFioJob job;
  GError *error = NULL;
  if (pcs_fio_load_text(&job, "fuzz.fio", (const char *)data, size, &error)) {
    PcsParams p;
    pcs_params_init(&p);
    if (!pcs_fio_apply(&job, &p, &error) || !pcs_params_validate(&p, &error)) {
      g_assert(error && error->domain == PCS_ERROR);
      g_clear_error(&error);
    }
    pcs_params_clear(&p);
  } else {
    g_assert(error && error->domain == PCS_ERROR && *error->message);
    g_error_free(error);
  }
  pcs_fio_clear(&job);
  return 0;
}
