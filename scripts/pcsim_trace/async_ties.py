"""async-ties - asynchronous readaheads that found nothing to read, and the reader that tied with them.

TRACE: a kernel capture's ftrace text (scripts/capture-kernel-trace, with the
readahead and page-insert events; .gz or plain) or the file `pcsim run ... --ftrace
FILE` writes.  6.18 tests a batch's marked last folio in filemap_get_pages() and
clears the mark in page_cache_async_ra(), after its tracepoint: two readers that
test it in between both run the asynchronous readahead.  The second inserts
nothing when the first's folios are in by then (its first folio insert fails, or
page_cache_next_miss() finds no hole), and with large folios (ext4, xfs) it may
insert the window's rest at order 0 (do_page_cache_ra()'s fallback) where its own
window passes the first's.  Unlike `colaunch` (btrfs: windows counted by
page_cache_ra_unbounded, which ext4 and xfs trace only on that fallback), this
counts the page_cache_async_ra lines themselves, so it reads every file system.

For each TRACE it prints the page_cache_async_ra and page_cache_sync_ra calls; the
asynchronous ones that inserted no folio before the task's next readahead call,
and of those, how many followed another task's page_cache_async_ra at the same
index (a tie) and how far behind it (p10 / median / p90 us, and the share within
TIE_US); then the folios inserted, by order.
"""
import collections

from .ftrace import each_trace, events, fields, insert
from .quantile import quantile

NAME = 'async-ties'
HELP = 'asynchronous readaheads that inserted nothing, tied with another reader\'s'
PATHS = ('traces',)
TIE_US = 1.5  # a tie: the trace's microsecond stamps put the two calls this close
WANTED = {'page_cache_async_ra', 'page_cache_sync_ra', 'mm_filemap_add_to_page_cache'}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def calls(path):
    """[(kind, index, time, pid, folios inserted)] in trace order, and folios per order."""
    out, current, orders = [], {}, collections.Counter()
    for e in events(path, WANTED):
        if e.name == 'mm_filemap_add_to_page_cache':
            f = insert(e.rest)
            orders[f.order if f else 0] += 1
            if e.pid in current:
                current[e.pid][4] += 1
            continue
        index = fields(e.rest).get('index')
        if index is None:
            continue
        call = [e.name[len('page_cache_'):], int(index), e.time, e.pid, 0]
        out.append(call)
        current[e.pid] = call
    return out, orders


def one(path):
    found, orders = calls(path)
    kinds = collections.Counter(c[0] for c in found)
    by_index = collections.defaultdict(list)
    empty, gaps = 0, []
    for kind, index, time, pid, inserted in found:
        if kind == 'async_ra':
            before = [t for t, p in by_index[index] if p != pid and t <= time]
            if not inserted:
                empty += 1
                if before:
                    gaps.append((time - before[-1]) * 1e6)
            by_index[index].append((time, pid))
    gaps.sort()
    print(f'{path}: {kinds["async_ra"]} page_cache_async_ra, {kinds["sync_ra"]} page_cache_sync_ra')
    print(f'  asynchronous that inserted nothing: {empty}; after another task\'s at the same index: {len(gaps)}', end='')
    if gaps:
        within = sum(1 for g in gaps if g <= TIE_US)
        print(f', {quantile(gaps, 0.1):.1f} / {quantile(gaps, 0.5):.1f} / {quantile(gaps, 0.9):.1f} us behind it '
              f'(p10 / median / p90), {within} within {TIE_US} us')
    else:
        print()
    print('  folios inserted by order: ' + ', '.join(f'{o}: {n}' for o, n in sorted(orders.items())))
    return 0


def run(args):
    return each_trace(args.traces, one)
