/* test_capture.c - scripts/capture-kernel-trace run for real (ctest label
 * "kernel").
 *
 * One capture of the shared fio job shrunk to 64 MiB (bs=32k, the job file
 * saying numjobs=4) on a loop-backed btrfs, with --numjobs 1,2,4
 * --bdi-read-ahead-kb 128 --only ra128-j1,ra128-j4 --repeat 2: four runs,
 * interleaved (no two-thread run).  The tests then
 * read what a user would: the run folders and their order, the job files as
 * run, the machine file, `pcsim trace-stats` of each trace, and the trace
 * lines themselves (every event there, in the kernel's format, and only for
 * the file system and device under the job).  Skipped, with a message, where
 * root, tracefs, btrfs, mkfs.btrfs, losetup or fio is missing.
 *
 * Then one run of the same job, one thread, on a loop-backed ext4
 * (--loop-fs ext4 --loop-size 1G --bdi-read-ahead-kb 128): the machine file
 * names the file system, the bdi set is the block device's, and the page
 * cache takes large folios.  Skipped where ext4 or mkfs.ext4 is missing.
 * And one run of a job file with two sections there (--numjobs 1): named by
 * the two threads it runs.
 */
#include "support.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pcsim/text.h"

#define REPEATS 2

typedef struct {
  const char *missing; /* why the capture cannot run here, or NULL */
  char *dir;           /* a temporary directory: the job file and OUT */
  char *out;           /* the capture's OUT */
  int status;          /* its exit status */
  char *stdout_text, *stderr_text;
  gboolean tracefs_before; /* tracefs was mounted before the capture */
} Capture;

static Capture cap, ext4, sections;

static gboolean proc_lists(const char *path, const char *word) {
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return FALSE;
  return strstr(text, word) != NULL;
}

static gboolean btrfs_available(void) {
  if (proc_lists("/proc/filesystems", "\tbtrfs\n") || g_file_test("/sys/module/btrfs", G_FILE_TEST_IS_DIR)) return TRUE;
  struct utsname u;
  if (uname(&u) != 0) return FALSE;
  g_autofree char *dir = g_strdup_printf("/lib/modules/%s/kernel/fs/btrfs", u.release);
  return g_file_test(dir, G_FILE_TEST_IS_DIR);
}

static const char *missing_requirement(void) {
  if (geteuid() != 0) return "not root (the capture writes tracefs, drop_caches and sysfs)";
  if (!proc_lists("/proc/filesystems", "\ttracefs\n")) return "this kernel has no tracefs";
  if (!btrfs_available()) return "this kernel has no btrfs";
  const char *tools[][2] = {{"fio", "fio"}, {"mkfs.btrfs", "btrfs-progs"}, {"losetup", "util-linux"},
                            {"findmnt", "util-linux"}, {"flock", "util-linux"}};
  static char why[128];
  for (gsize i = 0; i < G_N_ELEMENTS(tools); i++) {
    g_autofree char *found = g_find_program_in_path(tools[i][0]);
    if (!found) {
      g_snprintf(why, sizeof why, "%s is not installed (apt-get install %s)", tools[i][0], tools[i][1]);
      return why;
    }
  }
  return NULL;
}

static const char *ext4_missing(void) {
  if (!proc_lists("/proc/filesystems", "\text4\n")) return "this kernel has no ext4 (or it is not loaded)";
  g_autofree char *mkfs = g_find_program_in_path("mkfs.ext4");
  return mkfs ? NULL : "mkfs.ext4 is not installed (apt-get install e2fsprogs)";
}

/* Runs the capture script in C->dir with the given arguments after --job and --out. */
static int capture_run(Capture *c, const char *job, char **args) {
  g_autofree char *script = test_path("scripts/capture-kernel-trace");
  GPtrArray *argv = g_ptr_array_new();
  const char *head[] = {"bash", script, "--job", job, "--out", c->out};
  for (gsize i = 0; i < G_N_ELEMENTS(head); i++) g_ptr_array_add(argv, (gpointer)head[i]);
  for (char **a = args; *a; a++) g_ptr_array_add(argv, *a);
  g_ptr_array_add(argv, NULL);
  gboolean ok = g_spawn_sync(c->dir, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &c->stdout_text,
                             &c->stderr_text, &c->status, NULL);
  g_ptr_array_free(argv, TRUE);
  return ok ? 0 : -1;
}

static int capture_setup(void **state) {
  (void)state;
  cap.missing = missing_requirement();
  ext4.missing = cap.missing ? cap.missing : ext4_missing();
  sections.missing = ext4.missing;
  if (cap.missing) return 0;
  cap.tracefs_before = proc_lists("/proc/mounts", " /sys/kernel/tracing tracefs ");
  char *dir = cap.dir = test_tempdir();
  g_autofree char *job = g_build_filename(dir, "job.fio", NULL);
  /* the shared captures' job, at 64 MiB; its numjobs=4 must not win over --numjobs 1 */
  const char *text = "[global]\ngroup_reporting\nthread\nnumjobs=4\nbs=32k\nrw=read\nioengine=sync\n"
                     "directory=/mnt/mech\nfadvise_hint=1\n\n[READ]\nfilename=foobar\nsize=64M\ninvalidate=1\n";
  if (!g_file_set_contents(job, text, -1, NULL)) return -1;
  cap.out = g_build_filename(dir, "out", NULL);
  g_autofree char *repeat = g_strdup_printf("%d", REPEATS);
  char *args[] = {"--loop-btrfs", "3G", "--numjobs", "1,2,4", "--bdi-read-ahead-kb", "128",
                  "--only", "ra128-j1,ra128-j4", "--repeat", repeat, NULL};
  if (capture_run(&cap, job, args) != 0) return -1;
  if (ext4.missing) return 0;
  ext4.dir = g_strdup(dir);
  ext4.out = g_build_filename(dir, "ext4", NULL);
  char *ext4_args[] = {"--loop-fs", "ext4", "--loop-size", "1G", "--numjobs", "1", "--bdi-read-ahead-kb", "128", NULL};
  if (capture_run(&ext4, job, ext4_args) != 0) return -1;
  /* issue 38's two job sections at once, 16 MiB each, each section numjobs=1 */
  sections.dir = g_strdup(dir);
  sections.out = g_build_filename(dir, "sections", NULL);
  g_autofree char *two = g_build_filename(dir, "sections.fio", NULL);
  /* each section its own file: each thread queues its own data bios (on one file a 4k reader
   * behind a 1m one may find every page cached and queue none) */
  const char *two_text = "[global]\nthread\nioengine=sync\nrw=read\ninvalidate=1\nsize=16M\n\n"
                         "[small]\nfilename=small\nbs=4k\nnumjobs=3 ; the script's --numjobs wins\n\n"
                         "[large]\nfilename=large\nbs=1m\n";
  if (!g_file_set_contents(two, two_text, -1, NULL)) return -1;
  char *two_args[] = {"--loop-fs", "ext4", "--loop-size", "1G", "--numjobs", "1", "--bdi-read-ahead-kb", "128", NULL};
  return capture_run(&sections, two, two_args);
}

static int capture_teardown(void **state) {
  (void)state;
  if (cap.dir) {
    char *argv[] = {"rm", "-rf", cap.dir, NULL};
    g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
  g_free(cap.dir), g_free(cap.out), g_free(cap.stdout_text), g_free(cap.stderr_text);
  g_free(ext4.dir), g_free(ext4.out), g_free(ext4.stdout_text), g_free(ext4.stderr_text);
  g_free(sections.dir), g_free(sections.out), g_free(sections.stdout_text), g_free(sections.stderr_text);
  return 0;
}

/* Skips the test where capture C cannot run; fails it where it ran and failed. */
static void need(const Capture *c) {
  if (c->missing) {
    print_message("skipped: %s\n", c->missing);
    skip();
  }
  if (!WIFEXITED(c->status) || WEXITSTATUS(c->status) != 0)
    fail_msg("capture-kernel-trace failed:\n%s%s", c->stdout_text, c->stderr_text);
}
static void need_capture(void) { need(&cap); }

static char *run_file(const char *config, int rep, const char *suffix) {
  g_autofree char *run = g_strdup_printf("%s-rep%d", config, rep);
  g_autofree char *name = g_strconcat(run, suffix, NULL);
  return g_build_filename(cap.out, run, name, NULL);
}

static char *read_or_fail(const char *path) {
  char *text = NULL;
  GError *error = NULL;
  if (!pcs_text_read(path, PCS_TEXT_GZIP, &text, NULL, &error)) fail_msg("%s", error->message);
  return text;
}

/* `key=value` of capture C's machine file, up to the next space (the rest of the line for scheduler) */
static char *machine_value_of(const Capture *c, const char *key) {
  g_autofree char *path = g_build_filename(c->out, "machine.txt", NULL);
  g_autofree char *text = read_or_fail(path);
  g_autofree char *needle = g_strdup_printf("%s=", key);
  const char *at = strstr(text, needle);
  if (at && at != text && at[-1] != ' ') at = NULL;
  if (!at) fail_msg("machine.txt has no %s: %s", needle, text);
  at += strlen(needle);
  return g_strndup(at, strcspn(at, strcmp(key, "scheduler") ? " \n" : "\n"));
}
static char *machine_value(const char *key) { return machine_value_of(&cap, key); }

/* Runs interleaved, one folder each, named like the shared data, only those
 * --only names; each job file as run says the numjobs asked for, not the job
 * file's numjobs=4; each README line has the load average before and after. */
static void runs_are_interleaved_one_folder_each(void **state) {
  need_capture();
  g_autofree char *readme_path = g_build_filename(cap.out, "README", NULL);
  g_autofree char *readme = read_or_fail(readme_path);
  g_autofree char *two = g_build_filename(cap.out, "ra128-j2-rep1", NULL);
  if (g_file_test(two, G_FILE_TEST_EXISTS) || strstr(readme, "ra128-j2")) fail_msg("--only left out ra128-j2, yet it ran");
  g_autoptr(GRegex) load = g_regex_new("^  ra128-j[14]-rep[12]: threads .*, load [0-9.]+ [0-9.]+ [0-9.]+ -> [0-9.]+ [0-9.]+ [0-9.]+$",
                                       G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  guint lines = 0;
  for (g_regex_match(load, readme, 0, &match); g_match_info_matches(match); g_match_info_next(match, NULL)) lines++;
  if (lines != 2 * REPEATS) fail_msg("README: %u run lines with the load average before -> after, not %d:\n%s", lines, 2 * REPEATS, readme);
  const char *at = readme;
  for (int rep = 1; rep <= REPEATS; rep++)
    for (int threads = 1; threads <= 4; threads += 3) {
      g_autofree char *line = g_strdup_printf("  ra128-j%d-rep%d: threads ", threads, rep);
      const char *next = strstr(at, line);
      if (!next) fail_msg("README lacks '%s' after the runs before it:\n%s", line, readme);
      at = next + 1;
      g_autofree char *config = g_strdup_printf("ra128-j%d", threads);
      const char *suffixes[] = {".ftrace.txt.gz", ".json", ".terse.txt"};
      for (gsize i = 0; i < G_N_ELEMENTS(suffixes); i++) {
        g_autofree char *path = run_file(config, rep, suffixes[i]);
        if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) fail_msg("no %s", path);
      }
      g_autofree char *job_path = run_file(config, rep, ".fio");
      g_autofree char *job = read_or_fail(job_path);
      g_autofree char *numjobs = g_strdup_printf("\nnumjobs=%d\n", threads);
      if (!strstr(job, numjobs) || strstr(job, threads == 1 ? "numjobs=4" : "numjobs=1"))
        fail_msg("%s does not run numjobs=%d:\n%s", job_path, threads, job);
      assert_non_null(strstr(job, "size=64M"));
    }
}

/* machine.txt: what calibrate and a reader of the captures need to know. */
static void machine_file_names_kernel_bdi_and_queue_limits(void **state) {
  need_capture();
  struct utsname u;
  assert_int_equal(uname(&u), 0);
  g_autofree char *kernel = machine_value("kernel");
  assert_string_equal(kernel, u.release);
  g_autofree char *bdi = machine_value("bdi");
  assert_true(g_str_has_prefix(bdi, "btrfs-"));
  g_autofree char *fstype = machine_value("fstype");
  assert_string_equal(fstype, "btrfs");
  g_autofree char *bdi_ra = machine_value("bdi_read_ahead_kb");
  assert_string_equal(bdi_ra, "128");
  const char *numbers[] = {"cpus", "max_sectors_kb", "max_segments", "max_segment_size", "nr_requests"};
  for (gsize i = 0; i < G_N_ELEMENTS(numbers); i++) {
    g_autofree char *v = machine_value(numbers[i]);
    if (g_ascii_strtoull(v, NULL, 10) == 0) fail_msg("machine.txt: %s=%s is not a positive number", numbers[i], v);
  }
  g_autofree char *scheduler = machine_value("scheduler");
  assert_non_null(strchr(scheduler, '['));
  g_autofree char *loop = machine_value("loop");
  assert_true(g_str_has_prefix(loop, "/dev/loop"));
}

static JsonObject *trace_stats(const char *trace, JsonParser *parser) {
  g_autofree char *out = NULL, *err = NULL;
  if (test_pcsim(&out, &err, "trace-stats", "--format", "json", trace, NULL) != 0)
    fail_msg("pcsim trace-stats %s: %s", trace, err);
  GError *error = NULL;
  if (!json_parser_load_from_data(parser, out, -1, &error)) fail_msg("%s: %s", trace, error->message);
  return json_node_get_object(json_parser_get_root(parser));
}

static JsonObject *fio_read(const char *path, JsonParser *parser) {
  GError *error = NULL;
  if (!json_parser_load_from_file(parser, path, &error)) fail_msg("%s: %s", path, error->message);
  JsonObject *root = json_node_get_object(json_parser_get_root(parser));
  JsonArray *jobs = json_object_get_array_member(root, "jobs");
  return json_object_get_object_member(json_array_get_object_element(jobs, 0), "read");
}

/* pcsim trace-stats reads the captures: one thread reads the 64 MiB once in
 * 256 KiB bios (128 KiB bdi readahead, doubled by fadvise: about 4 bios per
 * MiB); four threads race on inserts and build no fewer bios per MiB.
 * Four threads can read more than the file: each fio job's invalidate=1
 * drops the cache when it starts, so on a busy machine a late thread drops
 * pages the others have read, and they are read again.  And a thread that
 * starts late may find every page cached, and queue no bio at all: fio's
 * own count says that all four ran. */
static void trace_stats_reads_one_and_four_threads(void **state) {
  need_capture();
  for (int rep = 1; rep <= REPEATS; rep++) {
    g_autofree char *one = run_file("ra128-j1", rep, ".ftrace.txt.gz");
    g_autofree char *four = run_file("ra128-j4", rep, ".ftrace.txt.gz");
    g_autoptr(JsonParser) p1 = json_parser_new(), p4 = json_parser_new();
    JsonObject *s1 = trace_stats(one, p1), *s4 = trace_stats(four, p4);
    assert_int_equal(json_object_get_int_member(s1, "threads"), 1);
    gint64 threads4 = json_object_get_int_member(s4, "threads");
    if (threads4 < 2 || threads4 > 4) fail_msg("rep %d: %" G_GINT64_FORMAT " threads queued data bios, not 2 to 4", rep, threads4);
    g_autofree char *json4 = run_file("ra128-j4", rep, ".json");
    g_autoptr(JsonParser) pf = json_parser_new();
    assert_int_equal(json_object_get_int_member(fio_read(json4, pf), "io_kbytes"), 4 * 64 * 1024);
    double mib1 = json_object_get_double_member(s1, "mib_read"), mib4 = json_object_get_double_member(s4, "mib_read");
    if (mib1 < 63.9 || mib1 > 64.2) fail_msg("rep %d, 1 thread: read %.3f MiB, not the 64 MiB file once", rep, mib1);
    if (mib4 < 63.9 || mib4 > 4 * 64.2) fail_msg("rep %d, 4 threads: read %.3f MiB of the 64 MiB file", rep, mib4);
    double bpm1 = json_object_get_double_member(s1, "bios_per_mib");
    double bpm4 = json_object_get_double_member(s4, "bios_per_mib");
    if (bpm1 < 3.9 || bpm1 > 4.3) fail_msg("rep %d, 1 thread: %.4f bios/MiB, expected about 4", rep, bpm1);
    /* 1% for where the windows' ramp at the start of the file falls */
    if (bpm4 < 0.99 * bpm1) fail_msg("rep %d: 4 threads %.4f bios/MiB, fewer than 1 thread's %.4f", rep, bpm4, bpm1);
  }
}

/* The tracepoints as the kernel prints them (and as the shared captures hold them). */
static const struct {
  const char *event;
  const char *fields; /* regex of what follows "event: " */
  gboolean fs;        /* filtered to the file system (else to the device) */
} EVENTS[] = {
  {"block_bio_queue", "^DEV R\\S* \\d+ \\+ \\d+ \\[.*\\]$", FALSE},
  {"block_rq_issue", "^DEV R\\S* \\d+ \\(.*\\) \\d+ \\+ \\d+ \\w+,\\d+,\\d+ \\[.*\\]$", FALSE},
  {"block_rq_complete", "^DEV R\\S* \\(.*\\) \\d+ \\+ \\d+ \\w+,\\d+,\\d+ \\[-?\\d+\\]$", FALSE},
  {"page_cache_sync_ra", "^dev=DEV ino=[0-9a-f]+ index=\\d+ req_count=\\d+ order=\\d+ size=\\d+ async_size=\\d+ "
                         "ra_pages=\\d+ mmap_miss=\\d+ prev_pos=-?\\d+$", TRUE},
  {"page_cache_async_ra", "^dev=DEV ino=[0-9a-f]+ index=\\d+ req_count=\\d+ order=\\d+ size=\\d+ async_size=\\d+ "
                          "ra_pages=\\d+ mmap_miss=\\d+ prev_pos=-?\\d+$", TRUE},
  {"page_cache_ra_order", "^dev=DEV ino=[0-9a-f]+ index=\\d+ order=\\d+ size=\\d+ async_size=\\d+ ra_pages=\\d+$", TRUE},
  {"page_cache_ra_unbounded", "^dev=DEV ino=[0-9a-f]+ index=\\d+ nr_to_read=\\d+ lookahead_size=\\d+$", TRUE},
  {"mm_filemap_add_to_page_cache", "^dev DEV ino [0-9a-f]+ pfn=0x[0-9a-f]+ ofs=\\d+ order=\\d+$", TRUE},
};

/* Counts each event's lines in TEXT into COUNT; fails on a line of another
 * event, or one in another format or for another device. */
static void check_lines(const char *path, const char *text, const char *fs_dev, const char *blk_dev, guint *count) {
  GRegex *re[G_N_ELEMENTS(EVENTS)];
  for (gsize e = 0; e < G_N_ELEMENTS(EVENTS); e++) {
    g_autofree char *dev = g_regex_escape_string(EVENTS[e].fs ? fs_dev : blk_dev, -1);
    g_auto(GStrv) parts = g_strsplit(EVENTS[e].fields, "DEV", 2);
    g_autofree char *pattern = g_strconcat(parts[0], dev, parts[1], NULL);
    re[e] = g_regex_new(pattern, 0, 0, NULL);
    assert_non_null(re[e]);
  }
  /* lines by length, not g_strsplit or strstr: under ASan each strstr call
   * measures the whole rest of the text, quadratic over a 1.5 MB trace */
  guint n = 0;
  for (const char *line = text, *end = text + strlen(text); line < end; n++) {
    const char *nl = memchr(line, '\n', (gsize)(end - line));
    gssize len = (nl ? nl : end) - line;
    const char *next = nl ? nl + 1 : end;
    if (len == 0 || *line == '#') {
      line = next;
      continue;
    }
    /* "TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS"; a task name has no ": " */
    const char *name = g_strstr_len(line, len, ": ");
    const char *rest = name ? g_strstr_len(name + 2, line + len - (name + 2), ": ") : NULL;
    gsize e = G_N_ELEMENTS(EVENTS);
    if (rest) {
      name += 2;
      for (e = 0; e < G_N_ELEMENTS(EVENTS); e++)
        if ((gsize)(rest - name) == strlen(EVENTS[e].event) && !strncmp(name, EVENTS[e].event, (gsize)(rest - name)))
          break;
    }
    if (e == G_N_ELEMENTS(EVENTS)) fail_msg("%s:%u: not one of the captured events: %.*s", path, n + 1, (int)len, line);
    if (!g_regex_match_full(re[e], rest + 2, line + len - (rest + 2), 0, 0, NULL, NULL))
      fail_msg("%s:%u: not the kernel's %s format for dev %s: %.*s", path, n + 1, EVENTS[e].event,
               EVENTS[e].fs ? fs_dev : blk_dev, (int)len, line);
    count[e]++;
    line = next;
  }
  for (gsize e = 0; e < G_N_ELEMENTS(EVENTS); e++) g_regex_unref(re[e]);
}

/* Every new event is in each trace, in the kernel's format, and only for
 * the btrfs's s_dev (readahead, filemap) or the loop device (block): the
 * tracefs filters worked, on a machine busy with other I/O. */
static void events_are_present_and_filtered(void **state) {
  need_capture();
  g_autofree char *fs_dev = machine_value("fs_dev");
  g_autofree char *dev = machine_value("dev");
  assert_true(g_str_has_prefix(fs_dev, "0:")); /* btrfs's anonymous dev */
  g_autofree char *blk_dev = g_strdelimit(g_strdup(dev), ":", ',');
  for (int rep = 1; rep <= REPEATS; rep++)
    for (int threads = 1; threads <= 4; threads += 3) {
      g_autofree char *config = g_strdup_printf("ra128-j%d", threads);
      g_autofree char *path = run_file(config, rep, ".ftrace.txt.gz");
      g_autofree char *text = read_or_fail(path);
      assert_true(g_str_has_prefix(text, "# tracer: nop\n"));
      guint count[G_N_ELEMENTS(EVENTS)] = {0};
      check_lines(path, text, fs_dev, blk_dev, count);
      for (gsize e = 0; e < G_N_ELEMENTS(EVENTS); e++)
        if (count[e] == 0) fail_msg("%s: no %s line", path, EVENTS[e].event);
      /* one insert per 4 KiB page of the file at least (metadata pages come on top) */
      if (count[7] < 64 * 256) fail_msg("%s: %u page inserts, fewer than the file's 16384 pages", path, count[7]);
    }
}

/* No mount, loop device or image left behind; tracefs as it was. */
static void nothing_is_left_behind(void **state) {
  need_capture();
  assert_false(proc_lists("/proc/mounts", "pcsim-capture-mnt-"));
  assert_int_equal(proc_lists("/proc/mounts", " /sys/kernel/tracing tracefs "), cap.tracefs_before);
  g_autoptr(GDir) dir = g_dir_open("/sys/block", 0, NULL);
  assert_non_null(dir);
  for (const char *name; (name = g_dir_read_name(dir));) {
    g_autofree char *backing = g_strdup_printf("/sys/block/%s/loop/backing_file", name);
    if (g_str_has_prefix(name, "loop") && proc_lists(backing, "pcsim-capture-"))
      fail_msg("%s is still attached to %s", name, backing);
  }
}

/* A job file of two sections with --numjobs 1 runs two threads, one a
 * section (the sections' own numjobs dropped): its runs are named -j2, the
 * job as run says numjobs=1 once, in [global], and no run warns that it
 * asked for other than the threads that queued data bios. */
static void sections_are_named_by_their_threads(void **state) {
  need(&sections);
  g_autofree char *dir = g_build_filename(sections.out, "ra128-j2-rep1", NULL);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
    fail_msg("no ra128-j2-rep1 in %s:\n%s%s", sections.out, sections.stdout_text, sections.stderr_text);
  g_autofree char *job_path = g_build_filename(dir, "ra128-j2-rep1.fio", NULL);
  g_autofree char *job = read_or_fail(job_path);
  assert_non_null(strstr(job, "[global]\nnumjobs=1\n"));
  assert_null(strstr(job, "numjobs=3"));
  assert_non_null(strstr(job, "[small]") && strstr(job, "[large]") ? job : NULL);
  assert_null(strstr(sections.stderr_text, "asked for"));
  assert_non_null(strstr(sections.stdout_text, "ra128-j2-rep1.ftrace.txt.gz (2 threads queued data bios)"));
}

/* ext4 reads ahead through the loop device's own bdi: the machine file says
 * fstype=ext4 and bdi=MAJ:MIN of the device, whose read_ahead_kb (the same
 * value as queue/read_ahead_kb) the script set to 128; and the page cache
 * takes large folios: with a 256 KiB window (128 KiB doubled by fadvise)
 * the 64 MiB file goes in as order-6 (256 KiB) folios after the first
 * windows' ramp, 256 of them at most, against btrfs's 16384 order-0 pages. */
static void ext4_reads_ahead_through_the_device_bdi_in_large_folios(void **state) {
  need(&ext4);
  g_autofree char *fstype = machine_value_of(&ext4, "fstype");
  assert_string_equal(fstype, "ext4");
  g_autofree char *dev = machine_value_of(&ext4, "dev");
  g_autofree char *bdi = machine_value_of(&ext4, "bdi");
  assert_string_equal(bdi, dev);
  g_autofree char *fs_dev = machine_value_of(&ext4, "fs_dev");
  assert_string_equal(fs_dev, dev);
  g_autofree char *bdi_ra = machine_value_of(&ext4, "bdi_read_ahead_kb");
  assert_string_equal(bdi_ra, "128");
  g_autofree char *loop_ra = machine_value_of(&ext4, "loop_read_ahead_kb");
  assert_string_equal(loop_ra, "128");
  g_autofree char *readme_path = g_build_filename(ext4.out, "README", NULL);
  g_autofree char *readme = read_or_fail(readme_path);
  assert_non_null(strstr(readme, "formatted by mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0\n"));
  g_autofree char *path = g_build_filename(ext4.out, "ra128-j1-rep1", "ra128-j1-rep1.ftrace.txt.gz", NULL);
  g_autofree char *text = read_or_fail(path);
  guint by_order[16] = {0}, folios = 0;
  g_autoptr(GRegex) insert = g_regex_new(" mm_filemap_add_to_page_cache: dev \\S+ ino \\S+ pfn=\\S+ ofs=\\d+ order=(\\d+)$",
                                         G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  for (g_regex_match(insert, text, 0, &match); g_match_info_matches(match); g_match_info_next(match, NULL)) {
    g_autofree char *order = g_match_info_fetch(match, 1);
    guint64 o = g_ascii_strtoull(order, NULL, 10);
    by_order[MIN(o, G_N_ELEMENTS(by_order) - 1)]++;
    folios++;
  }
  if (by_order[6] < 240 || folios > 300)
    fail_msg("%s: %u folios inserted, %u of order 6: not a 256 KiB window's large folios", path, folios, by_order[6]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(runs_are_interleaved_one_folder_each),
    cmocka_unit_test(machine_file_names_kernel_bdi_and_queue_limits),
    cmocka_unit_test(trace_stats_reads_one_and_four_threads),
    cmocka_unit_test(events_are_present_and_filtered),
    cmocka_unit_test(ext4_reads_ahead_through_the_device_bdi_in_large_folios),
    cmocka_unit_test(sections_are_named_by_their_threads),
    cmocka_unit_test(nothing_is_left_behind),
  };
  return cmocka_run_group_tests(tests, capture_setup, capture_teardown);
}
