"""insert-stalls - the page-insert loop's stalls in a capture (cost.insert_stall).

For each capture holding mm_filemap_add_to_page_cache lines (.gz or plain; a
capture or pcsim's --ftrace): every gap between one task's inserts of
consecutive 4 KiB pages with no other event of that task between (a
block_rq_complete in its context may lie between, as pcsim calibrate
allows), the gaps of 10 us or more (stalls: each the gap less the median
gap), their count, inserts per stall, p25 / median / p75 / p90 length, how
many had a completion in the task's context, and where they fall in the
file: the stalls by page index mod 32 (the share at the two most frequent
residues, which are adjacent when the loop stops at one phase of a 32-page
period; 2 / 32 = 6% when they fall at random).  Used for
docs/notebook/2026-12-07-insert-stalls.md.  Exit status 2 on a trace
without insert gaps.
"""
import collections
import sys

from .ftrace import each_trace, events, insert
from .quantile import quantile

NAME = 'insert-stalls'
HELP = "the page-insert loop's stalls (cost.insert_stall)"
PATHS = ('traces',)
STALL_US = 10.0

def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')

def one(path):
    last, gaps, stalls = {}, [], []  # stalls: (gap us, index, completion between)
    irq = set()
    for e in events(path, {'mm_filemap_add_to_page_cache', 'block_rq_complete', 'block_bio_queue', 'block_rq_issue',
                           'page_cache_sync_ra', 'page_cache_async_ra', 'page_cache_ra_order', 'page_cache_ra_unbounded'}):
        if e.name == 'block_rq_complete':
            irq.add(e.pid)
            continue
        x = insert(e.rest) if e.name == 'mm_filemap_add_to_page_cache' else None
        if not x or x.order:
            last.pop(e.pid, None)
            continue
        index = x.page
        if e.pid in last and last[e.pid][1] == index - 1:
            d = (e.time - last[e.pid][0]) * 1e6
            gaps.append(d)
            if d >= STALL_US:
                stalls.append((d, index, e.pid in irq))
        irq.discard(e.pid)
        last[e.pid] = (e.time, index)
    if not gaps:
        sys.stderr.write(f'pcsim-trace insert-stalls: {path}: no gaps between consecutive page inserts\n')
        return 2
    base = quantile(gaps, .5)
    lost = [d - base for d, _, _ in stalls]
    by = collections.Counter(i % 32 for _, i, _ in stalls)
    top = by.most_common(2)
    at_top = sum(n for _, n in top)
    print(f'{path}: {len(gaps)} gaps, median {base * 1e3:.0f} ns; {len(stalls)} of {STALL_US:.0f} us or more '
          f'(one in {len(gaps) / max(len(stalls), 1):.0f} inserts), '
          f'{sum(1 for s in stalls if s[2])} with a completion in the task\'s context', end='')
    if lost:
        print(f'; length p25/median/p75/p90 {quantile(lost, .25):.1f}/{quantile(lost, .5):.1f}/'
              f'{quantile(lost, .75):.1f}/{quantile(lost, .9):.1f} us; index mod 32 most often '
              f'{", ".join(f"{r} ({n})" for r, n in top)}: {100 * at_top / len(stalls):.0f}% of them')
    else:
        print()
    return 0

def run(args):
    return each_trace(args.traces, one)
