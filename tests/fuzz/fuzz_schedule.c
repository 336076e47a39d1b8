/* fuzz_schedule.c - libFuzzer target: `pcsim replay` schedule files.
 *
 * Loads the input as a schedule and replays it under every policy kind.
 */
#include "pcsim/policy.h"
#include "pcsim/params.h"
#include "pcsim/steps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsSchedule s;
  GError *error = NULL;
  if (pcs_schedule_load_text(&s, "fuzz.sched", (const char *)data, size, &error)) {
    const char *names[] = {"immediate", "pool:3", "pool-contig:2", "window"};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
      PcsPolicy pol;
      g_assert(pcs_policy_parse(names[i], &pol, NULL));
      GArray *bios = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
      if (!pcs_steps_replay(&s, &pol, bios, "fuzz.sched", &error)) {
        g_assert(error->domain == PCS_ERROR);
        g_clear_error(&error);
      }
      g_array_free(bios, TRUE);
    }
    pcs_schedule_clear(&s);
  } else {
    g_assert(error && error->domain == PCS_ERROR);
    g_error_free(error);
    pcs_schedule_clear(&s);
  }
  return 0;
}
