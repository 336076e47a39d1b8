"""window-order - does the device finish readahead windows in order, and what do readers find?

For a trace with page inserts, readahead and block events (a kernel capture of
scripts/capture-kernel-trace with mm_filemap_add_to_page_cache kept whole, or pcsim's
--ftrace; .gz or plain), of the data file (the inode with the most inserts):
each page is mapped to the data bio that carried it (the inserting task's pages not yet
submitted, in index order, as block_bio_queue takes them; a warning on stderr when a bio
would take pages that are not one run, or pages are left never submitted) and to the
completion of the request holding its first sector.  A window is a page_cache_ra_unbounded call; a full
window has 2000 pages or more (an 8 MiB window is 2048).  Per trace:
  full windows whose pages all completed: issue -> last completion, p50 (ms);
  consecutive full windows (the next starts where this one ends): how often the later
      one's last page completed before the earlier one's (out of order), or within 1 ms
      of it (together);
  launches at a marker on the previous window's first page (page_cache_async_ra with
      index = that window's start, the steady state one window ahead) for a full window:
      how many found the previous window already complete, and of those how many windows
      were then inserted by two threads or more (a follower read the completed window
      through while the leader inserted the next one);
  full windows inserted by two threads or more, whatever launched them;
  the leader's insert run of a full window launched that way (first to last insert of
      its own pages), p50 ms.
Used for docs/validation.md, "What the large-window collisions need".
"""
import bisect
import collections
import sys

from .ftrace import block, events, fields, inode, insert
from .quantile import quantile

NAME = 'window-order'
HELP = 'whether the device finishes windows in order'
PATHS = ('traces',)
FULL = 2000
WANTED = {'mm_filemap_add_to_page_cache', 'page_cache_async_ra', 'page_cache_ra_unbounded', 'block_bio_queue',
          'block_rq_complete'}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def median(v):
    return quantile(v, 0.5)


def read(path):
    """(inserts (t, pid, ino, page), readahead calls, data bios, data completions), times in ms."""
    ins, ra, bios, comp = [], [], [], []
    for e in events(path, WANTED):
        pid, t, ev, rest = e.pid, e.time * 1e3, e.name, e.rest
        if ev == 'mm_filemap_add_to_page_cache':
            x = insert(rest)
            if x:
                ins.append((t, pid, x.ino, x.page))
        elif ev in ('page_cache_async_ra', 'page_cache_ra_unbounded'):
            ra.append((t, pid, ev, fields(rest)))
        else:
            x = block(rest)
            if x and x.rwbs.startswith('R') and 'M' not in x.rwbs:
                if ev == 'block_bio_queue':
                    bios.append((t, pid, x.sector, x.sectors))
                else:
                    comp.append((x.sector, x.sector + x.sectors, t))
    return ins, ra, bios, comp


def analyse(path):
    ins, ra, bios, comp = read(path)
    if not ins:
        return None
    ino = collections.Counter(i[2] for i in ins).most_common(1)[0][0]
    ins = [(t, p, pg) for t, p, i, pg in ins if i == ino]
    ra = [r for r in ra if inode(r[3].get('ino')) == ino]
    owner, tins = {}, {}
    for t, p, pg in ins:
        owner[pg], tins[pg] = p, t
    # page -> its bio's time and first sector: each bio takes its task's pending pages in order
    ev = sorted([(t, 0, p, pg) for t, p, pg in ins] + [(t, 1, p, (s, n)) for t, p, s, n in bios],
                key=lambda e: (e[0], e[1]))
    pend, tbio, sect, odd = collections.defaultdict(list), {}, {}, 0
    for t, kind, p, x in ev:
        if kind == 0:
            pend[p].append(x)
            continue
        s, n = x
        pend[p].sort()
        take, pend[p] = pend[p][:n // 8], pend[p][n // 8:]
        if take and take[-1] - take[0] != len(take) - 1:
            odd += 1  # a bio whose pages are not one run: the mapping went astray
        for j, pg in enumerate(take):
            tbio[pg], sect[pg] = t, s + 8 * j
    left = sum(len(v) for v in pend.values())
    if odd or left:
        print('pcsim-trace window-order: %s: the page -> bio mapping is off (%d bios over non-consecutive pages, %d pages'
              ' inserted and never submitted): the figures below are not reliable' % (path, odd, left), file=sys.stderr)
    comp.sort()
    starts = [c[0] for c in comp]
    tdone = {}
    for pg, s in sect.items():
        i = bisect.bisect_right(starts, s) - 1
        while i >= 0 and not comp[i][0] <= s < comp[i][1]:
            i -= 1
        if i >= 0:
            tdone[pg] = comp[i][2]
    wins, last_async = [], {}
    for t, p, ev_, f in ra:
        if ev_ == 'page_cache_async_ra':
            last_async[p] = (t, int(f['index']))
        else:
            start, nr = int(f['index']), int(f['nr_to_read'])
            wins.append(dict(t=t, pid=p, start=start, end=start + nr, nr=nr, launch=last_async.pop(p, None)))
    return owner, tins, tbio, tdone, wins


def done_at(tdone, a, b):
    d = [tdone.get(i) for i in range(a, b)]
    return None if not d or None in d else max(d)


def report(path):
    r = analyse(path)
    if r is None:
        print('%s: no page inserts (a capture reduced by `pcsim-trace reduce-capture` has none)' % path)
        return
    owner, tins, tbio, tdone, wins = r
    full = [w for w in wins if w['nr'] >= FULL]
    for w in full:
        w['done'] = done_at(tdone, w['start'], w['end'])
        b = [tbio.get(i) for i in range(w['start'], w['end'])]
        w['issue'] = None if None in b else min(b)
    served = [w['done'] - w['issue'] for w in full if w['done'] is not None and w['issue'] is not None]
    print('%s: %d readahead windows, %d full (%d pages or more)' % (path, len(wins), len(full), FULL))
    print('  full windows, issue -> last completion p50: %.2f ms' % median(served))
    by_start = {w['start']: w for w in full if w['done'] is not None}
    pairs = inverted = together = 0
    for w in sorted(by_start.values(), key=lambda w: w['start']):
        nxt = by_start.get(w['end'])
        if nxt is None:
            continue
        pairs += 1
        inverted += nxt['done'] < w['done']
        together += abs(nxt['done'] - w['done']) <= 1.0
    print('  consecutive full windows: %d pairs; the later finished first: %d; within 1 ms of each other: %d'
          % (pairs, inverted, together))
    starts = {}
    for w in wins:
        starts.setdefault(w['start'], w)
    n = complete = collided = 0
    lead = []
    for w in full:
        if w['launch'] is None:
            continue
        t, index = w['launch']
        prev = starts.get(index)
        if prev is None or prev['end'] != w['start']:
            continue
        d = done_at(tdone, prev['start'], prev['end'])
        if d is None:
            continue
        n += 1
        if d <= t:
            complete += 1
            collided += len({owner.get(i) for i in range(w['start'], w['end']) if i in owner}) > 1
        own = sorted(tins[i] for i in range(w['start'], w['end']) if owner.get(i) == w['pid'])
        if len(own) >= FULL:
            lead.append(own[-1] - own[0])
    print("  launches at the previous window's first page: %d; the previous window already complete: %d;"
          ' of those, inserted by two threads or more: %d' % (n, complete, collided))
    shared = sum(1 for w in full if len({owner.get(i) for i in range(w['start'], w['end']) if i in owner}) > 1)
    print('  full windows inserted by two threads or more, in all: %d of %d' % (shared, len(full)))
    print('  leader inserting its full window, first to last insert p50: %.2f ms' % median(lead))


def run(args):
    for path in args.traces:
        report(path)
    return 0
