"""bio-gaps - the gap before each data bio of a readahead, and how often the reader left its CPU in it.

pcsim calibrate times cost.read_setup and cost.bio_submit from the gap before each data
block_bio_queue of a thread since its previous page insert or data bio (calibrate.c,
collect_bio_gaps(), over the events pcsim's trace reader keeps: read bios and requests,
readahead entries, inserts; a block_rq_issue or page_cache_ra_order line between does not
break a gap, another kept event of the thread does, any other event is not seen).  This tool takes the same gaps and, where the
trace has scheduler events (a capture with --extra-events, pcsim's --ftrace), counts the
gaps in which the reader was switched out (a sched_switch with it as prev): time another
task ran on its CPU, which calibrate, seeing no scheduler events, counts as the reader's
cost.  Per bio size in pages (sizes seen 5 times or more): the gaps, their p25 / p50 /
p75 in us, and how many had the reader switched out; "no scheduler events" where the
trace has none.  Exit status 2 on a trace without a data bio after an insert.
"""
import collections
import sys

from .ftrace import block, each_trace, events
from .quantile import quantile

NAME = 'bio-gaps'
HELP = 'the gap before each data bio of a readahead, and whether the reader left its CPU in it'
PATHS = ('traces',)
SECTORS_PER_PAGE = 8
# the events pcsim's trace reader keeps (include/pcsim/ktrace.h, PCS_KTRACE_EVENT_KINDS)
KEPT = {'block_bio_queue', 'block_rq_issue', 'block_rq_complete', 'page_cache_sync_ra', 'page_cache_async_ra',
        'page_cache_ra_order', 'mm_filemap_add_to_page_cache'}
MIN_SIZE_COUNT = 5


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def one(path):
    last, armed, out = {}, {}, {}
    gaps = collections.defaultdict(list)
    switched = collections.Counter()
    sched = False
    for e in events(path):
        if e.name == 'sched_switch':
            sched = True
            prev = e.task, e.pid
            if armed.get(prev):
                out[prev] = True
            continue
        if e.name not in KEPT or e.name in ('block_rq_issue', 'page_cache_ra_order'):
            continue
        key = e.task, e.pid
        data_bio = False
        if e.name == 'block_bio_queue':
            b = block(e.rest)
            data_bio = b is not None and 'M' not in b.rwbs
            if data_bio and armed.get(key):
                pages = (b.sectors + SECTORS_PER_PAGE - 1) // SECTORS_PER_PAGE
                gaps[pages].append((e.time - last[key]) * 1e6)
                switched[pages] += bool(out.get(key))
        armed[key] = data_bio or e.name == 'mm_filemap_add_to_page_cache'
        last[key], out[key] = e.time, False
    if not gaps:
        sys.stderr.write(f'pcsim-trace bio-gaps: {path}: no data bio after a page insert\n')
        return 2
    print(path)
    for pages in sorted(gaps):
        g = sorted(gaps[pages])
        if len(g) < MIN_SIZE_COUNT:
            continue
        q = ' / '.join(f'{quantile(g, p):.1f}' for p in (0.25, 0.5, 0.75))
        reader = f'reader switched out in {switched[pages]}' if sched else 'no scheduler events'
        print(f'  {pages} pages: {len(g)} gaps, p25 / p50 / p75 {q} us; {reader}')
    return 0


def run(args):
    return each_trace(args.traces, one)
