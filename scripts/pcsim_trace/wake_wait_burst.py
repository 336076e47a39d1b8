"""wake-wait-burst - when woken readers run, and what they wait behind, from a capture or pcsim's --ftrace.

FTRACE: a capture's ftrace text (.gz or plain) with scheduler events
(scripts/capture-kernel-trace --extra-events sched/sched_switch,sched/sched_waking,...),
or the file `pcsim run ... --ftrace FILE` writes.  Readers: the tasks that log 1000 page
inserts or more; without page inserts (the tests/data/kernel-6.18-wakes captures), the fio
tasks with 100 or more D sleeps and at least a third of the most.  A wake-up: a kworker's
sched_waking of a reader asleep in D; the CPU it "ran on" is its next switch-in's.  For
each FTRACE it prints:

  bursts      every reader burst on a CPU (switch-in -> switch-out): how many end in D
              (asleep on a locked folio), R (preempted), ...; their length (p25 / median /
              p75 us) and, with page inserts, the inserts in them;
  by where    waking -> on CPU (p10 / p25 / median / p75 / p90 us) by where the reader ran:
              on the waker's own CPU (a local wake-up: no IPI), on its prev_cpu that was
              idle at the waking (the IPI and the idle vCPU's wake-up), on its prev_cpu
              while a reader ran there, or another task, or migrated;
  behind      the wake-ups whose CPU ran another reader at the waking: the wait, that
              reader's burst from its own switch-in and the part left after the waking, how
              it ended (D or R), and, with page inserts, what it did from the waking to its
              switch-out (inserts, page_cache_sync_ra / _async_ra calls, bios queued; the
              longest stretch without any of them is its copying and lookups);
  preempted   switches with prev_state R whose prev is a reader, by the next task; for a
              reader next, how long after that reader's sched_waking (wake-up preemption);
  groups      wake-ups by one kworker each less than 20 us after the one before (a bio's
              end-io waking the readers asleep on it): of the pairs that ran on one CPU,
              the share in which the later-woken ran first; the switch-in gap of pairs on
              one CPU and on two; and, for groups that ran on both CPUs, the gap between
              the first reader in on each (the share under 20 us: two readers leaving a
              wake-up together, which then reach the next hole together; and under 1, 2,
              5 and 10 us: the pairs that run in step to the next marker, "Windows
              launched twice" in docs/validation.md).
Used for docs/validation.md, "Local and remote wake-ups".
"""
import bisect
import collections
import re

from .ftrace import events, fields
from .quantile import quantiles

NAME = 'wake-wait-burst'
HELP = 'when woken readers run and what they wait behind'
PATHS = ('traces',)
ACTS = ('mm_filemap_add_to_page_cache', 'page_cache_sync_ra', 'page_cache_async_ra', 'block_bio_queue')
SHORT = dict(zip(ACTS, ('inserts', 'sync_ra', 'async_ra', 'bios')))


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='FTRACE')


def qs(xs, fs=(0.25, 0.5, 0.75)):
    return ' / '.join(f'{q * 1e6:.0f}' for q in quantiles(xs, *fs))


def load(path):
    sched, acts = [], collections.defaultdict(lambda: collections.defaultdict(list))
    for e in events(path, set(ACTS) | {'sched_switch', 'sched_waking'}):
        if e.name in ACTS:
            acts[e.pid][e.name].append(e.time)
        else:
            sched.append((e.time, e.name, e.task, fields(e.rest), e.pid, e.cpu))
    return sched, acts


def pick_readers(sched, acts):
    readers = {p for p, a in acts.items() if len(a['mm_filemap_add_to_page_cache']) >= 1000}
    if readers:
        return readers
    dsleeps = collections.Counter()
    for _ts, name, _comm, d, _pid, _cpu in sched:
        if name == 'sched_switch' and d.get('prev_comm') == 'fio' and d['prev_state'].startswith('D'):
            dsleeps[int(d['prev_pid'])] += 1
    most = max(dsleeps.values(), default=0)
    return {p for p, n in dsleeps.items() if n >= max(100, most // 3)}


def count(acts, pid, t0, t1):
    return {SHORT[n]: bisect.bisect_right(acts[pid][n], t1) - bisect.bisect_left(acts[pid][n], t0) for n in ACTS}


def where_class(cpu, prev_cpu, waker_cpu, occupant, readers):
    if cpu != prev_cpu:
        return 'migrated'
    if prev_cpu == waker_cpu:
        return "on the waker's CPU"
    if occupant[0] == 0:
        return 'on prev_cpu, idle at the waking'
    if occupant[0] in readers:
        return 'on prev_cpu, a reader running'
    return 'on prev_cpu, ' + re.sub(r'[/:].*', '', occupant[1]) + ' running'


def analyse(path):
    sched, acts = load(path)
    readers = pick_readers(sched, acts)
    if not readers:
        print(f'{path}: no readers found')
        return
    has_acts = any(acts[p]['mm_filemap_add_to_page_cache'] for p in readers)
    cur = {}            # cpu -> (pid, comm, switch-in time)
    asleep = {}         # reader -> in D
    last_wake = {}      # reader -> its last sched_waking
    pending = {}        # woken reader -> (waking time, waker cpu, prev_cpu, the prev_cpu's occupant, group)
    bursts = []         # (pid, t_in, t_out, state)
    where = collections.defaultdict(list)
    behind = []
    preempt = collections.Counter()
    preempt_after_wake = []
    groups, group = [], None
    for ts, name, comm, d, pid, cpu in sched:
        if name == 'sched_waking':
            target = int(d.get('pid', -1))
            if target not in readers:
                continue
            last_wake[target] = ts
            if comm.startswith('kworker') and asleep.get(target):
                prev_cpu = int(d['target_cpu'])  # sched_waking fires before select_task_rq(): the reader's prev_cpu
                if not (group and ts - group['t'] < 20e-6 and group['waker'] == pid):
                    group = {'waker': pid, 'runs': [], 'n': 0}
                    groups.append(group)
                group['t'] = ts
                group['n'] += 1  # the waking order (equal timestamps in pcsim's trace)
                pending[target] = (ts, cpu, prev_cpu, cur.get(prev_cpu, (0, 'swapper', ts)), group, group['n'])
            continue
        prev, nxt, state = int(d['prev_pid']), int(d['next_pid']), d['prev_state']
        if prev in readers:
            occ = cur.get(cpu)
            if occ and occ[0] == prev:
                bursts.append((prev, occ[2], ts, state[0]))
            asleep[prev] = state.startswith('D')
            if state.startswith('R'):
                kind = 'a reader' if nxt in readers else 'a kworker' if d['next_comm'].startswith('kworker') \
                    else 'idle' if nxt == 0 else 'another task'
                preempt[kind] += 1
                if nxt in readers and nxt in last_wake:
                    preempt_after_wake.append(ts - last_wake[nxt])
        cur[cpu] = (nxt, d['next_comm'], ts)
        if nxt in readers:
            asleep[nxt] = False
        if nxt in pending:
            t_wake, waker_cpu, prev_cpu, occupant, grp, order = pending.pop(nxt)
            where[where_class(cpu, prev_cpu, waker_cpu, occupant, readers)].append(ts - t_wake)
            grp['runs'].append((order, ts, cpu))
            if cpu == prev_cpu and occupant[0] in readers and occupant[0] != nxt:
                behind.append({'wait': ts - t_wake, 't_wake': t_wake, 'pid': occupant[0], 'run_in': occupant[2],
                               't_in': ts})
    outs = collections.defaultdict(dict)
    for pid, t_in, t_out, st in bursts:
        outs[pid][t_in] = (t_out, st)
    behind = [dict(b, t_out=outs[b['pid']][b['run_in']][0], state=outs[b['pid']][b['run_in']][1])
              for b in behind if b['run_in'] in outs[b['pid']]]

    print(f'== {path}')
    print(f'readers: {len(readers)}; bursts (switch-in -> switch-out): {len(bursts)}, length p25 / median / p75 / p90 '
          f'{qs([t1 - t0 for _p, t0, t1, _s in bursts], (0.25, 0.5, 0.75, 0.9))} us')
    by_state = collections.defaultdict(list)
    for pid, t0, t1, st in bursts:
        by_state[st].append((pid, t0, t1))
    for st, lst in sorted(by_state.items(), key=lambda kv: -len(kv[1])):
        line = f'  ending in {st}: {100.0 * len(lst) / len(bursts):.0f}%, length {qs([t1 - t0 for _p, t0, t1 in lst])} us'
        if has_acts:
            ins = [count(acts, p, t0, t1)['inserts'] for p, t0, t1 in lst]
            line += f', inserts a burst {sum(ins) / len(ins):.1f} (mean)'
        print(line)

    total = sum(len(v) for v in where.values())
    print(f'woken -> on CPU by where it ran ({total} wake-ups by kworkers), p10 / p25 / median / p75 / p90 us:')
    for kind, waits in sorted(where.items(), key=lambda kv: -len(kv[1])):
        if len(waits) * 100 >= total:
            print(f'  {kind}: {100.0 * len(waits) / total:.0f}%, {qs(waits, (0.1, 0.25, 0.5, 0.75, 0.9))}')

    print(f'behind a reader running on its CPU at the waking: {len(behind)} wake-ups')
    if behind:
        print(f'  wait {qs([b["wait"] for b in behind])} us; that reader\'s burst from its switch-in '
              f'{qs([b["t_out"] - b["run_in"] for b in behind])} us, left after the waking '
              f'{qs([b["t_out"] - b["t_wake"] for b in behind])} us')
        ends = collections.Counter(b['state'] for b in behind)
        direct = sum(1 for b in behind if abs(b['t_in'] - b['t_out']) < 1e-9)
        print('  it ended in ' + ', '.join(f'{s} {100.0 * n / len(behind):.0f}%' for s, n in ends.most_common())
              + f'; the woken reader was next in {100.0 * direct / len(behind):.0f}%')
        if has_acts:
            tot, any_of, quiet = collections.Counter(), collections.Counter(), []
            for b in behind:
                c = count(acts, b['pid'], b['t_wake'], b['t_out'])
                tot.update(c)
                any_of.update(k for k, v in c.items() if v)
                ts = sorted(t for n in ACTS for t in acts[b['pid']][n] if b['t_wake'] <= t <= b['t_out'])
                pts = [b['t_wake']] + ts + [b['t_out']]
                quiet.append(max(pts[i + 1] - pts[i] for i in range(len(pts) - 1)))
            n = len(behind)
            print('  from the waking to its switch-out (mean; share of waits with any): '
                  + ', '.join(f'{k} {tot[k] / n:.1f} ({100.0 * any_of[k] / n:.0f}%)' for k in SHORT.values()))
            print(f'  its longest stretch without those (copying, lookups): {qs(quiet)} us')

    if preempt:
        line = 'reader preempted (prev_state R) for: ' + ', '.join(f'{k} {n}' for k, n in preempt.most_common())
        if preempt_after_wake:
            soon = sum(1 for x in preempt_after_wake if x < 50e-6)
            line += (f'; reader -> reader: {soon} of {len(preempt_after_wake)} within 50 us of the next one\'s'
                     f' waking (median {qs(preempt_after_wake, (0.5,))} us)')
        print(line)
    else:
        print('reader preempted (prev_state R): never')

    pairs = inverted = 0
    same, two, first_gap = [], [], []
    for g in groups:
        runs = g['runs']
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                (_oa, ia, ca), (_ob, ib, cb) = sorted((runs[i], runs[j]))  # by waking order
                if ca == cb:
                    pairs += 1
                    inverted += ib < ia
                    same.append(abs(ib - ia))
                else:
                    two.append(abs(ib - ia))
        first = {}
        for _w, t_in, c in runs:
            first[c] = min(first.get(c, t_in), t_in)
        if len(first) == 2:
            a, b = sorted(first.values())
            first_gap.append(b - a)
    if pairs or two:
        print(f'groups of wake-ups: {sum(1 for g in groups if len(g["runs"]) >= 2)} of 2 readers or more;'
              f' of {pairs} pairs on one CPU the later-woken ran first in {100.0 * inverted / max(pairs, 1):.0f}%')
        print(f'  switch-in gap: pairs on one CPU {qs(same)} us, on two CPUs {qs(two)} us')
    if first_gap:
        under = sum(1 for x in first_gap if x < 20e-6)
        print(f'  first reader in on each CPU ({len(first_gap)} groups on both): gap {qs(first_gap)} us,'
              f' under 20 us in {100.0 * under / len(first_gap):.0f}%')
        print('  that gap under ' + ', '.join(
            f'{u} us {100.0 * sum(1 for x in first_gap if x < u * 1e-6) / len(first_gap):.1f}%' for u in (1, 2, 5, 10)))


def run(args):
    for path in args.traces:
        analyse(path)
    return 0
