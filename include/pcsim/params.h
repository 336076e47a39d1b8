/* params.h - every scenario parameter, from one list.
 *
 * PCS_PARAMS is the single source of truth: the struct fields, the INI keys,
 * their ranges (and so the limits error messages quote), `pcsim params`
 * (with --markdown, the table the documentation shows) and the provenance
 * dump all come from it, so a key cannot be documented under one name and
 * parsed under another.  docs/params.md is generated from
 * `pcsim params --markdown` by scripts/update-docs, and tests/test_docs.c
 * fails when it is stale.
 */
#ifndef PCSIM_PARAMS_H
#define PCSIM_PARAMS_H

#include "pcsim/units.h"

#include <glib.h>
#include <stdint.h>

/* Value kinds: how a value is written and parsed. */
#define PCS_PARAM_KINDS(X)                                                   \
  X(COUNT, "count")      /* plain unsigned integer */                        \
  X(SIZE, "bytes")       /* integer with optional k/M/G/T suffix, base 1024 */ \
  X(TIME, "ns")          /* integer with ns/us/ms/s suffix, stored in ns */   \
  X(RATE, "bytes/s")     /* a size per second, e.g. 250M */                  \
  X(FRAC, "fraction")    /* in [0,1); [0,1] when hi = 1 */                   \
  X(TEXT, "text")        /* free text */

typedef enum {
#define X(name, unit) PCS_KIND_##name,
  PCS_PARAM_KINDS(X)
#undef X
} PcsParamKind;

/* X(section, key, kind, default, min, max, meaning)
 * min/max bound the parsed value (in the kind's base unit). */
#define PCS_PARAMS(X)                                                                 \
  X(scenario, name, TEXT, "unnamed", 0, 0,                                            \
    "scenario name, used in titles and provenance")                                   \
  X(scenario, seed, COUNT, "1", 0, UINT64_MAX,                                        \
    "seed of every random stream (cost jitter); --seed overrides it")                 \
  X(scenario, policies, TEXT, "immediate,pool:16", 0, 0,                              \
    "default policy list when no --policy is given, comma separated")                 \
  X(scenario, kernel, TEXT, "v3.5", 0, 0,                                             \
    "kernel whose behaviour is modelled: v3.5 or v6.18.  Sets that kernel's defaults before the scenario's own values (a value the scenario gives wins): v3.5: block.plug_max = 16, block.plug_flush_size = 0, bio.queue_limited = 1, bio.max_size = 512k, memory.contiguous = 0; v6.18: block.plug_max = 32 (blk-mq, scheduler none: no elevator merging), block.plug_flush_size = 128k, bio.queue_limited = 0 (the block layer splits bios), bio.max_size = 16M, memory.contiguous = 1") \
  X(scenario, filesystem, TEXT, "btrfs", 0, 0,                                        \
    "file system the file is read through: btrfs, ext4 or xfs.  Sets its defaults before the scenario's own values (a value the scenario gives wins): btrfs: readahead.max_folio_order = 0 (btrfs data has 4 KiB folios in 6.18), bio.chained = 0; ext4 and xfs: readahead.max_folio_order = 9 (large folios: page_cache_ra_order()), bio.chained = 1.  ext4 (ext4_mpage_readpages()) and xfs (iomap_readahead()) need kernel = v6.18: a bio gets one bio_vec per folio, is submitted at a block discontinuity, when full or at the end of the readahead, and completes in the bio's own end-io (no end-io workers: cpu.endio_workers idles; no checksums: bio.csum_leaf_size = 0); their readahead.read_ahead_kb is the block device's bdi (/sys/class/bdi/MAJ:MIN/read_ahead_kb)") \
  X(workload, threads, COUNT, "4", 1, 4096,                                           \
    "reader threads (fio numjobs); each reads the whole file with its own readahead state") \
  X(workload, file_size, SIZE, "2000M", PCS_PAGE_SIZE, (UINT64_C(1) << 50),          \
    "size of the file every thread reads from offset 0 to the end; need not be a multiple of the page (the last page is then partial)") \
  X(workload, files, TEXT, "shared", 0, 0,                                            \
    "shared: every thread reads the same file (one page cache, threads race on inserts); per-thread: each thread reads a file of its own of workload.file_size (fio numjobs without filename=), laid out one after the other on the device") \
  X(workload, nrfiles, COUNT, "1", 1, 65536,                                          \
    "files each thread reads (fio nrfiles), each of workload.file_size, with workload.files = per-thread a set of its own per thread (fio's jobname.N.F), with shared one set all threads read (fio filename=a:b:c); with several jobs (fio job sections) each job's own (a job key, as file_service_type and openfiles are); laid out one after the other on the device, each thread's set after the one before. Each file a thread reads has its own readahead state (its own open struct file: file_ra_state), and the thread switches between them after each read() call as workload.file_service_type says") \
  X(workload, file_service_type, TEXT, "roundrobin", 0, 0,                            \
    "with workload.nrfiles > 1, which file a thread reads next, as fio 3.33's io_u.c __get_next_file(): roundrobin (fio's default: the next open file after each read() call), sequential (one file to its end, then the next) or random (a file drawn by fio's next_file_state generator, seeded as setup_random_seeds() seeds it from workload.random_seed); each may take fio's :N, N read() calls on a file before the next choice (file_service_nr, 1 by default)") \
  X(workload, openfiles, COUNT, "0", 0, 65536,                                        \
    "with workload.nrfiles > 1, the most files a thread has open at once (fio openfiles; 0 or more than nrfiles: nrfiles). A file is opened when fio first picks it (invalidate=1 then drops its cached pages, fadvise_hint advises it, and its readahead state starts fresh) and closed at its end; a pick of an unopened file while openfiles are open is skipped, as fio's -EBUSY retry skips it") \
  X(workload, block_size, SIZE, "32k", PCS_PAGE_SIZE, (UINT64_C(1) << 30),           \
    "size of one read() call (fio bs), at least a page; a call ends in the page that holds its last byte (a page two calls share is looked up once)") \
  X(workload, offset, SIZE, "0", 0, (UINT64_C(1) << 50),                             \
    "where each thread starts reading its file (fio offset), a multiple of the page: it reads workload.file_size bytes from there, of a file of offset + file_size bytes, as fio lays it out (filesetup.c: real_file_size = file_offset + io_size). Its first read() has no readahead history there: the kernel reads just that call (ondemand_readahead(), a standalone small read), then ramps up") \
  X(workload, loops, COUNT, "1", 1, (UINT64_C(1) << 20),                              \
    "times each thread reads its file (fio loops). Each loop after the first reopens the file as fio does (clear_io_state() closes it, td_io_open_file() opens it again): a fresh readahead state, and fio's invalidate=1 drops the file's cached pages (POSIX_FADV_DONTNEED; pages still under I/O or in use by a thread stay), so every loop reads the file from the device again, also pages a slower thread was about to read") \
  X(workload, runtime, TIME, "0", 0, (UINT64_C(1) << 50),                            \
    "cap on simulated time (fio runtime): no thread starts a read() call at or after it; the call under way completes (fio checks runtime_exceeded() before each I/O in do_io()). 0: no cap") \
  X(workload, time_based, COUNT, "0", 0, 1,                                          \
    "1: each thread reads its file over and over until workload.runtime (fio time_based): at the end of the file it goes on at the start, and the file's cached pages are dropped there (fio get_next_seq_offset(), loop_cache_invalidate()); needs workload.runtime") \
  X(workload, rw, TEXT, "read", 0, 0,                                                 \
    "fio's rw: read (each thread reads its range in order) or randread (each read() call reads the block fio's random generator picks, fio's io_u.c get_next_rand_offset(): with fio's random map every block of workload.block_size once per loop, in fio's order; workload.block_size a multiple of the page). With readahead.fadvise_hint = 1 a randread file is POSIX_FADV_RANDOM (FMODE_RANDOM): readahead reads exactly the request") \
  X(workload, norandommap, COUNT, "0", 0, 1,                                          \
    "with workload.rw = randread: 1 picks each block without fio's random map (fio norandommap): a block may be read twice and another never") \
  X(workload, random_seed, TEXT, "fio", 0, 0,                                         \
    "with workload.rw = randread, the seed of each thread's block generator, as fio 3.33 seeds it: fio (randrepeat=1, fio's default: 0xb1899bed times the thread's number, 1 for the first, and again at each loop, so every loop reads the same order), fio-noreseed (randseed=N without randrepeat=0: fio seeds the blocks as randrepeat=1 does, since setup_random_seeds() runs before fixup_options() lets randseed clear randrepeat, but not again at a loop), a number N (randseed=N with randrepeat=0: N through setup_random_seeds()), or scenario (randrepeat=0 without randseed, where fio reads /dev/urandom: pcsim takes scenario.seed as N, so each seed of --seeds reads another order). With workload.file_service_type = random it seeds fio's file stream too (td->rand_seeds[FIO_RAND_FILE_OFF], from fio's default randseed 0x89 under fio)") \
  X(workload, random_generator, TEXT, "tausworthe", 0, 0,                             \
    "with workload.rw = randread or workload.file_service_type = random: fio's random_generator, tausworthe (its default, L'Ecuyer's 32-bit taus88) or tausworthe64 (taus258); fio's lfsr is not modelled") \
  X(workload, ioengine, TEXT, "sync", 0, 0,                                           \
    "how fio issues the reads (fio ioengine, buffered: direct=0): sync (read(); fio's sync, psync, vsync, pvsync, pvsync2), libaio (io_submit() and io_getevents(): a buffered io_submit() runs each read in the thread, in order, to its end, so the reads and bios are sync's and only the system calls differ: sim/model/engine.c) or io_uring (each read first tried without blocking; a miss starts the readahead the kernel would and the read completes when its folio unlocks, in the thread's task work: up to workload.iodepth reads in flight per thread; kernel = v6.18, workload.loops = 1, no time_based)") \
  X(workload, iodepth, COUNT, "1", 1, 65536,                                          \
    "with workload.ioengine = libaio or io_uring: reads a thread keeps queued (fio iodepth)") \
  X(workload, iodepth_batch, COUNT, "1", 0, 65536,                                    \
    "with libaio or io_uring: reads queued before fio submits them in one system call (fio iodepth_batch_submit; 0 or more than workload.iodepth: workload.iodepth, as fio's fixup_options())") \
  X(workload, iodepth_batch_complete_min, COUNT, "1", 0, 65536,                       \
    "with libaio or io_uring: completions fio waits for when the queue is full (fio iodepth_batch_complete_min; 0: it polls, at least 1 when full)") \
  X(workload, iodepth_batch_complete_max, COUNT, "0", 0, 65536,                       \
    "with libaio or io_uring: completions fio reaps at most per call (fio iodepth_batch_complete_max; fio raises it to iodepth_batch_complete_min, so by default one)") \
  X(workload, iodepth_low, COUNT, "0", 0, 65536,                                      \
    "with libaio or io_uring: once full, fio reaps until no more than this many are queued (fio iodepth_low; 0 or more than workload.iodepth: workload.iodepth)") \
  X(readahead, read_ahead_kb, COUNT, "128", 4, (UINT64_C(1) << 20),                  \
    "the bdi's read_ahead_kb as /sys/class/bdi/*/read_ahead_kb shows it while the job runs (a multiple of 4); taken as is. 128 is the block layer's default; btrfs raises its bdi to at least 4096 at mount (open_ctree())") \
  X(readahead, fadvise_hint, TEXT, "0", 0, 0,                                         \
    "fio's fadvise_hint: 0 (no advice), 1 (advice from the I/O pattern: POSIX_FADV_SEQUENTIAL for workload.rw = read, POSIX_FADV_RANDOM for randread), sequential, random or noreuse (no effect on readahead). A sequential hint doubles the per-file window (mm/fadvise.c: ra_pages = 2 * bdi ra_pages); a random one sets FMODE_RANDOM: a read() that misses reads exactly its own pages, no window, no marker (page_cache_sync_ra(), v3.5 page_cache_sync_readahead(): force_page_cache_ra()). A fio job sets it; fio's default is 1") \
  X(readahead, max_folio_order, COUNT, "0", 0, 9,                                    \
    "largest folio order the file's mapping takes (mapping_max_folio_order()): 0, every folio one page (btrfs data in 6.18; v3.5); 9 (2 MiB, MAX_PAGECACHE_ORDER with 4 KiB pages on x86-64) for ext4 and xfs.  Above 0, kernel = v6.18 reads ahead as page_cache_ra_order() does: the order kept in the reader's file_ra_state, grown by 2 per asynchronous readahead up to this and ilog2(window); the window carved into folios by alignment and end of file; an insert is all or nothing for the folio's pages, and the first that fails ends the large folios, the rest of the window read page by page (do_page_cache_ra())") \
  X(bio, max_size, SIZE, "512k", PCS_PAGE_SIZE, (UINT64_C(1) << 30),                 \
    "largest bio bio_add_page() accepts (128 pages with default queue limits)")       \
  X(bio, max_vecs, COUNT, "256", 1, 65536,                                            \
    "bio_vec entries in one bio (BIO_MAX_VECS); physically contiguous pages share one") \
  X(bio, queue_limited, COUNT, "1", 0, 1,                                            \
    "1: bio_add_page() stops at block.max_sectors/max_segments (v3.x); 0: bios grow to bio.max_size and the block layer splits them (v4.13+)") \
  X(bio, stripe_size, SIZE, "0", 0, (UINT64_C(1) << 40),                             \
    "a bio never crosses a multiple of this disk offset (btrfs_merge_bio_hook); 0 = none") \
  X(bio, chained, COUNT, "0", 0, 1,                                                  \
    "1: a bio the block layer split completes once, when its last part has (bio_chain()): one end-io work verifies and unlocks all its pages; 0: each part completes on its own") \
  X(bio, csum_leaf_size, SIZE, "0", 0, (UINT64_C(1) << 16),                        \
    "btrfs nodesize of the checksum tree (mkfs.btrfs -n; 16k by default), or 0: checksum lookups not modelled. With it, submitting a data bio first looks up its pages' checksums (btrfs_lookup_bio_sums()): a checksum leaf not yet in memory is read from the device as a metadata request of this size (rwbs RM) while the submitter sleeps, and a thread that needs a leaf being read sleeps until it is in. One leaf holds the crc32c of (size - 126) / 4 sectors (4064 at 16k: 15.9 MiB of data); leaves are never evicted during a run") \
  X(block, max_sectors, COUNT, "1024", PCS_SECTORS_PER_PAGE, (UINT64_C(1) << 31),    \
    "largest request in 512-byte sectors (max_sectors_kb * 2)")                       \
  X(block, max_segments, COUNT, "128", 1, (UINT64_C(1) << 31),                       \
    "most segments in one request: runs of physically contiguous pages (every page when memory.contiguous = 0)") \
  X(block, max_segment_size, SIZE, "64k", PCS_PAGE_SIZE, (UINT64_C(1) << 32),        \
    "largest segment (BLK_MAX_SEGMENT_SIZE); a longer contiguous run is several")    \
  X(block, plug_max, COUNT, "16", 1, 65536,                                           \
    "plug list is flushed when it holds this many requests (BLK_MAX_REQUEST_COUNT)") \
  X(block, nr_requests, COUNT, "128", 0, 65536,                                       \
    "v3.5: most requests allocated at once (plugged, queued or in service; /sys/block/DEV/queue/nr_requests); a task finding none sleeps in get_request_wait(); the queue is congested above 7/8 of it; 0 = unbounded; not used under v6.18") \
  X(block, cfq_quantum, COUNT, "0", 0, 65536,                                         \
    "v3.5: CFQ's per-process dispatch (cfq_quantum, 8): only the active task's cfq queue dispatches, quantum/2 to quantum requests in service, until its time slice ends or it empties (no idling: a non-rotational device with NCQ); 0 = requests leave in insertion order") \
  X(block, cfq_slice_sync, TIME, "100ms", 1, (UINT64_C(1) << 50),                    \
    "v3.5 with block.cfq_quantum: a sync queue's time slice (cfq_slice_sync = HZ/10), scaled down by low_latency to 300 ms over the busy queues") \
  X(block, plug_flush_size, SIZE, "0", 0, (UINT64_C(1) << 40),                       \
    "blk-mq: the plug is also flushed before a new request when its last request is this large (BLK_PLUG_FLUSH_SIZE); 0 = never (v3.x)") \
  X(memory, contiguous, COUNT, "0", 0, 1,                                             \
    "0: no two page frames are adjacent (v3.x assumption); 1: frames come from per-CPU page lists refilled from the buddy allocator in frame order (memory.pcp_*, memory.buddyinfo)") \
  X(memory, scattered, SIZE, "0", 0, (UINT64_C(1) << 50),                            \
    "with memory.contiguous = 1: the first this many bytes allocated get scattered frames, each its own bio_vec (kept for old scenarios; memory.pcp_freed and memory.buddyinfo describe free memory as the kernel holds it)") \
  X(memory, contiguous_share, FRAC, "1", 0, 1,                                       \
    "with memory.contiguous = 1: the probability that a page gets the next frame of its CPU's page list; otherwise the list skips one (1 = always the next: no draw)") \
  X(memory, pcp_batch, COUNT, "63", 1, 4096,                                          \
    "with memory.contiguous = 1: pcp->batch, pages rmqueue_bulk() moves from the buddy allocator to an empty per-CPU page list (zone_batchsize(): 63 on any zone over 256 MiB; /proc/zoneinfo 'batch'). Refill k without a free in between takes pcp_batch << k pages, k at most memory.pcp_batch_scale_max (nr_pcp_alloc())") \
  X(memory, pcp_batch_scale_max, COUNT, "5", 0, 6,                                    \
    "with memory.contiguous = 1: vm.pcp_batch_scale_max (CONFIG_PCP_BATCH_SCALE_MAX, default 5): a refill is at most pcp_batch << this; a freed page halves the next") \
  X(memory, pcp_freed, SIZE, "0", 0, (UINT64_C(1) << 50),                             \
    "with memory.contiguous = 1: pages freed before the run (drop_caches, fio's invalidate=1) still on CPU 0's per-CPU list, handed out first, last freed first: descending frames, each its own bio_vec (pcsim calibrate: pages in descending pfn steps)") \
  X(memory, reported_order, COUNT, "0", 0, 10,                                        \
    "free page reporting's page_reporting_order (virtio_balloon; /sys/module/page_reporting/parameters/page_reporting_order, which scripts/capture-kernel-trace writes into machine.txt): with cost.touch_reported, a large folio of this order or more takes a free block the host took back (reported free before the run), and so does a page of its own frame (4 KiB folios) that the per-CPU lists carved from a block this large (memory.contiguous = 1, memory.buddyinfo): the first CPU touch of each such page is a host fault (docs/notebook/2026-12-06-reported-memory.md, docs/notebook/2026-12-06-dec06o-session.md); 0: no reporting") \
  X(memory, buddyinfo, TEXT, "", 0, 0,                                                \
    "with memory.contiguous = 1: the free blocks of order 0, 1, 2, ... (up to 10) as /proc/buddyinfo lists them, e.g. '0 0 870 482'; refills take the smallest order first (__rmqueue_smallest()), a block's pages in ascending frames; past the listed blocks, order-10 (4 MiB) blocks side by side without end (the rest of free memory as one range); empty: only those (pcsim calibrate: the aligned runs of ascending pfns)") \
  X(device, latency, TIME, "100us", 0, (UINT64_C(1) << 50),                          \
    "per-request access latency; overlaps across the queue depth")                    \
  X(device, bandwidth, RATE, "1G", 1024, (UINT64_C(1) << 50),                      \
    "media transfer rate; transfers of concurrent requests share it")                 \
  X(device, command_cost, TIME, "0", 0, (UINT64_C(1) << 40),                          \
    "per-request command overhead of the device or its controller, serialised like the transfer (an IOPS ceiling of 1/command_cost); 0 = none") \
  X(device, queue_depth, COUNT, "32", 1, 65536,                                       \
    "requests in service at once (NCQ depth)")                                        \
  X(device, channels, COUNT, "1", 1, 65536,                                           \
    "requests whose transfers run in parallel, each at device.bandwidth (a loop device on a host file: the host serves several direct I/Os at once); 1: one shared data channel") \
  X(device, jitter, FRAC, "0", 0, 0,                                                  \
    "spread of each request's service time: latency and transfer scaled by a lognormal factor of mean 1 and this sigma, from a seeded stream; 0 = none") \
  X(device, sharing, COUNT, "0", 0, 1,                                                \
    "1: the requests in service share device.bandwidth equally (processor sharing: n transfers each at bandwidth / n, so requests of one size issued together complete together, as the loop device on a host serves them); device.channels is then unused. 0: FIFO transfers on device.channels channels") \
  X(device, slow_rate, FRAC, "0", 0, 0,                                               \
    "with device.sharing = 1: the host's slow state, its rate as a fraction of device.bandwidth; the device alternates between its normal and its slow state, each held for an exponential time of mean device.fast_time and device.slow_time (seeded stream); 0 = no slow state") \
  X(device, fast_time, TIME, "10ms", 1, (UINT64_C(1) << 50),                         \
    "with device.slow_rate > 0: mean time the device holds its normal rate") \
  X(device, slow_time, TIME, "10ms", 1, (UINT64_C(1) << 50),                         \
    "with device.slow_rate > 0: mean time the device holds its slow rate") \
  X(cpu, count, COUNT, "4", 1, 4096,                                                  \
    "CPUs shared by reader threads and end-io workers")                               \
  X(cpu, slice, TIME, "1ms", 1, (UINT64_C(1) << 50),                                 \
    "a task keeps its CPU this long before yielding to a waiting task")               \
  X(cpu, tick, TIME, "0", 0, (UINT64_C(1) << 40),                                    \
    "the scheduler tick, 1/CONFIG_HZ (4ms at HZ=250): a task that has used up cpu.slice yields to a task already waiting only at the next tick, or at once when a task is queued for its CPU after its slice ended (6.x EEVDF without HRTICK: update_curr() runs at the tick and at an enqueue, and reschedules a task past its deadline); 0: at the first step after its slice ends") \
  X(cpu, wake_preempt, COUNT, "0", 0, 1,                                            \
    "1: 6.x EEVDF wake-up preemption (check_preempt_wakeup_fair()): each task keeps a virtual runtime on the run queue of its CPU; a task woken onto a busy CPU runs at once, in place of the task there, when it is the one pick_eevdf() would choose: the earliest virtual deadline among the eligible tasks (vruntime at most the queue's average), the running task counting only while eligible, and not at all while eligible and inside its protected slice (RUN_TO_PARITY); 0: a woken task waits for the running one to sleep or use up cpu.slice") \
  X(cpu, cfs_wake_preempt, COUNT, "0", 0, 1,                                        \
    "1: v3.x CFS wake-up preemption (kernel/sched/fair.c check_preempt_wakeup()): a task woken onto a busy CPU is placed at max(its vruntime, min_vruntime - sysctl_sched_latency / 2) (place_entity(), GENTLE_FAIR_SLEEPERS) and runs at once, in place of the task there, when the running task's vruntime is more than sysctl_sched_wakeup_granularity ahead of it (wakeup_preempt_entity()); latency 6 ms and granularity 1 ms, each times 1 + ilog2(min(cpu.count, 8)) (SCHED_TUNABLESCALING_LOG: 18 ms and 3 ms at 4 CPUs); 0: a woken task waits for the running one to sleep or use up cpu.slice.  Not with cpu.wake_preempt (6.x EEVDF)") \
  X(cpu, endio_workers, COUNT, "2", 1, 4096,                                          \
    "btrfs endio worker threads that run bio completions; with cpu.endio_idle_thresh the most the pool starts (thread_pool_size)") \
  X(cpu, endio_idle_thresh, COUNT, "0", 0, 4096,                                     \
    "1 or more: btrfs 3.x's async-thread pool (fs/btrfs/async-thread.c) with this idle_thresh (open_ctree(): 4 for endio_workers): one worker at the start (btrfs_start_workers()), each worker its own queue; a completed bio goes to the first worker on the idle list, and a worker leaves that list once it holds idle_thresh bios (check_busy_worker()), back when it has run out (check_idle_worker()); with none left idle, another worker is started, up to cpu.endio_workers (find_worker(), check_pending_worker_creates()), else the bio goes to the first busy worker, moved to the back every idle_thresh bios (next_worker()). 0: cpu.endio_workers workers from the start take bios from one queue") \
  X(cpu, wake_exclusive, COUNT, "0", 0, 1,                                           \
    "1: v3.x lock_page_killable(): unlock_page() wakes ONE task sleeping on a page, which takes the page lock, finds it up to date and unlocks it, waking the next (a page-by-page hand-off); 0: all sleepers woken at once") \
  X(cpu, wake_latency, TIME, "0", 0, (UINT64_C(1) << 40),                           \
    "median time from a sleeping reader's wake-up (its page unlocked by end-io) to its running again: the waker's sched_waking, the IPI and the idle CPU's wake-up; drawn per wake-up, lognormal with this median and cpu.wake_jitter (seeded stream); 0: a woken reader runs at once") \
  X(cpu, wake_jitter, FRAC, "0", 0, 0,                                               \
    "with cpu.wake_latency: sigma of its lognormal spread, below 1 (ln(p90 / median) / 1.2816 of the measured latencies); 0: every wake-up takes exactly cpu.wake_latency") \
  X(cpu, wake_latency_local, TIME, "0", 0, (UINT64_C(1) << 40),                     \
    "with cpu.wake_latency: the median for a reader woken onto the waker's own CPU (a local wake-up: try_to_wake_up() enqueues it there, no IPI and no idle CPU to wake; it runs once the waker leaves the CPU), spread by cpu.wake_jitter from the same stream; 0: unset, every wake-up takes cpu.wake_latency.  Without cpu.migration_cost (one shared run queue) \"the waker's own CPU\" means the CPU the reader last ran on, and the CPU that frees first takes it") \
  X(cpu, idle_wake_short, TIME, "0", 0, (UINT64_C(1) << 40),                        \
    "a task (reader, end-io worker, loop worker) woken onto an IDLE CPU starts this long after it took the CPU when that CPU had idled at most cpu.idle_wake_poll (a virtual CPU the host still polled: KVM halt polling, guest cpuidle-haltpoll); a task woken onto a busy CPU pays none (it queues); with cpu.wake_latency set, a reader woken onto an idle CPU pays this instead of cpu.wake_latency; 0 (with cpu.idle_wake_long 0): off") \
  X(cpu, idle_wake_long, TIME, "0", 0, (UINT64_C(1) << 40),                         \
    "with cpu.idle_wake_short: the same for a CPU that had idled longer than cpu.idle_wake_poll (the halted vCPU's thread scheduled again by the host)") \
  X(cpu, idle_wake_poll, TIME, "0", 0, (UINT64_C(1) << 40),                         \
    "with cpu.idle_wake_short / cpu.idle_wake_long: the idle time up to which a wake-up costs cpu.idle_wake_short, beyond it cpu.idle_wake_long (KVM's halt_poll_ns, 200 us by default)") \
  X(cpu, migration_cost, TIME, "0", 0, (UINT64_C(1) << 40),                        \
    "0: one run queue for all CPUs (a task that needs a CPU takes any free one, else waits for the first that frees); set: a run queue per CPU, as the kernel's scheduler keeps: a woken reader is queued on one CPU (cpu.wake_affine) even while another idles, and a CPU with nothing of its own to run takes a task from another CPU's queue only once it has waited this long (sched_migration_cost, 500 us by default in the kernel)") \
  X(cpu, wake_affine, FRAC, "0", 0, 0,                                                \
    "with cpu.migration_cost: the share of woken readers queued on the CPU of the end-io worker that woke them (wake_affine()); the others go to the CPU they last ran on (seeded stream); 0: always their last CPU") \
  X(cpu, wake_select, COUNT, "0", 0, 2,                                               \
    "with cpu.migration_cost, 1: a woken reader is queued on the CPU 6.x's select_task_rq_fair() picks for a wake-up (no WF_SYNC) by a task on another CPU of one cache domain: its prev_cpu (the CPU it last ran on) when idle (wake_affine_idle()); else the waker's CPU when wake_affine_weight() finds it the lighter, its readers plus the woken one against prev_cpu's others times 1.08 (100 + (imbalance_pct 117 - 100) / 2 in integers, over 100; each reader counted on the CPU it last ran on: its blocked load, which here never decays; end-io and loop workers weigh nothing), else prev_cpu; then select_idle_sibling(): that CPU if idle, else prev_cpu if idle, else the first idle CPU after it (select_idle_cpu()'s scan), else that CPU (recent_used_cpu, the SIS_UTIL scan limit and the per-CPU kthread rule are left out).  A CPU is idle when nothing runs there, none is queued there and no woken reader is on its way to it (ttwu_pending).  2: the same, with wake_affine_weight() on each CPU's PELT load (cpu_load(): every task whose last CPU it is, readers and end-io, loop and checksum workers alike, nice 0, its runnable time decayed by y = 0.5^(1/32) per 1024 us, kernel/sched/pelt.c; a sleeping task's load stays on its CPU and decays) and the woken reader's own (task_h_load()).  Replaces cpu.wake_affine's coin flip; 0: cpu.wake_affine") \
  X(cpu, cache_size, SIZE, "0", 0, (UINT64_C(1) << 40),                               \
    "with cost.copy_cold: the CPU cache that keeps a page's data warm after its end-io read it (btrfs verifies each sector's checksum there); a page is warm while fewer than this many bytes of page data have completed end-io after it, cold after (endio.c); a multiple of the page; 0: unset") \
  X(cost, syscall, TIME, "1us", 0, (UINT64_C(1) << 40),                              \
    "per read() call: entry, exit, fd lookup")                                        \
  X(cost, fio_user, TIME, "0", 0, (UINT64_C(1) << 40),                              \
    "per read() call: fio's own user-space CPU between calls (td_io_queue() and io_u bookkeeping, its time stamps and stats), before the call; outside fio's clat, as fio stamps a call's start after it; fio's usr_cpu x job_runtime / total_ios of a one-thread run (pcsim calibrate reads it from NAME.json; fio samples user time at the scheduler tick); 0: none") \
  X(cost, loop_worker, TIME, "0", 0, (UINT64_C(1) << 40),                          \
    "a loop device's worker (losetup --direct-io=on): CPU time of one run of its kworker before it submits the first request (the wake-up, loop_process_work() taking the list); a request is served only once the worker has run for it, a task like the others on the CPUs (loop.c); 0: no loop worker, a request starts its service when it is issued") \
  X(cost, loop_request, TIME, "0", 0, (UINT64_C(1) << 40),                         \
    "with cost.loop_worker: the worker's CPU time per request (loop_handle_cmd() -> lo_rw_aio(): the direct read submitted to the host file); the request's service starts when it ends") \
  X(cost, insert_won, TIME, "400ns", 0, (UINT64_C(1) << 40),                         \
    "add_to_page_cache_lru() that inserts the page, outside tree_lock")               \
  X(cost, insert_page, TIME, "0", 0, (UINT64_C(1) << 40),                           \
    "with readahead.max_folio_order > 0: the CPU time a folio insert costs per page beyond its first (the larger allocation, the memcg charge and LRU accounting of 1 << order pages), charged with cost.insert_won and cost.insert_alloc, which are per folio; 0: a folio costs what a page does") \
  X(cost, lru_drain, TIME, "0", 0, (UINT64_C(1) << 40),                             \
    "v6.18: an insert that fills its CPU's per-CPU folio batch (31 folios, PAGEVEC_SIZE) moves the batch to the LRU under the lruvec lock (folio_add_lru() -> folio_batch_move_lru()); that insert costs this much more; 0: off.  The batch is 31 under either kernel profile (v3.5's lru_add_pvec held 14: leave it 0 there).  Differs from the kernel: fio's invalidate=1 fadvise (lru_add_drain()) and other LRU users do not empty or fill the batch") \
  X(cost, insert_lost, TIME, "200ns", 0, (UINT64_C(1) << 40),                        \
    "add_to_page_cache_lru() that gets -EEXIST, plus freeing the private page")       \
  X(cost, insert_alloc, TIME, "0", 0, (UINT64_C(1) << 40),                          \
    "the part of insert_won spent before the page is in the cache: the page is looked up, this time runs (v6.18: the folio allocation and memcg charge before filemap_add_folio()'s xarray store), then the insert wins or gets -EEXIST; 0: an insert takes effect when the page is looked up (v3.x: ->readpages gets pages allocated beforehand)") \
  X(cost, ra_setup, TIME, "0", 0, (UINT64_C(1) << 40),                              \
    "CPU time of a readahead call that lists a window before its first insert, beyond cost.insert_alloc (in 6.18: the page_cache_{sync,async}_ra() decision, page_cache_ra_order()'s fallback, page_cache_ra_unbounded()'s locks and first folio allocation; in v3.x: ondemand_readahead() and __do_page_cache_readahead()'s setup); 0: none") \
  X(cost, ra_marker, TIME, "0", 0, (UINT64_C(1) << 40),                             \
    "time from the read loop's test of a marked folio (v6.18 filemap_get_pages()'s folio_test_readahead() of a batch's last folio; v3.5 do_generic_file_read()'s PageReadahead()) to the clear in page_cache_async_ra() (v3.5 page_cache_async_readahead()), the calls and the async_ra tracepoint when it is traced; a reader that finds the folio meanwhile still marked runs asynchronous readahead too, and both insert the same next window; 0: the test and the clear are one step") \
  X(cost, ra_scan_page, TIME, "0", 0, (UINT64_C(1) << 40),                          \
    "v6.18: CPU time per cached page that page_cache_next_miss() or page_cache_prev_miss() walks when a readahead call sizes its window from the cache (context readahead: a marker or a miss the reader's own state did not expect), charged before the window's first insert; 0: free") \
  X(cost, tree_lock_hold, TIME, "100ns", 0, (UINT64_C(1) << 40),                     \
    "time an insert holds mapping->tree_lock; serialises inserts of all threads")     \
  X(cost, plug_flush, TIME, "0", 0, (UINT64_C(1) << 40),                            \
    "v6.18: read_pages() plugs each batch on its own; its blk_finish_plug() (queue_rq of the batch's requests and the wakeup of the driver's worker) costs the submitter this; v3.x holds the plug over the whole ->readpages call") \
  X(cost, read_setup, TIME, "21us", 0, (UINT64_C(1) << 40),                           \
    "per page read setup in __extent_read_full_page(): extent lock, extent map lookup") \
  X(cost, iotree_lock_extent, TIME, "0", 0, (UINT64_C(1) << 40),                    \
    "v3.5 io_tree->lock held by lock_extent() for one page (extent_state insert, iotree.c); spinning waiters pay it too") \
  X(cost, iotree_test_bit, TIME, "0", 0, (UINT64_C(1) << 40),                       \
    "v3.5 io_tree->lock held by test_range_bit(EXTENT_UPTODATE) for one page (rbtree search)") \
  X(cost, iotree_state_private, TIME, "0", 0, (UINT64_C(1) << 40),                  \
    "v3.5 io_tree->lock held by set_state_private() for one page (btrfs_lookup_bio_sums(), rbtree search)") \
  X(cost, bio_submit, TIME, "20us", 0, (UINT64_C(1) << 40),                           \
    "per bio submit: end-io record, btrfs_lookup_bio_sums(), btrfs_map_bio(), block layer") \
  X(cost, bio_complete, TIME, "20us", 0, (UINT64_C(1) << 40),                         \
    "per bio completion in an endio worker: work item, checksum tree walk")           \
  X(cost, page_complete, TIME, "2us", 0, (UINT64_C(1) << 40),                        \
    "per page completion: checksum verify, extent unlock, SetPageUptodate, unlock_page") \
  X(cost, meta_complete, TIME, "0", 0, (UINT64_C(1) << 40),                         \
    "with bio.csum_leaf_size: CPU time of a metadata read's completion in its own worker (btrfs's endio-meta workqueue, end_bbio_meta_read(): checksum and validate the tree block, unlock it), before the sleepers are woken") \
  X(cost, wakeup, TIME, "0", 0, (UINT64_C(1) << 40),                                \
    "with cpu.wake_exclusive: CPU time a woken reader spends before it hands the page lock on (context switch in, lock_page_killable() returning, unlock_page())") \
  X(cost, copy, TIME, "1us", 0, (UINT64_C(1) << 40),                                 \
    "per page lookup and copy_to_user of 4 KiB (with large folios a folio's part of a read() call is one copy step of this much a page, as filemap_read() copies a folio at a time)")                                      \
  X(cost, copy_cold, TIME, "0", 0, (UINT64_C(1) << 40),                             \
    "per page lookup and copy_to_user of 4 KiB whose data has left the CPU cache (cpu.cache_size), instead of cost.copy; 0: off, every copy costs cost.copy.  btrfs only (its end-io reads the data to verify checksums, warming the cache): with filesystem = ext4 or xfs nothing reads the data before the copy, and every copy costs cost.copy") \
  X(cost, touch_reported, TIME, "0", 0, (UINT64_C(1) << 40),                        \
    "with memory.reported_order: CPU time of the first touch of a 4 KiB page whose memory the host took back (a host fault): a page of a folio of that order or more, or of its own frame carved from a free block that large (memory.reported_order).  The first touch is btrfs's end-io checksum read (the worker pays it, endio.c), else the read() copy, on top of cost.copy; a large folio's first page is counted with its second.  0: off.  Measured on the dec06 host by scripts/reported-memory: about 5.8 us (ext4, order 9, after a 6 s pause); pcsim calibrate sets it from a capture made with --settle (7.4 us on kernel-6.18-ext4c) or, with 4 KiB folios, from the largest window's readahead windows against their pages from such blocks (3.6 us on kernel-6.18-dec06o, a machine up 3 minutes)") \
  X(cost, jitter, FRAC, "0", 0, 0,                                                    \
    "each CPU cost is scaled by a uniform factor in [1-j, 1+j] from seeded streams")  \
  X(limits, max_memory, SIZE, "8G", 1, UINT64_MAX,                                    \
    "refuse scenarios whose estimated memory exceeds this")                           \
  X(limits, max_events, COUNT, "20000000000", 1, UINT64_MAX,                          \
    "refuse scenarios whose estimated event count exceeds this")

/* workload.files values: X(id, name). */
#define PCS_FILES_MODES(X) \
  X(SHARED, "shared")      \
  X(PER_THREAD, "per-thread")

typedef enum {
#define X(id, name) PCS_FILES_##id,
  PCS_FILES_MODES(X)
#undef X
  PCS_FILES_COUNT
} PcsFilesMode;

/* Kernels a scenario can select with [scenario] kernel: X(id, name). */
#define PCS_KERNELS(X) \
  X(V3_5, "v3.5")      \
  X(V6_18, "v6.18")

typedef enum {
#define X(id, name) PCS_KERNEL_##id,
  PCS_KERNELS(X)
#undef X
  PCS_KERNEL_COUNT
} PcsKernel;

/* File systems a scenario can select with [scenario] filesystem: X(id, name). */
#define PCS_FILESYSTEMS(X) \
  X(BTRFS, "btrfs")        \
  X(EXT4, "ext4")          \
  X(XFS, "xfs")

typedef enum {
#define X(id, name) PCS_FS_##id,
  PCS_FILESYSTEMS(X)
#undef X
  PCS_FS_COUNT
} PcsFilesystem;

/* fio's fadvise_hint values (options.c posval), as readahead.fadvise_hint
 * takes them: X(id, name, doubles the window for a sequential read). */
#define PCS_FADVISE_HINTS(X)       \
  X(NONE, "0", FALSE)              \
  X(PATTERN, "1", TRUE)            \
  X(SEQUENTIAL, "sequential", TRUE) \
  X(RANDOM, "random", FALSE)       \
  X(NOREUSE, "noreuse", FALSE)

typedef enum {
#define X(id, name, doubles) PCS_FADVISE_##id,
  PCS_FADVISE_HINTS(X)
#undef X
  PCS_FADVISE_COUNT
} PcsFadvise;

#define PCS_PARAMS_MAX 112
#define PCS_LINE_CLI UINT32_MAX
#define PCS_LINE_VARY (UINT32_MAX - 1) /* a sweep's --vary (pcs_grid_apply()) */

/* One of several jobs run at once (fio job sections, fio.c): its name
 * (fio's jobname), its clones, and the workload keys it reads with where
 * they differ from the run's ("workload.block_size=1048576"), applied over
 * the run's scenario to make the job's own view (pcs_params_job_view()).
 * Its clones are the readers after the jobs before it, numbered on over
 * every job as fio numbers its threads (thread_number). */
typedef struct {
  char *name;
  uint64_t clones;
  char **set;     /* "section.key=value", NULL-terminated (may be empty) */
  uint32_t *lines; /* the line of the job file that set each of SET (0: none), or NULL (results files) */
  uint32_t group; /* fio's groupid: 0, and one more at each new_group or stonewall */
  /* barrier (fio's stonewall, wait_for): the job starts when every clone of
   * the jobs [0, after) has finished (stonewall), or, when wait_for is not
   * PCS_JOB_NONE, every clone of job wait_for; else at once */
  uint32_t after, wait_for;
  /* with shared files (workload.files = shared): which of the run's files
   * (fio's filename=) the job reads, 0, 1, ... in the order the jobs first
   * name them; jobs of one file share its pages, each job its own open
   * file (readahead state).  PCS_JOB_OWN_FILE: a job without filename= in
   * a run whose other jobs name theirs, each clone reading a file of its
   * own (fio's jobname.N.0), laid out after the named ones.  0 for
   * per-thread files.  A job of several files (its workload.nrfiles)
   * reads the named files file, file + 1, ..., or, when FILES is set, the
   * NFILES files it lists (fio's filename=a:b:c naming files in an order
   * of its own: FILES[0] is FILE); each clone of a job of its own files
   * has nrfiles of them. */
  uint32_t file;
  uint32_t *files, nfiles;
} PcsJobSpec;

#define PCS_JOB_NONE UINT32_MAX
#define PCS_JOB_OWN_FILE (UINT32_MAX - 1)

/* One fio job section as fio's JSON reports it: fio's jobname (the
 * [section], or its own name= option), its numjobs clones (which share the
 * name in fio's JSON), its options with a value as written (key, value,
 * ..., NULL; see PcsFioJob.global_options) and fio's groupid (one more at each
 * stonewall or new_group after the first job). */
typedef struct {
  char *name;
  uint64_t numjobs;
  char **options;
  uint32_t group;
} PcsFioSection;

/* A resolved scenario.  TEXT values are owned strings. */
typedef struct {
#define X(sec, key, kind, def, lo, hi, doc) PCS_FIELD_##kind sec##_##key;
#define PCS_FIELD_COUNT uint64_t
#define PCS_FIELD_SIZE uint64_t
#define PCS_FIELD_TIME uint64_t
#define PCS_FIELD_RATE uint64_t
#define PCS_FIELD_FRAC double
#define PCS_FIELD_TEXT char *
  PCS_PARAMS(X)
#undef X
  char *source; /* file the scenario came from, for messages and provenance */
  char **fio_accepted; /* fio options accepted without effect (fio.c), or NULL */
  char *fio_model;     /* the scenario a fio job ran on (--model or the default), or NULL */
  /* A fio job as fio's JSON names it (fio.c): the options of the [global]
   * sections before its first job (key, value, ..., NULL; empty, not NULL,
   * for a job without them) and its job sections, for --format fio-json's
   * "global options", "jobname" and "job options".  Every result's
   * provenance records them, so --scenario-from prints them again without
   * the job file.  NULL, NULL and 0 for an INI scenario. */
  char **fio_global_options;
  PcsFioSection *fio_sections;
  uint32_t fio_nsections;
  /* Several jobs at once (fio job sections that read differently), or
   * NULL and 0: one job, the scenario's workload.  Their clones add up to
   * workload.threads; keys no job sets are the run's. */
  PcsJobSpec *jobs;
  uint32_t njobs;
  /* Where each key was set, by index in PCS_PARAMS: 0 default, a line of
   * source, PCS_LINE_CLI for --set or PCS_LINE_VARY for --vary; errors
   * name it. */
  uint32_t line[PCS_PARAMS_MAX];
  /* A fio job's run: the --model scenario the job was applied over
   * (pcs_params_model_below()), and the keys whose line[] is a line of that
   * file (those the job does not set), else NULL and all FALSE. */
  char *model_source;
  gboolean in_model[PCS_PARAMS_MAX];
  /* A job's view (pcs_params_job_view()): the job's name, which errors
   * name after where the key was set; else NULL. */
  char *job_name;
} PcsParams;

typedef struct {
  const char *section;
  const char *key;
  PcsParamKind kind;
  const char *def;
  uint64_t lo, hi;
  const char *doc;
  size_t offset;
} PcsParamInfo;

#define PCS_ERROR (pcs_error_quark())
typedef enum { PCS_ERROR_INPUT, PCS_ERROR_LIMIT, PCS_ERROR_IO, PCS_ERROR_CANCELLED } PcsError;
GQuark pcs_error_quark(void);

const PcsParamInfo *pcs_params_table(size_t *n);
const PcsParamInfo *pcs_params_find(const char *section, const char *key);
const char *pcs_params_kind_unit(PcsParamKind kind);

void pcs_params_init(PcsParams *p); /* defaults */
void pcs_params_clear(PcsParams *p);
void pcs_params_copy(PcsParams *dst, const PcsParams *src);

/* Parse VALUE for INFO into P.  WHERE prefixes error messages ("file:12"). */
gboolean pcs_params_set(PcsParams *p, const PcsParamInfo *info, const char *value,
                        const char *where, GError **error);
/* "section.key": the key's info, or NULL. */
const PcsParamInfo *pcs_params_find_dotted(const char *dotted);
/* "section.key": the key's info, or an input error (with the nearest valid key). */
const PcsParamInfo *pcs_params_lookup(const char *dotted, const char *where, GError **error);
/* "section.key=value", as given to --set. */
gboolean pcs_params_set_assignment(PcsParams *p, const char *assignment, GError **error);
/* Load an INI scenario on top of the defaults. */
gboolean pcs_params_load(PcsParams *p, const char *path, GError **error);
/* The same from LEN bytes of DATA; PATH names it in messages. */
gboolean pcs_params_load_text(PcsParams *p, const char *path, const char *data, size_t len, GError **error);
/* Records that LINE of P->source set KEY ("section.key"), for messages. */
void pcs_params_mark(PcsParams *p, const char *key, uint32_t line);
/* What P holds so far becomes the model a fio job is applied over: the
 * lines its file set keep naming that file when P->source becomes the
 * job's, until the job marks the key as its own (pcs_params_mark()). */
void pcs_params_model_below(PcsParams *p);
/* "FILE:LINE" of the line that set KEY ("section.key"), "--set", "--vary
 * KEY=VALUE" or "FILE" (the --model's file for a key a fio job's model set),
 * and ": job 'NAME'" after it in a job's view. */
char *pcs_params_where(const PcsParams *p, const char *key);
/* Cross-key checks ("impossible combinations"); with jobs, each job's
 * view too, and that their clones add up to workload.threads. */
gboolean pcs_params_validate(const PcsParams *p, GError **error);
/* Job J's own view of P (P->jobs[J]): a copy of P without jobs, with the
 * job's keys set and workload.threads its clones.  Clear it with
 * pcs_params_clear().  FALSE when a key of the job's does not parse. */
gboolean pcs_params_job_view(const PcsParams *p, uint32_t j, PcsParams *out, GError **error);
/* Frees N job specs (and JOBS itself). */
void pcs_params_jobs_free(PcsJobSpec *jobs, uint32_t n);
/* A deep copy of N job specs. */
PcsJobSpec *pcs_params_jobs_copy(const PcsJobSpec *jobs, uint32_t n);
/* JOB as one line of provenance, read back by pcs_params_job_parse():
 * "name=small clones=2 group=0 after=0 wait_for=none workload.block_size=4096 ..."
 * (the name URI-escaped, wait_for a job index or none, then file=N when
 * N is not 0, file=own for PCS_JOB_OWN_FILE, file=N:M:K for a list of
 * files, PcsJobSpec.files).  g_free it. */
char *pcs_params_job_text(const PcsJobSpec *job);
/* TEXT as pcs_params_job_text() writes it into OUT (clear it with
 * pcs_params_jobs_free(), or take it); FALSE with *WHY (g_free it) else. */
gboolean pcs_params_job_parse(const char *text, PcsJobSpec *out, char **why);
/* P records a fio job as fio's JSON names it: copies of GLOBAL (NULL: an
 * empty list) and the N SECTIONS, in place of what it held (an INI
 * scenario's fio_global_options and fio_sections stay NULL). */
void pcs_params_set_fio_job(PcsParams *p, char *const *global, const PcsFioSection *sections, uint32_t n);
/* Frees what one fio section holds (not the struct). */
void pcs_params_fio_section_clear(PcsFioSection *section);
/* Frees N fio sections (and SECTIONS itself). */
void pcs_params_fio_sections_free(PcsFioSection *sections, uint32_t n);
/* A deep copy of N fio sections (NULL for NULL). */
PcsFioSection *pcs_params_fio_sections_copy(const PcsFioSection *sections, uint32_t n);
/* Fio options KV (key, value, ..., NULL) as one line of provenance,
 * "bs=32k filename=%2Fdata%2Fbig", each key and value URI-escaped (a blank,
 * '=' or '%' never raw; '/', ':', ',', '+' and '@' kept); "" for none.
 * pcs_params_fio_options_parse() reads the words back.  g_free it. */
char *pcs_params_fio_options_text(char *const *kv);
/* WORDS (NULL-terminated, as pcs_params_fio_options_text() wrote them,
 * split at blanks; empty words skipped) as key, value, ..., NULL in *OUT
 * (g_strfreev it); FALSE with *WHY (g_free it) on a word that is not
 * KEY=VALUE. */
gboolean pcs_params_fio_options_parse(char *const *words, char ***out, char **why);
/* SECTION as one line of provenance, read back by
 * pcs_params_fio_section_parse(): "NAME numjobs=N group=G options K=V ..."
 * (the name URI-escaped, the options as pcs_params_fio_options_text()).
 * g_free it. */
char *pcs_params_fio_section_text(const PcsFioSection *section);
/* TEXT as pcs_params_fio_section_text() writes it into OUT (free it with
 * pcs_params_fio_section_clear(), or take it); FALSE with *WHY. */
gboolean pcs_params_fio_section_parse(const char *text, PcsFioSection *out, char **why);
/* Value formatted back in its kind's unit (for provenance, `pcsim params`). */
char *pcs_params_format(const PcsParams *p, const PcsParamInfo *info);
/* Nearest key to a misspelt one, or NULL. */
const PcsParamInfo *pcs_params_suggest(const char *section, const char *key);

/* FALSE for a key provenance leaves out: the keys fio's loops, runtime,
 * time_based and offset brought (workload.*), the cache-cold copy's
 * (cost.copy_cold, cpu.cache_size) and the wake-up latency's
 * (cpu.wake_latency, cpu.wake_jitter, cpu.idle_wake_*) at their defaults, so the output of
 * a scenario that does not set them is what it was before they existed. */
gboolean pcs_params_listed(const PcsParams *p, const PcsParamInfo *info);

/* workload.files as its mode. */
PcsFilesMode pcs_params_files(const PcsParams *p);
/* Files the run reads: workload.nrfiles, times workload.threads with
 * per-thread files (each thread its own set); with shared ones, the files
 * the jobs name plus a set per clone of a job that names none (each
 * job's set its own workload.nrfiles). */
uint64_t pcs_params_nfiles(const PcsParams *p);
/* The files the jobs name (filename=), laid out first: 0 with per-thread files. */
uint64_t pcs_params_named_files(const PcsParams *p);
/* Job J's workload.nrfiles (its own, else the run's). */
uint64_t pcs_params_job_nrfiles(const PcsParams *p, uint32_t j);
/* The named file JOB reads as its K-th (k < its nrfiles): PcsJobSpec.files. */
uint32_t pcs_params_job_file(const PcsJobSpec *job, uint32_t k);

/* workload.file_service_type's types, as fio names them (options.c). */
typedef enum {
  PCS_FSERVICE_ROUNDROBIN, /* FIO_FSERVICE_RR, fio's default */
  PCS_FSERVICE_SEQUENTIAL, /* FIO_FSERVICE_SEQ */
  PCS_FSERVICE_RANDOM,     /* FIO_FSERVICE_RANDOM */
} PcsFileService;

/* TEXT as fio's file_service_type: "roundrobin", "sequential" or "random",
 * each with an optional ":N" (file_service_nr, N from 1; 1 without it).
 * FALSE for another value. */
gboolean pcs_params_file_service_parse(const char *text, PcsFileService *type, uint32_t *nr);
/* workload.file_service_type (pcs_params_validate() accepted it). */
void pcs_params_file_service(const PcsParams *p, PcsFileService *type, uint32_t *nr);

/* The selected kernel ([scenario] kernel) and its name. */
PcsKernel pcs_params_kernel(const PcsParams *p);
const char *pcs_params_kernel_name(PcsKernel k);
/* The selected file system ([scenario] filesystem) and its name. */
PcsFilesystem pcs_params_filesystem(const PcsParams *p);
const char *pcs_params_filesystem_name(PcsFilesystem f);
/* readahead.fadvise_hint as fio's value; NAME's value or FALSE when it is
 * none of fio's names (exact, case-sensitive, as fio compares them). */
PcsFadvise pcs_params_fadvise(const PcsParams *p);
/* F as fio and readahead.fadvise_hint write it ("0", "1", "sequential", ...). */
const char *pcs_params_fadvise_name(PcsFadvise f);
gboolean pcs_params_fadvise_parse(const char *name, PcsFadvise *out);
/* "0, 1, sequential, random or noreuse": fio's values, for messages (free it). */
char *pcs_params_fadvise_names(void);

/* Values the model uses that are derived from keys, never set: shown in
 * provenance ("derived") and `pcsim params`.  X(section, key, unit, fn, doc). */
#define PCS_DERIVED(X)                                                                       \
  X(readahead, window, "bytes", pcs_params_window_bytes,                                    \
    "per-file readahead window file->f_ra.ra_pages: readahead.read_ahead_kb, doubled when " \
    "readahead.fadvise_hint is sequential, or 1 on workload.rw = read (POSIX_FADV_SEQUENTIAL)")

/* The per-file readahead window in bytes, from read_ahead_kb and fadvise_hint. */
uint64_t pcs_params_window_bytes(const PcsParams *p);
/* TRUE when the file is POSIX_FADV_RANDOM (FMODE_RANDOM): fadvise_hint
 * random, or 1 (fio's default) on a randread job (fio's fadvise_hint=1). */
gboolean pcs_params_fmode_random(const PcsParams *p);
/* workload.rw = randread. */
gboolean pcs_params_randread(const PcsParams *p);
/* workload.random_seed as fio's: *MODE 0 fio's randrepeat=1 (reseeded each
 * loop), 1 a randseed (*SEED), 2 scenario.seed as the randseed, 3
 * fio-noreseed; FALSE for another value. */
gboolean pcs_params_random_seed(const PcsParams *p, int *mode, uint64_t *seed);

/* Orders of the buddy allocator: 0 .. MAX_PAGE_ORDER (10 on x86-64). */
#define PCS_BUDDY_ORDERS 11
/* memory.buddyinfo TEXT as free blocks per order into BLOCKS (orders not
 * listed: 0).  FALSE with *WHY (g_free it) when it is not 0 to 11 counts. */
gboolean pcs_params_parse_buddyinfo(const char *text, uint64_t blocks[PCS_BUDDY_ORDERS], char **why);

typedef struct {
  const char *section, *key, *unit, *doc;
  uint64_t (*value)(const PcsParams *p);
} PcsDerivedInfo;
const PcsDerivedInfo *pcs_params_derived_table(size_t *n);

/* What INFO's value VALUE should have been, for "KEY = 'VALUE': expected
 * ...": a missing unit of a time, a decimal that is no whole number of the
 * base unit, or the kind's usual text.  g_free it. */
char *pcs_params_expectation(const PcsParamInfo *info, const char *value);

/* Integer parsers shared with the fio and schedule readers.  Sizes and
 * times may be decimal when they are a whole number of bytes or ns. */
gboolean pcs_parse_u64(const char *s, uint64_t *out);
gboolean pcs_parse_size(const char *s, uint64_t *out);
gboolean pcs_parse_time(const char *s, uint64_t *out);

#endif
