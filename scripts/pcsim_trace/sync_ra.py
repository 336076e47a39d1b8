"""sync-ra - where each synchronous readahead (page_cache_sync_ra) of a multi-thread read happens.

For a trace with page inserts and readahead events (a kernel capture of
scripts/capture-kernel-trace with mm_filemap_add_to_page_cache kept whole, or pcsim's
--ftrace; .gz or plain), of the data file (the inode with the most inserts).
filemap_get_pages() calls page_cache_sync_ra() only when filemap_get_read_batch()
finds no folio at the index the read wants (a locked, !uptodate folio there is
found, and waited on, not read again), so each call is classed by what the cache held
at that index just before it, from the inserts and readahead windows (a window is a
page_cache_ra_unbounded call, [index, index + nr_to_read)) of the trace:
  start       the thread's first read (prev_pos=-1);
  in-flight   another thread's window already covers the index, its inserting task
              has not reached it yet (it is inserting the pages before it);
  front       the index is past every window started before: the thread reached the
              front of the cache, no readahead had been launched for it;
  hole        behind the front, covered by an earlier window that never inserted it
              (that window skipped it: -EEXIST, or it ended short);
  gap         behind the front and in no window: nobody read it ahead;
  again       the page was in the cache before and is not now (it was removed).
Each call is also marked "mid-read" when the read found folios before the missing one
(the index is past prev_pos's page by more than one page: req_count is the read's
remainder), else "read-start".  For class front, the window that ends at the index
(the last one before it): whether its lookahead marker (index + nr_to_read -
lookahead_size) was hit by page_cache_async_ra before the call, by whom, and what that
call read (nothing: a readahead that found the next miss too far, or a window elsewhere).
Two figures say why a window had no marker: the async readaheads that hit the marker
of a window whose inserting task was still inserting it (the reader outran the insert
loop, so page_cache_next_miss() found the inserter's current hole and the new window
overlaps the rest of the old one: its first page, the marker, goes to the inserter),
and how often a window's insert run (its task's own inserts, 32 pages or more) stalls:
a gap over 10 us between two consecutive inserts (the task off its CPU or interrupted).
The last line splits the gaps between two consecutive inserts of one task (one window)
by whether a block_rq_complete ran in that task's context (on its CPU) between them: a
request's completion taking the inserting reader's CPU (pcsim charges no interrupt or
softirq time, endio.c), with the gap's p25 / p50 / p90.
Prints the counts per class and per thread; --list prints every call.
pcsim's trace prints lookahead_size=0: an async window's marker is then taken to be
its first page (6.18's page_cache_async_ra() sets async_size = size).
Used for docs/notebook/2026-12-06-sync-readahead.md.
"""
import bisect
import collections

from .ftrace import data_file_events, events, insert
from .quantile import quantile

NAME = 'sync-ra'
HELP = 'class each synchronous readahead by what the cache held'
PATHS = ('traces',)
WANTED = {'mm_filemap_add_to_page_cache', 'page_cache_sync_ra', 'page_cache_async_ra', 'page_cache_ra_unbounded'}
DATA_INO = {}
CLASSES = ('start', 'in-flight', 'front', 'hole', 'gap', 'again')


def add_arguments(p):
    p.add_argument('--list', action='store_true', help='print every synchronous readahead with its class')
    p.add_argument('traces', nargs='+', metavar='TRACE')


def read(path):
    """Events of the data file in file order: (seq, t, pid, kind, dict); kind 'ins' has 'page'."""
    evs, data = data_file_events(path, WANTED)
    if data is None:
        return None
    DATA_INO[path] = data
    return [(i, e.time, e.pid, e.name, {'page': f.page} if e.name == 'mm_filemap_add_to_page_cache' else f)
            for i, (e, f) in enumerate(evs)]


def windows(evs):
    """Each page_cache_ra_unbounded call as a dict: seq, t, pid, start, end, mark, how (the call before it)."""
    out, last = [], {}
    for seq, t, pid, name, f in evs:
        if name in ('page_cache_sync_ra', 'page_cache_async_ra'):
            last[pid] = (name, int(f['index']), seq)
        elif name == 'page_cache_ra_unbounded':
            start, nr, la = int(f['index']), int(f['nr_to_read']), int(f.get('lookahead_size', 0))
            how = last.get(pid)
            if not la and how and how[0] == 'page_cache_async_ra':
                la = nr  # pcsim's trace prints 0; 6.18's async window is all lookahead (async_size = size)
            out.append(dict(seq=seq, t=t, pid=pid, start=start, end=start + nr,
                            mark=start + nr - la if la else None, how=last.pop(pid, None)))
    return out


def classify(evs):
    """The synchronous readaheads of EVS, each a dict with its class and context."""
    first_ins = {}
    for seq, t, pid, name, f in evs:
        if name == 'mm_filemap_add_to_page_cache':
            first_ins.setdefault(f['page'], []).append((seq, pid))
    wins = windows(evs)
    wseq = [w['seq'] for w in wins]
    asyncs = [(seq, pid, int(f['index'])) for seq, t, pid, name, f in evs if name == 'page_cache_async_ra']
    by_win = {w['seq']: w for w in wins}
    nxt = {}  # async call seq -> the window it launched (the same pid's next unbounded call)
    for w in wins:
        if w['how'] and w['how'][0] == 'page_cache_async_ra':
            nxt[w['how'][2]] = w
    del by_win
    front, fronts = -1, []
    for seq, t, pid, name, f in evs:
        if name == 'mm_filemap_add_to_page_cache':
            front = max(front, f['page'])
        fronts.append(front)
    out = []
    for seq, t, pid, name, f in evs:
        if name != 'page_cache_sync_ra':
            continue
        idx, prev = int(f['index']), int(f['prev_pos'])
        r = dict(seq=seq, t=t, pid=pid, index=idx, req=int(f['req_count']), front=fronts[seq],
                 mid=prev >= 0 and idx - (prev >> 12) > 1)
        before = [w for w in wins[:bisect.bisect_left(wseq, seq)]]
        ins_before = [s for s, _ in first_ins.get(idx, []) if s < seq]
        covering = [w for w in before if w['start'] <= idx < w['end']]
        if prev < 0:
            r['class'] = 'start'
        elif ins_before:
            r['class'] = 'again'
        elif any(w['pid'] != pid and not any(s < seq for s, p in first_ins.get(idx, []))
                 and any(s > seq and p == w['pid'] for s, p in first_ins.get(idx, [])) for w in covering):
            r['class'] = 'in-flight'
        elif covering:
            r['class'] = 'hole'
        elif idx > fronts[seq] and all(w['end'] <= idx for w in before):
            r['class'] = 'front'
        else:
            r['class'] = 'gap'
        if r['class'] == 'front':
            ending = [w for w in before if w['end'] == idx]
            r['prev_win'] = ending[-1] if ending else None
            if ending and ending[-1]['mark'] is not None:
                w = ending[-1]
                owners = [(s, p) for s, p in first_ins.get(w['mark'], [])]
                # the marker is set only when the window's own task inserts that page
                r['mark_set'] = bool(owners) and owners[0][1] == w['pid'] and owners[0][0] > w['seq']
                r['mark_owner'] = owners[0][1] if owners else None
            if ending and ending[-1]['mark'] is not None:
                w = ending[-1]
                hits = [(s, p) for s, p, i in asyncs if i == w['mark'] and w['seq'] < s < seq]
                r['marker_hits'] = [(p, nxt.get(s)) for s, p in hits]
            else:
                r['marker_hits'] = None
        out.append(r)
    return out


def in_flight_hits(evs, wins):
    """(async calls at the marker of a window another task was still inserting, of them
    the ones that launched a window shorter than the one before it at that index)."""
    last_ins = {}  # (pid, page) -> seq of that task's insert of the page
    for seq, t, pid, name, f in evs:
        if name == 'mm_filemap_add_to_page_cache':
            last_ins.setdefault(f['page'], (seq, pid))
    open_w, nxt, hits, short = {}, {}, 0, 0
    for w in wins:
        if w['how'] and w['how'][0] == 'page_cache_async_ra':
            nxt[w['how'][2]] = w
    wi = 0
    for seq, t, pid, name, f in evs:
        while wi < len(wins) and wins[wi]['seq'] < seq:
            open_w[wins[wi]['pid']] = wins[wi]
            wi += 1
        if name != 'page_cache_async_ra':
            continue
        idx = int(f['index'])
        busy = [w for w in open_w.values() if w['pid'] != pid and w['start'] <= idx < w['end'] and any(
            last_ins.get(p, (0, None))[1] == w['pid'] and last_ins[p][0] > seq for p in range(idx, w['end']))]
        if busy:
            hits += 1
            nw = nxt.get(seq)
            short += nw is not None and nw['end'] - nw['start'] < busy[0]['end'] - busy[0]['start']
    return hits, short


def launch_to_hit(evs, wins):
    """For each async window whose marker another task hit first: us from the window's
    page_cache_ra_unbounded to that hit, sorted."""
    hits = {}
    for seq, t, pid, name, f in evs:
        if name == 'page_cache_async_ra':
            hits.setdefault(int(f['index']), []).append((seq, t, pid))
    out = []
    for w in wins:
        if w['how'] and w['how'][0] == 'page_cache_async_ra' and w['mark'] == w['start']:
            after = [h for h in hits.get(w['start'], []) if h[0] > w['seq']]
            if after and after[0][2] != w['pid']:
                out.append((after[0][1] - w['t']) * 1e6)
    return sorted(out)


def insert_stalls(evs, wins, gap=10e-6, least=32):
    """(window insert runs of LEAST own pages or more, of them with a gap over GAP s)."""
    runs, stalled, cur = 0, 0, {}
    for seq, t, pid, name, f in evs:
        if name == 'page_cache_ra_unbounded':
            prev = cur.pop(pid, None)
            if prev and prev[2] >= least:
                runs += 1
                stalled += prev[3]
            cur[pid] = [None, None, 0, False]  # last time, last page, pages, stalled
        elif name == 'mm_filemap_add_to_page_cache' and pid in cur:
            c = cur[pid]
            if c[1] is not None and f['page'] == c[1] + 1 and t - c[0] > gap:
                c[3] = True
            c[0], c[1], c[2] = t, f['page'], c[2] + 1
    for c in cur.values():
        if c[2] >= least:
            runs += 1
            stalled += c[3]
    return runs, stalled


def data_ino(path):
    """The data file's inode of the trace read() last read at PATH."""
    return DATA_INO[path]


def completion_gaps(path, ino):
    """Gaps (us) between consecutive inserts of one task into INO: (with a block_rq_complete
    in that task's context between them, without)."""
    last, pending, with_, without = {}, collections.defaultdict(list), [], []
    for e in events(path, {'block_rq_complete', 'mm_filemap_add_to_page_cache', 'page_cache_ra_unbounded'}):
        if e.name == 'block_rq_complete':
            pending[e.pid].append(e.cpu)
        elif e.name == 'page_cache_ra_unbounded':
            last.pop(e.pid, None)
            pending.pop(e.pid, None)
        else:
            x = insert(e.rest)
            if not x or x.ino != ino:
                continue
            page = x.page
            prev = last.get(e.pid)
            if prev and prev[1] == page - 1:
                (with_ if e.cpu in pending.get(e.pid, ()) else without).append((e.time - prev[0]) * 1e6)
            last[e.pid] = (e.time, page)
            pending.pop(e.pid, None)
    return sorted(with_), sorted(without)


def describe(r):
    s = '%-9s %s pid %d index %d req %d (front %d)' % (r['class'], 'mid-read  ' if r['mid'] else 'read-start',
                                                      r['pid'], r['index'], r['req'], r['front'])
    if r['class'] == 'front':
        w = r.get('prev_win')
        if w is None:
            s += '; no window ended here'
        else:
            s += '; window [%d,%d) by %d (%s), marker %s' % (w['start'], w['end'], w['pid'],
                                                            w['how'][0][11:] if w['how'] else '?', w['mark'])
            if 'mark_set' in r:
                s += ' (%s)' % ('set' if r['mark_set'] else 'lost: page inserted by %s' % r['mark_owner'])
            hits = r.get('marker_hits')
            if hits is not None:
                s += ', hit %d time(s)' % len(hits)
                for p, nw in hits:
                    s += ' [by %d: %s]' % (p, 'read nothing' if nw is None or nw['seq'] > r['seq']
                                           else 'read [%d,%d)' % (nw['start'], nw['end']))
    return s


def report(path, listing):
    evs = read(path)
    if evs is None:
        print('%s: no page inserts (a capture reduced by `pcsim-trace reduce-capture` has none)' % path)
        return
    rs = classify(evs)
    cls = collections.Counter(r['class'] for r in rs)
    mid = collections.Counter(r['class'] for r in rs if r['mid'])
    print('%s: %d synchronous readaheads' % (path, len(rs)))
    print('  ' + ', '.join('%s %d (mid-read %d)' % (c, cls[c], mid[c]) for c in CLASSES))
    pids = collections.Counter(r['pid'] for r in rs)
    print('  per thread: ' + ', '.join('%d: %d' % (p, n) for p, n in sorted(pids.items())))
    fr = [r for r in rs if r['class'] == 'front']
    if fr:
        lost = sum(1 for r in fr if r.get('mark_set') is False)
        kept = sum(1 for r in fr if r.get('mark_set'))
        print('  front: the window ending there lost its marker (its first page inserted by another task first): %d;'
              ' had it: %d; no such window: %d' % (lost, kept, len(fr) - lost - kept))
    hits, short = in_flight_hits(evs, windows(evs))
    print('  async readaheads at the marker of a window another task was still inserting: %d'
          ' (launching a shorter window: %d)' % (hits, short))
    lh = launch_to_hit(evs, windows(evs))
    if lh:
        print("  async windows whose marker another task hit first: %d; window start -> that hit p10 / p25 / p50:"
              ' %.0f / %.0f / %.0f us; within 20 us: %d' % (len(lh), quantile(lh, 0.1), quantile(lh, 0.25),
                                                      quantile(lh, 0.5), sum(x <= 20 for x in lh)))
    runs, stalled = insert_stalls(evs, windows(evs))
    print('  window insert runs (32 own pages or more) with a gap over 10 us: %d of %d (%.1f%%)'
          % (stalled, runs, 100.0 * stalled / runs if runs else 0.0))
    data = data_ino(path)
    w, wo = completion_gaps(path, data)
    print('  insert gaps with a completion in the inserting task\'s context: %d%s; without: %d, over 10 us %d'
          % (len(w), ', p25 / p50 / p90 %.0f / %.0f / %.0f us' % (quantile(w, 0.25), quantile(w, 0.5), quantile(w, 0.9))
             if w else '', len(wo), sum(g > 10 for g in wo)))
    if listing:
        for r in rs:
            print('    %.6f ' % r['t'] + describe(r))


def run(args):
    for path in args.traces:
        report(path, args.list)
    return 0
