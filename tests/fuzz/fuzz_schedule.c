/* fuzz_schedule.c - libFuzzer target: `pcsim replay` schedule files.
 *
 * Loads the input as a schedule and replays it under every policy kind.
 * Whatever the schedule, a complete replay inserts every page once, reads
 * each inserted page once, and its bios cover every page exactly once.
 */
#include "pcsim/policy.h"
#include "pcsim/params.h"
#include "pcsim/steps.h"

typedef struct {
  uint32_t inserted, read, submitted; /* bit per page */
} Cover;

static void cover(void *user, PcsTime t, uint32_t thread, PcsTraceKind kind, uint64_t a, uint64_t b) {
  Cover *c = user;
  uint32_t bits = kind == PCS_TRACE_SUBMIT ? ((1u << b) - 1) << a : 1u << a;
  uint32_t *mask = kind == PCS_TRACE_INSERT ? &c->inserted : kind == PCS_TRACE_READ ? &c->read
                 : kind == PCS_TRACE_SUBMIT ? &c->submitted : NULL;
  if (!mask) return;
  g_assert(!(*mask & bits));
  *mask |= bits;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  PcsSchedule s;
  GError *error = NULL;
  if (pcs_schedule_load_text(&s, "fuzz.sched", (const char *)data, size, &error)) {
    const char *names[] = {"immediate", "pool:3", "pool-contig:2", "window"};
    uint32_t all = (1u << s.pages) - 1;
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
      PcsPolicy pol;
      g_assert(pcs_policy_parse(names[i], &pol, NULL));
      Cover c = {0};
      gboolean ok = pcs_steps_trace(&s, &pol, cover, &c, "fuzz.sched", &error);
      if (ok) {
        g_assert(c.inserted == all && c.read == all && c.submitted == all);
      } else {
        g_assert(error->domain == PCS_ERROR);
        g_clear_error(&error);
      }
      GArray *bios = g_array_new(FALSE, FALSE, sizeof(PcsStepBio));
      g_assert(pcs_steps_replay(&s, &pol, bios, "fuzz.sched", NULL) == ok);
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
