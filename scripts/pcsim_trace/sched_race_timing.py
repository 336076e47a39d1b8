"""sched-race-timing - what a reader waits for between a request's completion and its next readahead.

TRACE: a kernel ftrace capture that holds scheduler events
(scripts/capture-kernel-trace --extra-events sched/sched_switch,sched/sched_wakeup,
sched/sched_waking,workqueue/workqueue_execute_start,workqueue/workqueue_execute_end),
e.g. tests/data/kernel-6.18-sched/ra128-j4-rep1.ftrace.txt.gz.

For every btrfs end-io work item (workqueue function simple_end_io_work, the kworker that
verifies the checksums and unlocks the folios of a read bio, woken from the block softirq)
that wakes readers: request completion -> work start -> first reader woken; then for each
woken reader: woken -> on a CPU (which CPU, the waker's or not, and what ran there before
it), on a CPU -> its next page_cache_async_ra / page_cache_sync_ra.  Readers woken by one
work item race for the next window: the gap between the first and the second one's
readahead, and what fills the second one's wait.

Readers are the tasks that issue page_cache_*_ra events.  Times in microseconds;
distributions as median [p25, p75] (n).
"""
import bisect
import collections
import re

from .ftrace import events
from .quantile import quantiles

NAME = 'sched-race-timing'
HELP = 'end-io work -> reader wake-ups -> next readahead'
PATHS = ('traces',)
KV = re.compile(r'(\w+)=(\S+)')


class Runs(collections.defaultdict):
    """cpu -> its runs [(start, end, comm)], with their ends (for bisect) kept in .ends."""

    def __init__(self, *args):
        super().__init__(*args)
        self.ends = {}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def dist(xs):
    p25, p50, p75 = quantiles(xs, .25, .5, .75)
    return f"{p50:7.1f} [{p25:6.1f}, {p75:6.1f}] (n={len(xs)})"


def kind(comm):
    if comm == 'reader':
        return 'reader'
    if comm == 'fio':
        return 'fio'
    if comm.startswith('kworker'):
        return 'kworker'
    if comm.startswith('ksoftirqd'):
        return 'ksoftirqd'
    if comm.startswith('swapper'):
        return 'idle'
    return 'other'


def read(path):
    return [(e.time * 1e6, e.name, e.pid, e.task, e.cpu, None, e.rest)
            for e in events(path) if e.name != 'mm_filemap_add_to_page_cache']


def analyse(path):
    ev = read(path)
    readers = {e[2] for e in ev if e[1] in ('page_cache_async_ra', 'page_cache_sync_ra')}
    last_complete = None
    work = {}            # kworker pid -> [start, function, complete time, wakes]
    works = []           # finished end-io works that woke readers
    pending = {}         # reader pid -> dict of its current wake episode
    episodes = []
    running = {}         # cpu -> (pid, comm, since)
    ran_on = Runs(list)   # cpu -> [(start, end, comm or 'reader')]
    for t, name, pid, comm, cpu, flags, rest in ev:
        if name == 'block_rq_complete' and ' R' in rest and 'M' not in rest.split()[1]:
            last_complete = t
        elif name == 'workqueue_execute_start':
            fn = rest.rsplit('function ', 1)[-1]
            work[pid] = [t, fn, last_complete, []]
        elif name == 'workqueue_execute_end':
            w = work.pop(pid, None)
            if w and w[3]:
                works.append({'start': w[0], 'end': t, 'fn': w[1], 'complete': w[2], 'wakes': w[3]})
        elif name == 'sched_waking':
            kv = dict(KV.findall(rest))
            target = int(kv['pid'])
            if target not in readers:
                continue
            w = work.get(pid)
            ep = {'pid': target, 'wake': t, 'waker': comm, 'waker_cpu': cpu,
                  'target_cpu': int(kv['target_cpu']),
                  'work_fn': w[1] if w else None, 'work_start': w[0] if w else None,
                  'complete': last_complete}
            pending[target] = ep
            if w:
                w[3].append(ep)
        elif name == 'sched_switch':
            kv = dict(KV.findall(rest))
            prev, nxt = int(kv['prev_pid']), int(kv['next_pid'])
            old = running.get(cpu)
            if old:
                ran_on[cpu].append((old[2], t, 'reader' if old[0] in readers else old[1]))
            running[cpu] = (nxt, kv['next_comm'], t)
            ep = pending.get(nxt)
            if ep and 'run' not in ep:
                ep['run'] = t
                ep['cpu'] = cpu
                ep['prev'] = kv['prev_comm']
                ep['prev_pid'] = prev
                ep['prev_state'] = kv['prev_state']
            if prev in readers:
                ep = pending.pop(prev, None)
                if ep and 'run' in ep:
                    ep['sleep'] = t
                    episodes.append(ep)
        elif name in ('page_cache_async_ra', 'page_cache_sync_ra'):
            ep = pending.get(pid)
            if ep and 'run' in ep and 'ra' not in ep:
                ep['ra'] = t
                ep['ra_kind'] = name
                ep['ra_index'] = int(dict(KV.findall(rest))['index'])
    return readers, works, episodes, ran_on


def busy(ran_on, cpu, a, b):
    """time each kind of non-reader task ran on cpu within [a, b] (a cpu's runs follow each other:
    their starts and ends are both sorted)"""
    out = collections.Counter()
    runs = ran_on[cpu]
    ends = ran_on.ends.get(cpu)
    if ends is None or len(ends) != len(runs):
        ends = ran_on.ends[cpu] = [e for _, e, _ in runs]
    for s, e, comm in runs[bisect.bisect_right(ends, a):]:
        if s >= b:
            break
        lo, hi = max(s, a), min(e, b)
        if hi > lo:
            out[kind(comm)] += hi - lo
    return out


def report(path):
    readers, works, episodes, ran_on = analyse(path)
    print(f"== {path}: {len(readers)} readers, {len(works)} end-io works that woke readers, "
          f"{len(episodes)} reader wake-ups")
    fns = collections.Counter(w['fn'] for w in works)
    print("  waking work functions:", dict(fns))
    endio = [w for w in works if w['fn'] == 'simple_end_io_work' and w['complete'] is not None]
    print("  rq_complete -> end-io work start    ", dist([w['start'] - w['complete'] for w in endio]))
    print("  end-io work start -> 1st reader wake", dist([w['wakes'][0]['wake'] - w['start'] for w in endio]))
    print("  end-io work start -> end             ", dist([w['end'] - w['start'] for w in endio]))
    print("  readers woken per work               ", dist([len(w['wakes']) for w in endio]))
    eps = [e for e in episodes if e['work_fn'] == 'simple_end_io_work']
    print("  reader woken -> on a CPU             ", dist([e['run'] - e['wake'] for e in eps]))
    same = [e for e in eps if e['cpu'] == e['waker_cpu']]
    print(f"    on the end-io kworker's CPU        ", dist([e['run'] - e['wake'] for e in same]))
    print(f"    on the other CPU                   ", dist([e['run'] - e['wake'] for e in eps if e['cpu'] != e['waker_cpu']]))
    ncpu = 1 + max(ran_on) if ran_on else 1
    idle_other = [sum(busy(ran_on, c, e['wake'], e['run'])['idle'] for c in range(ncpu) if c != e['cpu'])
                  for e in eps]
    waited = [x for x, e in zip(idle_other, eps) if e['run'] - e['wake'] > 20]
    print("    another CPU idle while it waited   ", dist(idle_other))
    print(f"    of waits > 20 us, another CPU idle >= 10 us of it: {sum(x >= 10 for x in waited)} of {len(waited)}")
    prevk = collections.Counter((kind('reader' if e['prev'] == 'fio' and e['prev_pid'] in readers else e['prev']),
                                 e['prev_state'][:1]) for e in eps)
    print("  ran before it on that CPU (kind, state: R preempted, D/S/I blocked):", dict(prevk.most_common()))
    withra = [e for e in eps if 'ra' in e]
    print("  reader on a CPU -> its next readahead", dist([e['ra'] - e['run'] for e in withra]))
    print("  rq_complete -> reader's next async ra", dist([e['ra'] - e['complete'] for e in withra
                                                           if e['ra_kind'] == 'page_cache_async_ra' and e['complete']]))
    # the race: readers woken by one work item, ordered by their next readahead
    gaps, fill, other = [], collections.defaultdict(list), collections.defaultdict(list)
    first_run, second_wait = [], []
    same_cpu_pairs = 0
    for w in endio:
        r = sorted((e for e in w['wakes'] if 'ra' in e), key=lambda e: e['ra'])
        if len(r) < 2:
            continue
        a, b = r[0], r[1]
        gaps.append(b['ra'] - a['ra'])
        first_run.append(a['run'] - a['wake'])
        second_wait.append(b['run'] - b['wake'])
        if a['cpu'] == b['cpu']:
            same_cpu_pairs += 1
        # what ran on the second reader's CPU between its wake-up and its getting the CPU
        c = busy(ran_on, b['cpu'], b['wake'], b['run'])
        for k in ('reader', 'kworker', 'other', 'ksoftirqd', 'fio', 'idle'):
            fill[k].append(c.get(k, 0.0))
        o = collections.Counter()
        for cc in range(1 + max(ran_on)):
            if cc != b['cpu']:
                o.update(busy(ran_on, cc, b['wake'], b['run']))
        for k in ('reader', 'kworker', 'other', 'ksoftirqd', 'fio', 'idle'):
            other[k].append(o.get(k, 0.0))
    print(f"  works whose readers raced (>= 2 with a readahead): {len(gaps)}, "
          f"first two on one CPU in {same_cpu_pairs}")
    print("    1st -> 2nd reader's readahead      ", dist(gaps))
    print("    1st reader woken -> on a CPU        ", dist(first_run))
    print("    2nd reader woken -> on a CPU        ", dist(second_wait))
    print("    2nd's wait (mean us), what ran on ITS CPU:  " +
          ", ".join(f"{k} {sum(v) / max(1, len(v)):.1f}" for k, v in fill.items()))
    print("    2nd's wait (mean us), on the OTHER CPUs:    " +
          ", ".join(f"{k} {sum(v) / max(1, len(v)):.1f}" for k, v in other.items()))
    return gaps


def run(args):
    for p in args.traces:
        report(p)
    return 0
