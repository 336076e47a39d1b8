/* test_memory.c - page state costs at most one byte per page of the file
 * (issue 17): a 1 TiB file (268 Mi pages; one thread, pool:16) is
 * simulated to the end in under 300 MiB of peak RSS.
 *
 * Everything else a run holds (bios, requests, the event queue, each
 * reader's list) is sized by the queue and the readahead window, not by
 * the file, so the 1 TiB run's peak is its 256 MiB of page bytes plus a
 * few MiB.  The peak is the one `--stats` prints (getrusage's ru_maxrss of
 * the pcsim process).  About 30 s on a quiet machine: labelled slow, and
 * left out of the sanitizer build, whose shadow memory would be measured.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

static void one_tib_file_runs_in_under_300_mib(void **state) {
  g_autofree char *out = NULL, *err = NULL;
  assert_int_equal(test_pcsim(&out, &err, "run", "workloads/liubo-2011.ini", "--policy", "pool:16", "--set",
                              "workload.threads=1", "--set", "workload.file_size=1T", "--format", "json", "--stats",
                              NULL),
                   0);
  const char *rss = strstr(err, "peak_rss_kib="), *ev = strstr(err, " events=");
  assert_non_null(rss);
  assert_non_null(ev);
  uint64_t peak = g_ascii_strtoull(rss + strlen("peak_rss_kib="), NULL, 10) * PCS_KIB;
  uint64_t events = g_ascii_strtoull(ev + strlen(" events="), NULL, 10);
  uint64_t pages = (uint64_t)PCS_KIB * PCS_KIB * PCS_KIB * PCS_KIB / PCS_PAGE_SIZE;
  /* the whole file was simulated: every page copied and read */
  assert_true(events > 3 * pages);
  g_autofree char *read_all = g_strdup_printf("\"pages_read\": %" G_GUINT64_FORMAT ",", pages);
  assert_non_null(strstr(out, read_all));
  print_message("1 TiB: peak RSS %" G_GUINT64_FORMAT " MiB for %" G_GUINT64_FORMAT " Mi pages, %" G_GUINT64_FORMAT
                " events\n", peak / (PCS_KIB * PCS_KIB), pages / (PCS_KIB * PCS_KIB), events);
  assert_true(peak < 300 * PCS_KIB * PCS_KIB);
  /* at most one byte of page state per page: no more than the pages plus 44 MiB for the rest */
  assert_true(peak <= pages + 44 * PCS_KIB * PCS_KIB);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(one_tib_file_runs_in_under_300_mib),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
