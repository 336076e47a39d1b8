/* bench.c - pcsim's benchmark driver (`cmake --build build --target bench`).
 *
 * Runs the pcsim binary on a fixed set of cases, each several times in a
 * fresh process, and prints one line per case: median wall seconds (fork to
 * exit, as a user feels it), events, events per second and peak RSS (from
 * wait4()).  Then the two ratios the performance goals name (16 GiB against
 * 2 GiB, sweep --jobs 1 against --jobs 2) and, when valgrind is installed,
 * instructions per event of the seed scenario under callgrind (both kernel
 * profiles), which does not depend on how busy the machine is.
 *
 * An event is a simulated step, however it is dispatched: a reader step
 * run inline because it was provably the next event (evq.h,
 * pcs_evq_hold_inline()) counts as one, as a pushed and popped one does,
 * so events per second and the ratio to the bare heap mean the same as
 * before inline dispatch existed.  A copy folded into the event of the copy
 * before it (sim/model/fold.h) counts too (the
 * events of a run do not depend on how it was simulated), but it costs no
 * queue work at all: so each seed case also prints its ratio per event
 * dispatched (its events less the folded ones, from --stats' folded=),
 * the figure to hold against the bare heap's one pop and push an event.
 *
 * The floor: a bare binary min-heap of (time, seq) keys holding 16 pending
 * events, one pop and one push per event (no pcsim code).  Each run of a
 * seed case (the seed scenario, workloads/liubo-2011.ini, under
 * kernel=v3.5 and kernel=v6.18) is paired with the floor: the heap is timed
 * in this process right before and right after that run (about 0.1 s
 * each), and the run's ratio is pcsim's ns per event (its own wall_s of
 * --stats over its events, without process start) over the mean of the
 * two.  The case's ratio is the median of its runs' ratios, printed with
 * their min..max.  On a busy machine both sides move within a second, so
 * a pair's ratio moves far less than either; a ratio against a heap timed
 * a minute earlier would not.
 *
 * usage: pcsim-bench PCSIM SOURCE_DIR [--runs N] [--quick] [--large]
 *   --quick  one run per case, no 16 GiB file, no callgrind (a smoke test)
 *   --large  also the 1 TiB file (about 2 minutes; memory goal)
 */
#include <glib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  double wall;     /* fork to exit */
  double run_wall; /* the run's own wall_s (--stats): simulation only */
  unsigned long long events;
  unsigned long long folded; /* of the events: copy steps folded into another's event (--stats folded=) */
  long rss_kib;
  /* seed cases (paired with the bare heap): median ratio of the runs, their range, the heap's median ns;
   * the same per event dispatched (events less folded) */
  double ratio, ratio_min, ratio_max, heap_ns;
  double dratio, dratio_min, dratio_max;
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
  const char *fo = strstr(err->str, " folded=");
  out->folded = fo ? strtoull(fo + 8, NULL, 10) : 0;
  const char *w = strstr(err->str, "wall_s=");
  out->run_wall = w ? g_ascii_strtod(w + 7, NULL) : out->wall;
  gboolean ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) fprintf(stderr, "bench: pcsim %s failed: %s\n", args, err->str);
  g_string_free(err, TRUE);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ---- the floor: a bare binary heap hold ---- */

typedef struct {
  uint64_t time, seq;
} HeapKey;

static inline int key_less(HeapKey a, HeapKey b) { return a.time < b.time || (a.time == b.time && a.seq < b.seq); }

/* EVENTS holds of a heap with PENDING entries: pop the smallest (time, seq),
 * push one at time + a pseudo-random delay (xorshift, 1..4096 ns), as an
 * event loop that schedules one event per event handled.  Returns ns per
 * event; *CHECK receives a checksum so the loop cannot be optimised away. */
static double bare_heap_ns(uint64_t events, unsigned pending, uint64_t *check) {
  HeapKey h[64];
  uint64_t x = 88172645463325252ull, seq = 0, sum = 0;
  unsigned n = 0;
  for (; n < pending; n++) h[n] = (HeapKey){n * 100u, seq++}; /* a heap: keys increase */
  gint64 t0 = g_get_monotonic_time();
  for (uint64_t e = 0; e < events; e++) {
    HeapKey top = h[0];
    sum += top.time ^ top.seq;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    HeapKey k = {top.time + 1 + (x & 4095), seq++};
    unsigned i = 0; /* pop and push at once: sift K down from the root */
    for (;;) {
      unsigned c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && key_less(h[c + 1], h[c])) c++;
      if (!key_less(h[c], k)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = k;
  }
  double ns = (double)(g_get_monotonic_time() - t0) * 1e3 / (double)events;
  *check = sum;
  return ns;
}

/* The bare heap's ns per event, timed now: 5 M holds (about 0.1 s). */
static double heap_now(uint64_t *check) {
  uint64_t c;
  double ns = bare_heap_ns(5000000, 16, &c);
  *check ^= c;
  return ns;
}

/* Median of the N values in V (sorts V). */
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* Median wall of RUNS runs; events and the largest RSS of them.  PAIRED:
 * each run between two timings of the bare heap, and the median ratio. */
static gboolean run_case(const Case *c, int runs, gboolean paired, Sample *med) {
  double *walls = g_new(double, runs), *run_walls = g_new(double, runs);
  double *ratios = g_new(double, runs), *heaps = g_new(double, runs), *dratios = g_new(double, runs);
  uint64_t check = 0;
  memset(med, 0, sizeof *med);
  for (int i = 0; i < runs; i++) {
    Sample s;
    double before = paired ? heap_now(&check) : 0;
    if (!run_once(c->args, &s)) {
      g_free(walls), g_free(run_walls), g_free(ratios), g_free(heaps), g_free(dratios);
      return FALSE;
    }
    heaps[i] = paired ? (before + heap_now(&check)) / 2 : 0;
    ratios[i] = paired && s.events ? s.run_wall * 1e9 / (double)s.events / heaps[i] : 0;
    dratios[i] = paired && s.events > s.folded ? s.run_wall * 1e9 / (double)(s.events - s.folded) / heaps[i] : 0;
    med->folded = s.folded;
    walls[i] = s.wall;
    run_walls[i] = s.run_wall;
    med->events = s.events;
    med->rss_kib = MAX(med->rss_kib, s.rss_kib);
  }
  med->wall = median(walls, runs);
  med->run_wall = median(run_walls, runs);
  med->ratio = median(ratios, runs); /* sorted: [0] and [runs - 1] are the range */
  med->ratio_min = ratios[0], med->ratio_max = ratios[runs - 1];
  med->heap_ns = median(heaps, runs);
  med->dratio = median(dratios, runs);
  med->dratio_min = dratios[0], med->dratio_max = dratios[runs - 1];
  if (check == 1) printf("(checksum %llx)\n", (unsigned long long)check); /* keeps the heap loop */
  g_free(walls), g_free(run_walls), g_free(ratios), g_free(heaps), g_free(dratios);
  printf("%-34s %9.3f %13llu %14.0f %10.1f\n", c->name, med->wall, med->events,
         med->events && med->wall > 0 ? (double)med->events / med->wall : 0.0, (double)med->rss_kib / 1024.0);
  fflush(stdout);
  return TRUE;
}

/* Median of RUNS timings of 20 M holds with 16 pending. */
static double bare_heap_median(int runs) {
  double *v = g_new(double, runs);
  uint64_t check = 0, c;
  for (int i = 0; i < runs; i++) v[i] = bare_heap_ns(20000000, 16, &c), check ^= c;
  qsort(v, (size_t)runs, sizeof *v, cmp_double);
  double m = v[runs / 2];
  g_free(v);
  printf("%-34s %9.1f ns/event %8.1f M events/s (checksum %llx)\n", "bare heap, 16 pending", m, 1e3 / m,
         (unsigned long long)(check & 0xffff));
  fflush(stdout);
  return m;
}

/* Seed case S: pcsim's median ns per event, and its runs' ratios to the
 * bare heap timed around each (median, min..max). */
static void against_heap(const char *name, const Sample *s) {
  if (!s->events || s->run_wall <= 0) return;
  double ns = s->run_wall * 1e9 / (double)s->events;
  printf("%-34s %7.1f ns/event %6.1f M events/s  heap %5.1f ns  %5.2fx (%.2f..%.2f) the bare heap (goal <= 1.25x)\n",
         name, ns, 1e3 / ns, s->heap_ns, s->ratio, s->ratio_min, s->ratio_max);
  if (s->folded)
    printf("%-34s %7.1f ns/event dispatched (%.0f%% of the events folded)  %5.2fx (%.2f..%.2f) the bare heap\n", "",
           s->run_wall * 1e9 / (double)(s->events - s->folded), 100.0 * (double)s->folded / (double)s->events,
           s->dratio, s->dratio_min, s->dratio_max);
}

/* Instructions per event of the seed scenario (immediate) under KERNEL's
 * profile, under callgrind. */
static void callgrind(const char *kernel) {
  g_autofree char *valgrind = g_find_program_in_path("valgrind");
  if (!valgrind) {
    printf("callgrind: skipped (valgrind not installed: apt-get install valgrind)\n");
    return;
  }
  g_autofree char *cmd = g_strdup_printf(
      "cd '%s' && valgrind --tool=callgrind --callgrind-out-file=/dev/null '%s' run workloads/liubo-2011.ini "
      "--policy immediate --set scenario.kernel=%s --stats 2>&1 >/dev/null", srcdir, pcsim, kernel);
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
  printf("callgrind seed immediate, %s: %llu instructions, %llu events, %.0f instructions/event\n", kernel, instr,
         events, (double)instr / (double)events);
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
#define V35 " --set scenario.kernel=v3.5"
/* The same 1000 MiB read by 4 threads through btrfs's 4 KiB folios and
 * ext4's large ones (issue 37): the events per MiB large folios save. */
#define FS618 "run workloads/linux-6.18-btrfs.ini --stats --set workload.file_size=1000M --set readahead.read_ahead_kb=4096"
#define V618 " --set scenario.kernel=v6.18"
  /* The seed scenario under both kernel profiles: scenario.kernel sets the
   * profile's defaults and the seed's own values win (its plug_max 16,
   * bio.max_size 512k), as for any scenario (docs/params.md). */
  const Case cases[] = {
    {"seed immediate, v3.5", SEED " --policy immediate" V35},
    {"seed pool:16, v3.5", SEED " --policy pool:16" V35},
    {"seed both policies, v3.5", SEED V35},
    {"seed immediate, v6.18", SEED " --policy immediate" V618},
    {"seed pool:16, v6.18", SEED " --policy pool:16" V618},
    {"seed both policies, v6.18", SEED V618},
    {"seed 8 threads, both", SEED " --set workload.threads=8"},
    {"seed 16 threads, both", SEED " --set workload.threads=16"},
    {"2 GiB immediate", SEED " --policy immediate --set workload.file_size=2G"},
    {"16 GiB immediate", SEED " --policy immediate --set workload.file_size=16G"},
    {"sweep 100 points --jobs 1", SWEEP " --jobs 1"},
    {"sweep 100 points --jobs 2", SWEEP " --jobs 2"},
    {"1 TiB pool:16, 1 thread", SEED " --policy pool:16 --set workload.threads=1 --set workload.file_size=1T"},
    {"linux-6.18 btrfs, 4 MiB ra", FS618 " --set scenario.filesystem=btrfs"},
    {"linux-6.18 ext4, 4 MiB ra", FS618 " --set scenario.filesystem=ext4 --set bio.csum_leaf_size=0"},
  };
  enum { SEED_CASES = 6, GIB2 = 8, GIB16 = 9, JOBS1 = 10, JOBS2 = 11, BTRFS = 13, EXT4 = 14 }; /* indices in cases[] */
  printf("%-34s %9s %13s %14s %10s\n", "case", "wall_s", "events", "events_per_s", "rss_mib");
  Sample s[G_N_ELEMENTS(cases)];
  memset(s, 0, sizeof s);
  bare_heap_median(quick ? 1 : 3); /* the floor alone, for the record; the ratios pair each run with it */
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    gboolean is_16g = i == GIB16, is_1t = strstr(cases[i].name, "1 TiB") != NULL;
    if ((quick && is_16g) || (is_1t && !large)) continue;
    if (!run_case(&cases[i], is_1t ? 1 : runs, i < SEED_CASES, &s[i])) return 1;
  }
  printf("\nper event, against the bare heap timed right before and after each run (%d runs: median ratio, min..max)\n",
         runs);
  for (size_t i = 0; i < SEED_CASES; i++) against_heap(cases[i].name, &s[i]);
  if (s[GIB2].wall > 0 && s[GIB16].wall > 0) printf("16 GiB / 2 GiB wall: %.2fx (goal <= 9x)\n", s[GIB16].wall / s[GIB2].wall);
  if (s[JOBS1].wall > 0 && s[JOBS2].wall > 0)
    printf("sweep --jobs 1 / --jobs 2: %.2fx (goal >= 1.8x)\n", s[JOBS1].wall / s[JOBS2].wall);
  if (s[BTRFS].events > 0 && s[EXT4].events > 0)
    printf("events per MiB of the file, 4 MiB readahead, 4 threads: btrfs %.0f, ext4 %.0f (%.1fx fewer), wall %.2fx\n",
           (double)s[BTRFS].events / 1000.0, (double)s[EXT4].events / 1000.0, (double)s[BTRFS].events / (double)s[EXT4].events, s[BTRFS].wall / s[EXT4].wall);
  if (!quick) callgrind("v3.5"), callgrind("v6.18");
  return 0;
}
