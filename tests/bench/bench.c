/* bench.c - pcsim's benchmark driver (`cmake --build build --target bench`).
 *
 * Runs the pcsim binary on a fixed set of cases, each several times in a
 * fresh process, and prints one line per case: median wall seconds (fork to
 * exit, as a user feels it), events, events per second and peak RSS (from
 * wait4()).  Then the two ratios the performance goals name (16 GiB against
 * 2 GiB, sweep --jobs 1 against --jobs 2) and, when valgrind is installed,
 * instructions per event of the seed scenario under callgrind, which does
 * not depend on how busy the machine is.
 *
 * usage: pcsim-bench PCSIM SOURCE_DIR [--runs N] [--quick] [--large]
 *   --quick  one run per case, no 16 GiB file, no callgrind (a smoke test)
 *   --large  also the 1 TiB file (about 2 minutes; memory goal)
 */
#include <glib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  double wall;
  unsigned long long events;
  long rss_kib;
} Sample;

typedef struct {
  const char *name;
  const char *args; /* after `pcsim`, space separated */
} Case;

static const char *pcsim, *srcdir;

/* Runs pcsim ARGS once; stderr is scanned for the --stats line. */
static gboolean run_once(const char *args, Sample *out) {
  g_auto(GStrv) words = g_strsplit(args, " ", -1);
  g_autoptr(GPtrArray) argv = g_ptr_array_new();
  g_ptr_array_add(argv, (gpointer)pcsim);
  for (char **w = words; *w; w++) g_ptr_array_add(argv, *w);
  g_ptr_array_add(argv, NULL);
  int errpipe[2];
  if (pipe(errpipe) != 0) return FALSE;
  gint64 t0 = g_get_monotonic_time();
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(srcdir) != 0) _exit(127);
    freopen("/dev/null", "w", stdout);
    dup2(errpipe[1], 2);
    close(errpipe[0]);
    execv(pcsim, (char **)argv->pdata);
    _exit(127);
  }
  close(errpipe[1]);
  GString *err = g_string_new(NULL);
  char buf[4096];
  ssize_t n;
  while ((n = read(errpipe[0], buf, sizeof buf)) > 0) g_string_append_len(err, buf, n);
  close(errpipe[0]);
  int status;
  struct rusage ru;
  wait4(pid, &status, 0, &ru);
  out->wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  out->rss_kib = ru.ru_maxrss;
  const char *ev = strstr(err->str, " events=");
  out->events = ev ? strtoull(ev + 8, NULL, 10) : 0;
  gboolean ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) fprintf(stderr, "bench: pcsim %s failed: %s\n", args, err->str);
  g_string_free(err, TRUE);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median wall of RUNS runs; events and the largest RSS of them. */
static gboolean run_case(const Case *c, int runs, Sample *med) {
  double *walls = g_new(double, runs);
  memset(med, 0, sizeof *med);
  for (int i = 0; i < runs; i++) {
    Sample s;
    if (!run_once(c->args, &s)) {
      g_free(walls);
      return FALSE;
    }
    walls[i] = s.wall;
    med->events = s.events;
    med->rss_kib = MAX(med->rss_kib, s.rss_kib);
  }
  qsort(walls, (size_t)runs, sizeof *walls, cmp_double);
  med->wall = walls[runs / 2];
  g_free(walls);
  printf("%-34s %9.3f %13llu %14.0f %10.1f\n", c->name, med->wall, med->events,
         med->events && med->wall > 0 ? (double)med->events / med->wall : 0.0, (double)med->rss_kib / 1024.0);
  fflush(stdout);
  return TRUE;
}

/* Instructions per event of the seed scenario (immediate) under callgrind. */
static void callgrind(void) {
  g_autofree char *valgrind = g_find_program_in_path("valgrind");
  if (!valgrind) {
    printf("callgrind: skipped (valgrind not installed: apt-get install valgrind)\n");
    return;
  }
  g_autofree char *cmd = g_strdup_printf(
      "cd '%s' && valgrind --tool=callgrind --callgrind-out-file=/dev/null '%s' run workloads/liubo-2011.ini "
      "--policy immediate --stats 2>&1 >/dev/null", srcdir, pcsim);
  g_autofree char *out = NULL;
  int status;
  char *sh[] = {"sh", "-c", cmd, NULL};
  if (!g_spawn_sync(NULL, sh, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, NULL)) {
    printf("callgrind: could not run valgrind\n");
    return;
  }
  const char *ir = strstr(out ? out : "", "Collected : ");
  const char *ev = strstr(out ? out : "", " events=");
  if (!ir || !ev) {
    printf("callgrind: no result\n%s", out ? out : "");
    return;
  }
  unsigned long long instr = strtoull(ir + 12, NULL, 10), events = strtoull(ev + 8, NULL, 10);
  printf("callgrind seed immediate: %llu instructions, %llu events, %.0f instructions/event\n", instr, events,
         (double)instr / (double)events);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pcsim-bench PCSIM SOURCE_DIR [--runs N] [--quick] [--large]\n");
    return 2;
  }
  pcsim = argv[1];
  srcdir = argv[2];
  int runs = 5;
  gboolean quick = FALSE, large = FALSE;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]), runs = MAX(1, runs);
    else if (!strcmp(argv[i], "--quick")) quick = TRUE;
    else if (!strcmp(argv[i], "--large")) large = TRUE;
  }
  if (quick) runs = 1;
#define SEED "run workloads/liubo-2011.ini --stats"
#define SWEEP "sweep workloads/liubo-2011.ini --set workload.file_size=256M --vary workload.threads=1..10 " \
              "--vary readahead.read_ahead_kb=16..8192*2 --policy pool:16 --stats"
  const Case cases[] = {
    {"seed immediate", SEED " --policy immediate"},
    {"seed pool:16", SEED " --policy pool:16"},
    {"seed both policies", SEED},
    {"seed 8 threads, both", SEED " --set workload.threads=8"},
    {"seed 16 threads, both", SEED " --set workload.threads=16"},
    {"2 GiB immediate", SEED " --policy immediate --set workload.file_size=2G"},
    {"16 GiB immediate", SEED " --policy immediate --set workload.file_size=16G"},
    {"sweep 100 points --jobs 1", SWEEP " --jobs 1"},
    {"sweep 100 points --jobs 2", SWEEP " --jobs 2"},
    {"1 TiB pool:16, 1 thread", SEED " --policy pool:16 --set workload.threads=1 --set workload.file_size=1T"},
  };
  printf("%-34s %9s %13s %14s %10s\n", "case", "wall_s", "events", "events_per_s", "rss_mib");
  Sample s[G_N_ELEMENTS(cases)];
  memset(s, 0, sizeof s);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    gboolean is_16g = strstr(cases[i].name, "16 GiB") != NULL, is_1t = strstr(cases[i].name, "1 TiB") != NULL;
    if ((quick && is_16g) || (is_1t && !large)) continue;
    if (!run_case(&cases[i], is_1t ? 1 : runs, &s[i])) return 1;
  }
  if (s[5].wall > 0 && s[6].wall > 0) printf("16 GiB / 2 GiB wall: %.2fx (goal <= 9x)\n", s[6].wall / s[5].wall);
  if (s[7].wall > 0 && s[8].wall > 0) printf("sweep --jobs 1 / --jobs 2: %.2fx (goal >= 1.8x)\n", s[7].wall / s[8].wall);
  if (!quick) callgrind();
  return 0;
}
