"""async-start - where page_cache_async_ra() starts its window against the cache's first hole.

For each capture holding page_cache_async_ra, page_cache_ra_order and mm_filemap_add_to_page_cache
lines (.gz or plain; a capture or pcsim's --ftrace): every asynchronous readahead of the data
file (the inode with the most inserts) followed by its task's page_cache_ra_order line, the
window's first index X against h, the first page after the marked folio's index + 1 that no
insert line had put in the cache by then (page_cache_next_miss()'s answer, were it exact),
counted by the marked folio's order (0, or 1 and more) as X = h, X = h + 1 and other; of the
X = h + 1 ones, how many left h empty 100 us on (a hole the window skipped, not a page
another task was inserting on the other CPU as the lines were written) (the
expected-index path, which moves the window on from the reader's own state, gives X = h
when the cache holds every earlier window).  The kernel's page_cache_next_miss() walks with
xas_next() from index + 1; inside a large folio that starts on a sibling slot, and the index
it reports runs one past the hole (docs/validation.md, issue 37's four-thread folios).  Each
line then says how many windows start where that walk puts them (xa_next_miss(), the rule
pcsim's pcs_ra_next_miss() follows: one past the hole from a folio of 2..32 pages, the hole
itself otherwise) and how many elsewhere.  --list prints each X = h + 1 case.  Exit status 2
on a trace without such lines.
"""
import collections
import sys

from .ftrace import data_file_events, each_trace

NAME = 'async-start'
HELP = "where async readahead starts its window against the cache's first hole"
PATHS = ('traces',)
XA_CHUNK_SHIFT = 6  # include/linux/xarray.h: 64 slots a node
WANTED = {'mm_filemap_add_to_page_cache', 'page_cache_async_ra', 'page_cache_sync_ra', 'page_cache_ra_order'}


def add_arguments(p):
    p.add_argument('--list', action='store_true', help='print each window started one page past the hole')
    p.add_argument('traces', nargs='+', metavar='TRACE')


def xa_next_miss(present, order, index):
    """page_cache_next_miss(mapping, INDEX + 1, ...) as lib/xarray.c walks it, INDEX being the
    marked folio's first page and ORDER its order.  A folio of order 1..5 lies in one leaf node
    (64 slots), its first slot the folio and the rest sibling entries: the walk's first
    xas_load() at INDEX + 1 follows the sibling back to the folio's slot (xas_descend() sets
    xa_offset there) while xa_index stays at INDEX + 1, and each xas_next() then steps both, so
    an empty slot at page h is reported as h + 1.  At the leaf's end __xas_next() moves on to
    the next node at get_offset(xa_index), one slot in: page B, the next node's first, is not
    looked at, and from there index and offset agree again.  A folio of order 0 (INDEX + 1 is
    another entry) or of 6 and more (stored in a node above the leaves, which __xas_next()
    keeps in step with the index) gives the first empty page itself."""
    if not 1 <= order < XA_CHUNK_SHIFT:
        hole = index + 1
        while hole in present:
            hole += 1
        return hole
    leaf_end = (index | ((1 << XA_CHUNK_SHIFT) - 1)) + 1
    page = index + 1
    while page < leaf_end:
        if page not in present:
            return page + 1
        page += 1
    hole = leaf_end + 1  # leaf_end itself is skipped
    while hole in present:
        hole += 1
    return hole


def one(path, listing):
    evs, data = data_file_events(path, WANTED)
    if data is None:
        sys.stderr.write(f'pcsim-trace async-start: {path}: no page-insert lines\n')
        return 2
    present, head_order, pending, first = set(), {}, {}, {}
    got, shown, skipped = collections.Counter(), [], []
    for e, f in evs:
        if e.name == 'mm_filemap_add_to_page_cache':
            page, order = f.page, f.order
            present.update(range(page, page + (1 << order)))
            for q in range(page, page + (1 << order)):
                first.setdefault(q, e.time)
            head_order[page] = order
        elif e.name == 'page_cache_async_ra':
            index = int(f.get('index', -1))
            hole = index + 1
            while hole in present:
                hole += 1
            pending[e.pid] = (index, hole, xa_next_miss(present, head_order.get(index, 0), index))
        elif e.name == 'page_cache_sync_ra':
            pending.pop(e.pid, None)
        elif e.pid in pending:
            index, hole, walk = pending.pop(e.pid)
            start = int(f.get('index', -1))
            got[(head_order.get(index, 0) >= 1, 'walk', start == walk)] += 1
            large = head_order.get(index, 0) >= 1
            kind = 'X = h' if start == hole else 'X = h + 1' if start == hole + 1 else 'other'
            got[(large, kind)] += 1
            if kind == 'X = h + 1':
                skipped.append((large, hole, e.time))
                if listing:
                    shown.append(f'    {e.time:.6f} pid {e.pid} marker {index} (order {head_order.get(index, 0)}) '
                                 f'hole {hole} window {start}')
    if not got:
        sys.stderr.write(f'pcsim-trace async-start: {path}: no page_cache_async_ra followed by page_cache_ra_order\n')
        return 2
    print(f'{path}: {sum(v for k, v in got.items() if len(k) == 2)} asynchronous readaheads with their window')
    for large, label in ((False, 'marked folio of order 0'), (True, 'marked folio of order 1 or more')):
        empty = sum(1 for lg, h, t in skipped if lg == large and first.get(h, float('inf')) - t > 100e-6)
        print(f'  {label}: X = h {got[(large, "X = h")]}, X = h + 1 {got[(large, "X = h + 1")]} '
              f'(h empty 100 us on: {empty}), other {got[(large, "other")]}; '
              f'X where the xarray walk puts it {got[(large, "walk", True)]}, elsewhere {got[(large, "walk", False)]}')
    for line in shown:
        print(line)
    return 0


def run(args):
    return each_trace(args.traces, lambda path: one(path, args.list))
