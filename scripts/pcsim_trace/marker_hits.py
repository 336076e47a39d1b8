"""marker-hits - who hits the readahead markers, from a kernel capture or pcsim's --ftrace.

TRACE: a capture's ftrace text (.gz or plain, scripts/capture-kernel-trace's
mechanism runs) or the file `pcsim run ... --ftrace FILE` writes; both carry
readahead/page_cache_async_ra, page_cache_sync_ra, page_cache_ra_unbounded
and block_bio_queue lines in the same format.  For each TRACE it prints:

  async by inserter  page_cache_async_ra at the first page of a window that the
                     same task inserted (its page_cache_ra_unbounded started
                     there): the reader that launched a window reaches its
                     PG_readahead marker first and launches the next one;
  async by other     the marker was reached first by another task (how the
                     thread race at 6.x starts: that task's page_cache_async_ra
                     finds no valid state and reads from the first hole);
  async unmatched    no ra_unbounded started at that index (a window that a
                     race cut short, or one that started before the capture);
  sync               page_cache_sync_ra calls (misses);
  windows            page_cache_ra_unbounded calls by nr_to_read: the full
                     window, 32..full-1, 8..31, under 8 pages;
  data bios          block_bio_queue of data reads (RA/R; not btrfs's
                     metadata, RM) by size: the largest size seen (the full
                     window's bio), half of it or more, under half;
  call -> insert     with page inserts in the trace: from each readahead call
                     (page_cache_sync_ra/page_cache_async_ra) to the same
                     task's next mm_filemap_add_to_page_cache, and the spacing
                     of a task's consecutive inserts (p25, median, p75; the
                     kernel's timestamps have 1 us resolution), with the
                     share of spacings of 3 us or more and the median count
                     of inserts between two of them;
  sync cascades      the distinct page_cache_sync_ra indexes in order: how
                     many had another task's readahead call at the same
                     index within 20 us (two readers missing the same hole
                     together), and the lengths of the cascades, runs of
                     synchronous readaheads less than 129 pages apart (1, 2,
                     3, 4, 5..9, 10 or more);
  setup split        with page_cache_ra_order in the trace: the medians of
                     call -> ra_order, ra_order -> ra_unbounded and
                     ra_unbounded -> first insert, and, with sched_switch
                     lines in the trace, how many calls had their task
                     switched out before that insert;
  context walk       with page_cache_ra_order in the trace: each
                     page_cache_async_ra whose window does not start where
                     the task's own state expected (its new start, traced by
                     page_cache_ra_order, is not index + the call's
                     async_size) walked the cached pages [index + 1, start)
                     in page_cache_next_miss(); the time from the call to its
                     page_cache_ra_order against the pages walked: a least
                     squares line (us + ns a page) and the median time per
                     band of pages walked (cost.ra_scan_page).
Used for docs/validation.md, "Woken readers run late", "The readahead call's setup" and
"The context readahead's walk"."""
import collections

from .ftrace import block, events, fields
from .quantile import quantile

NAME = 'marker-hits'
HELP = 'who hits the readahead markers; windows, bios, inserts'
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def size_class(n, full):
    if n == full:
        return 'full'
    if n >= 32:
        return '32..full-1'
    return '8..31' if n >= 8 else '<8'


def one(path):
    started_by = {}
    hits = collections.Counter()
    windows = []
    bios = []
    called, to_insert, last_insert, spacing = {}, [], {}, []
    deciding, walks = {}, []
    ra_calls = collections.defaultdict(list)  # index -> [(time, pid, sync?)]
    marks, splits, switched_out, has_sched = {}, [], 0, False
    since_stall, stalls = collections.Counter(), []
    for e in events(path):
        pid, event, rest, t = e.pid, e.name, e.rest, e.time
        if event == 'sched_switch':
            has_sched = True
            prev = fields(rest).get('prev_pid')
            prev = int(prev) if prev is not None else None
            if prev in marks and not marks[prev].get('out'):
                marks[prev]['out'] = True
            continue
        if event in ('page_cache_sync_ra', 'page_cache_async_ra'):
            marks[pid] = {'call': t}
            deciding.pop(pid, None)  # an earlier async call that traced no ra_order (no hole) is over
            ra_calls[int(fields(rest)['index'])].append((t, pid, event == 'page_cache_sync_ra'))
        elif event in ('page_cache_ra_order', 'page_cache_ra_unbounded') and pid in marks:
            marks[pid].setdefault(event, t)
        elif event == 'mm_filemap_add_to_page_cache' and pid in marks:
            mk = marks.pop(pid)
            switched_out += bool(mk.get('out'))
            if 'page_cache_ra_order' in mk and 'page_cache_ra_unbounded' in mk:
                splits.append((mk['page_cache_ra_order'] - mk['call'],
                               mk['page_cache_ra_unbounded'] - mk['page_cache_ra_order'],
                               t - mk['page_cache_ra_unbounded']))
        if event == 'page_cache_ra_unbounded':
            d = fields(rest)
            started_by[int(d['index'])] = pid
            windows.append(int(d['nr_to_read']))
        elif event == 'page_cache_async_ra':
            d = fields(rest)
            who = started_by.get(int(d['index']))
            hits['inserter' if who == pid else 'other' if who is not None else 'unmatched'] += 1
            called[pid] = t
            deciding[pid] = (t, int(d['index']), int(d.get('async_size', -1)))
        elif event == 'page_cache_ra_order' and pid in deciding:
            ts, index, async_size = deciding.pop(pid)
            start = int(fields(rest)['index'])
            if start - index != async_size and start > index:
                walks.append((start - index - 1, t - ts))
        elif event == 'page_cache_sync_ra':
            hits['sync'] += 1
            called[pid] = t
        elif event == 'mm_filemap_add_to_page_cache':
            if pid in called:
                to_insert.append(t - called.pop(pid))
            elif pid in last_insert:
                spacing.append(t - last_insert[pid])
                since_stall[pid] += 1
                if spacing[-1] >= 3e-6:
                    stalls.append(since_stall[pid])
                    since_stall[pid] = 0
            last_insert[pid] = t
        elif event == 'block_bio_queue':
            b = block(rest)
            if b and b.rwbs.startswith('R') and 'M' not in b.rwbs:  # not btrfs metadata (RM)
                bios.append(b.sectors)
    full = max(windows) if windows else 0
    wc = collections.Counter(size_class(n, full) for n in windows)
    big = max(bios) if bios else 0
    bc = collections.Counter('full' if n == big else 'half..full' if 2 * n >= big else 'under half' for n in bios)
    asyncs = hits['inserter'] + hits['other'] + hits['unmatched']
    print(path)
    print('  async_ra %d: by inserter %d (%.0f%%), by other %d (%.0f%%), unmatched %d;  sync_ra %d'
          % (asyncs, hits['inserter'], 100.0 * hits['inserter'] / max(asyncs, 1), hits['other'],
             100.0 * hits['other'] / max(asyncs, 1), hits['unmatched'], hits['sync']))
    print('  windows %d (full = %d pages): full %d, 32..full-1 %d, 8..31 %d, <8 %d'
          % (len(windows), full, wc['full'], wc['32..full-1'], wc['8..31'], wc['<8']))
    print('  data bios %d (full = %d sectors): full %d, half..full %d, under half %d'
          % (len(bios), big, bc['full'], bc['half..full'], bc['under half']))
    if to_insert and spacing:
        def q(v, f):
            return quantile(v, f) * 1e6
        print('  call -> insert %d: %.1f / %.1f / %.1f us;  insert spacing %.1f / %.1f / %.1f us'
              % (len(to_insert), q(to_insert, .25), q(to_insert, .5), q(to_insert, .75),
                 q(spacing, .25), q(spacing, .5), q(spacing, .75)), end='')
        print(';  3 us or more: %.1f%%, every %s inserts' % (100.0 * len(stalls) / len(spacing),
                                                          quantile(stalls, .5) if stalls else '-'))
    print_cascades(ra_calls)
    if splits:
        med = [quantile([x[i] for x in splits], .5) * 1e6 for i in range(3)]
        print('  setup split %d: call -> ra_order %.1f us, -> ra_unbounded %.1f us, -> first insert %.1f us'
              % (len(splits), med[0], med[1], med[2]), end='')
        print(';  task switched out before the insert: %d' % switched_out if has_sched else '')
    if len(walks) >= 3:
        print_walks(walks)


def print_cascades(ra_calls):
    syncs = [(t, pid, index) for index, calls in ra_calls.items() for t, pid, sync in calls if sync]
    if not syncs:
        return
    together = sum(1 for t, pid, index in syncs
                   if any(p != pid and abs(u - t) < 20e-6 for u, p, _ in ra_calls[index]))
    indexes = sorted({index for _, _, index in syncs})
    runs, run_ = [], 1
    for a, b in zip(indexes, indexes[1:]):
        if b - a <= 128:
            run_ += 1
        else:
            runs.append(run_)
            run_ = 1
    runs.append(run_)
    bands = collections.Counter('1' if r == 1 else '2' if r == 2 else '3' if r == 3 else '4' if r == 4
                                else '5..9' if r < 10 else '10+' for r in runs)
    print('  sync cascades: %d of %d sync_ra with another task at the same index within 20 us;  %d cascades: %s'
          % (together, len(syncs), len(runs),
             ', '.join('%s: %d' % (k, bands[k]) for k in ('1', '2', '3', '4', '5..9', '10+'))))


def print_walks(walks):
    n = len(walks)
    mx = sum(w for w, _ in walks) / n
    my = sum(t for _, t in walks) / n
    sxx = sum((w - mx) ** 2 for w, _ in walks)
    slope = sum((w - mx) * (t - my) for w, t in walks) / sxx if sxx else 0.0
    print('  context walk %d: %.2f us + %.2f ns a page walked;' % (n, (my - slope * mx) * 1e6, slope * 1e9), end='')
    for lo, hi in ((0, 64), (64, 512), (512, 1500), (1500, 1 << 30)):
        band = [t for w, t in walks if lo <= w < hi]
        if band:
            print('  %s pages: %.1f us (%d)' % ('%d..%d' % (lo, hi - 1) if hi < 1 << 30 else '%d+' % lo,
                                              quantile(band, .5) * 1e6, len(band)), end='')
    print()


def run(args):
    for path in args.traces:
        one(path)
    return 0
