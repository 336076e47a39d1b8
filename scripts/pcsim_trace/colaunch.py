"""colaunch - readahead windows launched twice: two readers' page_cache_async_ra on one marker.

TRACE: a kernel capture's ftrace text (scripts/capture-kernel-trace, with the
readahead events; .gz or plain) or the file `pcsim run ... --ftrace FILE`
writes.  6.18 tests a batch's marked last folio in filemap_get_pages() and
clears the mark in page_cache_async_ra(): two readers that gather the folio
in between both launch the next window and both insert it
(page_cache_ra_unbounded at one index by two tasks), which splits it into
small bios.  For each TRACE it prints the page_cache_ra_unbounded calls
(windows) and how many window starts were launched by two tasks or more,
each coming from its own page_cache_async_ra, and the largest time between
the first two of those page_cache_async_ra lines; then the small data bios
(block_bio_queue, rwbs RA without M, under 256 pages) and how many of them
one of those launchers queued within 50 ms after the window's first launch.
With scheduler events (sched_waking, captures taken with --extra-events): how
many twice-launched windows had both launchers last woken by one task within
50 us of each other (one end-io completion's wake-all releasing them
together), and the median time from those wakings to the launches.  Used to fit cost.ra_marker
(workloads/linux-6.18-btrfs.ini; docs/validation.md, "Windows launched twice").
"""
import collections

from .ftrace import block, events, fields
from .quantile import quantile

NAME = 'colaunch'
HELP = 'windows launched twice on one marker (cost.ra_marker)'
PATHS = ('traces',)
SMALL = 256      # pages: a bio under this is a piece of a window (a whole one holds 256 or more)
SPAN = 0.05      # s after a twice-launched window's first launch in which its launchers' bios count
TOGETHER = 50e-6  # s between two launchers' wakings by one waker: woken together
WANTED = {'page_cache_async_ra', 'page_cache_sync_ra', 'page_cache_ra_unbounded', 'block_bio_queue', 'sched_waking'}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def count(path):
    """(windows, twice-launched window starts, largest us between their first two launches,
    small data bios, of them by those launchers, wakings traced, twice-launched windows
    whose launchers one waker woke together, median us from those wakings to the launches)"""
    launchers = collections.defaultdict(dict)  # window start -> {task: (its async_ra's time, its last waking)}
    last = {}
    woken = {}  # task -> (time, waker) of its last sched_waking
    windows = 0
    small = []  # (time, task)
    for e in events(path, WANTED):
        if e.name == 'block_bio_queue':
            b = block(e.rest)
            if b and 'R' in b.rwbs and 'M' not in b.rwbs and b.sectors // 8 < SMALL:
                small.append((e.time, e.pid))
        elif e.name == 'sched_waking':
            pid = fields(e.rest).get('pid')
            if pid is not None:
                woken[int(pid)] = (e.time, e.pid)
        else:
            index = fields(e.rest).get('index')
            if index is None:
                continue
            if e.name == 'page_cache_ra_unbounded':
                windows += 1
                if last.get(e.pid, ('',))[0] == 'page_cache_async_ra':
                    launchers[int(index)].setdefault(e.pid, (last[e.pid][1], woken.get(e.pid)))
            else:
                last[e.pid] = (e.name, e.time)
    twice = [tasks for tasks in launchers.values() if len(tasks) > 1]
    firsts = [(min(t for t, _ in tasks.values()), set(tasks)) for tasks in twice]
    theirs = sum(1 for t, task in small if any(t0 <= t <= t0 + SPAN and task in tasks for t0, tasks in firsts))
    together, since = 0, []
    for tasks in twice:
        (ta, wa), (tb, wb) = sorted(tasks.values(), key=lambda v: v[0])[:2]
        if wa and wb and wa[1] == wb[1] and abs(wa[0] - wb[0]) <= TOGETHER:
            together += 1
            since.append(1e6 * max(ta - wa[0], tb - wb[0]))
    gap = max((1e6 * (b[0] - a[0]) for a, b in (sorted(v.values(), key=lambda x: x[0])[:2] for v in twice)),
              default=None)
    return (windows, len(twice), gap, len(small), theirs, bool(woken), together,
            quantile(since, 0.5) if since else None)


def run(args):
    for path in args.traces:
        windows, twice, gap, small, theirs, sched, together, since = count(path)
        gaps = f' (their page_cache_async_ra at most {gap:.0f} us apart)' if gap is not None else ''
        print(f'{path}: {windows} windows, {twice} launched twice by page_cache_async_ra{gaps}; '
              f'{small} small data bios (under {SMALL} pages), {theirs} of them by those launchers')
        if sched:
            print(f'  launched twice by readers one waker woke within {TOGETHER * 1e6:.0f} us of each other: '
                  f'{together} of {twice}' + (f', {since:.0f} us (median) after those wakings' if since is not None else ''))
    return 0
