"""window-chain - where a readahead window's time goes, from its launch to the next one.

For a trace with readahead, page-insert and block events (a kernel capture of
scripts/capture-kernel-trace, or pcsim's --ftrace; .gz or plain), each
page_cache_async_ra is a window's launch by the reader that met its marker.
Per launch (p25 / p50 / p75 and mean, ms):
  launch -> issue: to the first data request issued after it (the window's
      inserts, its bio submission and any checksum leaf read before it);
  issue -> last complete: the requests issued within 1 ms of that first one
      (the window's batch), to the last of them completing (the device);
  issue -> next launch: to the next page_cache_async_ra (the reader through
      the previous window, and any wait for it);
  last complete -> launch after next: from the batch's completion to the
      launch two on (end-io, wake-up, the read-through of the window).
And how many batches were issued before the previous one completed: the
device working on two windows at once, where the reader's inserts and copies
overlap the device, against a chain in which they take turns.
With scheduler events (sched_switch, sched_waking), the launching reader's
time in each of the first and third spans is split into on CPU, asleep (D,
to its sched_waking) and runnable.  Then every D sleep of a reader longer
than 0.5 ms is split at the last data request completion before the waking:
  sleep -> last completion: waiting for the device;
  last completion -> waking: btrfs's end-io work (checksums verified, folios
      unlocked) and the wake-up.
Device busy: the time any data request was in flight, as a share of the span
from the first issue to the last completion.
Used for docs/validation.md, "What the one-thread 4 MiB reader waits for".
"""
import bisect
import collections

from .ftrace import block, events, fields
from .quantile import quantiles

NAME = 'window-chain'
HELP = "a readahead window's time, launch to launch"
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def is_data(rwbs):
    return rwbs.startswith('R') and 'M' not in rwbs


def quartiles(v):
    return quantiles(v, 0.25, 0.5, 0.75) + (sum(v) / len(v),)


def read(path):
    """The trace's events that matter here, in order: (ms, name, pid, rest)."""
    return [(e.time * 1e3, e.name, e.pid, e.rest) for e in events(path) if e.name != 'mm_filemap_add_to_page_cache']


def requests(ev):
    """Data requests as (issue, complete) ms, sorted by issue."""
    issued, out = {}, []
    for t, name, _, rest in ev:
        if name not in ('block_rq_issue', 'block_rq_complete'):
            continue
        b = block(rest)
        if not b or not is_data(b.rwbs):
            continue
        if name == 'block_rq_issue':
            issued[b.sector] = t
        elif b.sector in issued:
            out.append((issued.pop(b.sector), t))
    return sorted(out)


def device_busy(reqs):
    busy, end = 0.0, float('-inf')
    for s, c in reqs:
        if c > end:
            busy += c - max(s, end)
            end = c
    return busy, end - reqs[0][0]  # to the last completion, not the last-issued one's


def task_states(ev, readers):
    """Per reader: [(start, end, 'cpu' | 'sleep' | 'runnable')] from its sched events."""
    segs = collections.defaultdict(list)
    cur = {}  # pid -> (state, since)
    for t, name, pid, rest in ev:
        if name == 'sched_switch':
            kv = fields(rest)
            prev, nxt = int(kv['prev_pid']), int(kv['next_pid'])
            if prev in readers:
                if prev in cur:
                    segs[prev].append((cur[prev][1], t, cur[prev][0]))
                cur[prev] = ('sleep' if kv['prev_state'].startswith(('D', 'S')) else 'runnable', t)
            if nxt in readers:
                if nxt in cur:
                    segs[nxt].append((cur[nxt][1], t, cur[nxt][0]))
                cur[nxt] = ('cpu', t)
        elif name == 'sched_waking':
            target = int(fields(rest)['pid'])
            if target in readers and target in cur and cur[target][0] == 'sleep':
                segs[target].append((cur[target][1], t, 'sleep'))
                cur[target] = ('runnable', t)
    return segs


def split(segs, a, b):
    d = collections.Counter()
    for s, e, k in segs:
        lo, hi = max(s, a), min(e, b)
        if hi > lo:
            d[k] += hi - lo
    return d


def long_sleeps(ev, readers, completions):
    """D sleeps over 0.5 ms: (length, device part, end-io part) ms."""
    out, asleep = [], {}
    for t, name, pid, rest in ev:
        if name == 'sched_switch':
            kv = fields(rest)
            prev = int(kv['prev_pid'])
            if prev in readers and kv['prev_state'].startswith('D'):
                asleep[prev] = t
        elif name == 'sched_waking':
            target = int(fields(rest)['pid'])
            start = asleep.pop(target, None)
            if start is None or t - start <= 0.5:
                continue
            k = bisect.bisect_right(completions, t) - 1
            if k < 0 or completions[k] < start:
                out.append((t - start, 0.0, t - start))
            else:
                out.append((t - start, completions[k] - start, t - completions[k]))
    return out


def row(name, v):
    p25, p50, p75, mean = quartiles(v)
    print('  %-40s %7.2f / %7.2f / %7.2f   mean %7.2f' % (name, p25, p50, p75, mean))


def analyse(path):
    ev = read(path)
    launches = [(t, pid) for t, name, pid, _ in ev if name == 'page_cache_async_ra']
    readers = {pid for t, name, pid, _ in ev if name in ('page_cache_async_ra', 'page_cache_sync_ra')}
    reqs = requests(ev)
    if len(launches) < 3 or not reqs:
        print('%s: fewer than 3 page_cache_async_ra or no data requests: nothing to measure' % path)
        return
    sched = any(name == 'sched_switch' for _, name, _, _ in ev)
    busy, span = device_busy(reqs)
    print('%s: %d readers, %d launches, %d data requests' % (path, len(readers), len(launches), len(reqs)))
    print('device busy %.0f of %.0f ms (%.0f%%)' % (busy, span, 100 * busy / span if span > 0 else 0))
    issues = [s for s, _ in reqs]
    segs = task_states(ev, readers) if sched else {}
    spans = collections.defaultdict(list)
    batches = []  # (first issue, last completion) of each launch's batch
    for i in range(len(launches) - 2):
        (a, pid), nxt, after = launches[i], launches[i + 1][0], launches[i + 2][0]
        k = bisect.bisect_left(issues, a)
        if k >= len(issues) or issues[k] > nxt:
            continue  # nothing issued before the next launch (a window already cached)
        first = issues[k]
        done = max(c for s, c in reqs[k:bisect.bisect_left(issues, first + 1.0)])
        spans['launch -> issue'].append(first - a)
        spans['issue -> last complete'].append(done - first)
        spans['issue -> next launch'].append(nxt - first)
        spans['last complete -> launch after next'].append(after - done)
        batches.append((first, done))
        if sched:
            for label, lo, hi in (('launch -> issue', a, first), ('issue -> next launch', first, nxt)):
                d = split(segs[pid], lo, hi)
                for state in ('cpu', 'sleep', 'runnable'):
                    spans['%s: %s' % (label, state)].append(d[state])
    print('per launch (%d with a batch)                p25 /     p50 /     p75 (ms)' % len(spans['launch -> issue']))
    for name in ('launch -> issue', 'launch -> issue: cpu', 'launch -> issue: sleep', 'launch -> issue: runnable',
                 'issue -> last complete', 'issue -> next launch', 'issue -> next launch: cpu',
                 'issue -> next launch: sleep', 'issue -> next launch: runnable',
                 'last complete -> launch after next'):
        if spans.get(name):
            row(name.replace(': ', ', launcher '), spans[name])
    early = sum(1 for (_, done), (first, _) in zip(batches, batches[1:]) if first < done)
    print('batches issued before the previous batch completed: %d of %d' % (early, max(len(batches) - 1, 0)))
    if not sched:
        print('no scheduler events: no on-CPU split, no sleeps')
        return
    sl = long_sleeps(ev, readers, sorted(c for _, c in reqs))
    if not sl:
        print('no D sleep over 0.5 ms')
        return
    total = sum(s for s, _, _ in sl)
    print('D sleeps over 0.5 ms: %d, %.0f ms in all: waiting for the device %.0f ms (%.0f%%), end-io and wake-up %.0f ms'
          % (len(sl), total, sum(d for _, d, _ in sl), 100 * sum(d for _, d, _ in sl) / total,
             sum(e for _, _, e in sl)))
    row('sleep', [s for s, _, _ in sl])
    row('sleep -> last data completion', [d for _, d, _ in sl])
    row('last data completion -> waking', [e for _, _, e in sl])


def run(args):
    for path in args.traces:
        analyse(path)
    return 0
