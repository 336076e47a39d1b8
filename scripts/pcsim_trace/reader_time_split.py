"""reader-time-split - where a fio reader's time goes, from a kernel capture.

MECHANISM: a capture's ftrace text (.gz or plain) or the file `pcsim run ...
--ftrace FILE` writes, which has the same scheduler events.

For a capture made with scheduler events (scripts/capture-kernel-trace
--extra-events sched/sched_switch,sched/sched_wakeup,sched/sched_waking), the
reader tasks are those that log page inserts (mm_filemap_add_to_page_cache).
Over the span of each one's inserts it prints the time on CPU, asleep in D
(from a switch-out with prev_state D to its next switch-in), asleep in S and
preempted (any other state), the D sleeps' median, p90 and max, which task
woke them (sched_waking while asleep), the inserts between sleeps, and the
wake-up latency of its D sleeps: from the sched_waking that ends one to the
reader's switch-in (median, p90, p99).  With two readers or more, the bursts
in which one task wakes several readers (sched_waking of readers less than
20 us apart): how many readers each burst woke, how many of them share one
sched_waking target_cpu (their prev_cpu: the CPU each slept on), and the
share whose target_cpu is the waker's own CPU.  And over every reader wake-up by a kworker: the share
whose target_cpu is the waker's own CPU (sched_waking fires before the kernel picks a CPU, so its
target_cpu is the reader's prev_cpu), then where the woken reader ran:
whether the CPU it slept on (prev_cpu) is the waker's and, when it is not,
the share that ran on the waker's CPU (what cpu.wake_affine draws) and on
prev_cpu, and what the
woken reader waited behind on its CPU until its switch-in: another fio
thread, a kworker or other task, nothing (the CPU was idle), or it ran on
another CPU (migrated); the wait's median and p90 for each.  A capture without page inserts (the
tests/data/kernel-6.18-sched runs): the readers are the fio tasks with 100 or
more D sleeps and at least a third of the most, and the per-page figures are
per D sleep.
Used for docs/validation.md, "The one-thread 4 MiB reader".
"""
import collections
import re
import sys

from .ftrace import events, fields
from .quantile import quantile

NAME = 'reader-time-split'
HELP = "a reader's time: on CPU, D, S, preempted; its wake-ups"
PATHS = ('trace',)


def add_arguments(p):
    p.add_argument('trace', metavar='TRACE')


def run(args):
    return report(args.trace)


def report(path):
    """Prints PATH's figures; 2 when it has no readers."""
    evs = []
    inserts = collections.Counter()
    span = {}
    for e in events(path, {'mm_filemap_add_to_page_cache', 'sched_switch', 'sched_waking'}):
        if e.name == 'mm_filemap_add_to_page_cache':
            inserts[e.pid] += 1
            span[e.pid] = (span.get(e.pid, (e.time, e.time))[0], e.time)
        else:
            evs.append((e.time, e.name, e.task, e.rest, e.pid, e.cpu))
    readers = sorted(p for p, n in inserts.items() if n >= 1000)
    by_inserts = bool(readers)
    if not readers:  # a capture without its page inserts: the fio tasks that sleep in D, over their span
        dsleeps = collections.Counter()
        for ts, name, comm, rest, _pid, _cpu in evs:
            if name == 'sched_switch' and ' prev_comm=fio ' in f' {rest} ' and 'prev_state=D' in rest:
                pid = int(fields(rest)['prev_pid'])
                dsleeps[pid] += 1
                span[pid] = (span.get(pid, (ts, ts))[0], ts)
        most = max(dsleeps.values(), default=0)
        readers = sorted(p for p, n in dsleeps.items() if n >= max(100, most // 3))
        inserts = dsleeps  # the per-page figures below are then per D sleep
        if readers:
            print('(no page inserts in this capture: readers are the fio tasks with 100 or more D sleeps'
                  ' and at least a third of the most;'
                  ' per-page figures are per D sleep)')
    if not readers:
        sys.stderr.write(f'pcsim-trace reader-time-split: {path}: no task logs 1000 page inserts or more'
                         ' and no fio task sleeps in D 100 times or more\n')
        return 2
    for rp in readers:
        t0, t1 = span[rp]
        off_at, off_state = None, None
        off = collections.Counter()
        sleeps, wakers = [], collections.Counter()
        woken_at, latencies = None, []
        for ts, name, comm, rest, _pid, _cpu in evs:
            if ts < t0 or ts > t1:
                continue
            d = fields(rest)
            if name == 'sched_waking':
                if off_at is not None and int(d.get('pid', -1)) == rp:
                    wakers[re.sub(r'[/-].*', '', comm)] += 1
                    woken_at = ts
                continue
            if int(d['prev_pid']) == rp:
                off_at, off_state = ts, d['prev_state']
            if int(d['next_pid']) == rp and off_at is not None:
                kind = 'D' if off_state.startswith('D') else 'S' if off_state.startswith('S') else 'R'
                off[kind] += ts - off_at
                if kind == 'D':
                    sleeps.append(ts - off_at)
                    if woken_at is not None:
                        latencies.append(ts - woken_at)
                off_at, woken_at = None, None
        n = inserts[rp]
        total = t1 - t0
        on = total - sum(off.values())
        unit = 'page inserts' if by_inserts else 'D sleeps'
        print(f'reader pid {rp}: {n} {unit} over {total * 1e3:.1f} ms')
        print(f'  on CPU      {on * 1e3:8.1f} ms ({on / total * 100:.0f}%), {on / n * 1e6:.2f} us a '
              + ('page' if by_inserts else 'D sleep'))
        print(f'  asleep in D {off["D"] * 1e3:8.1f} ms in {len(sleeps)} sleeps', end='')
        if sleeps:
            sleeps.sort()
            print(f': median {quantile(sleeps, 0.5) * 1e3:.2f} ms, p90 {quantile(sleeps, 0.9) * 1e3:.2f} ms,'
                  f' max {sleeps[-1] * 1e3:.2f} ms' + (f', {n / len(sleeps):.0f} inserts a sleep' if by_inserts else ''),
                  end='')
        print()
        print(f'  asleep in S {off["S"] * 1e3:8.1f} ms;  preempted {off["R"] * 1e3:.1f} ms')
        print('  woken by', ', '.join(f'{c} {k}' for c, k in wakers.most_common(4)) or 'nothing seen')
        if latencies:
            def q(f):
                return quantile(latencies, f) * 1e6
            print(f'  woken -> on CPU ({len(latencies)} D sleeps): median {q(0.5):.1f} us, p90 {q(0.9):.1f} us,'
                  f' p99 {q(0.99):.1f} us')
    if len(readers) >= 2:
        wake_bursts(evs, set(readers))
    wake_targets(evs, set(readers))
    return 0


def wake_targets(evs, readers):
    """Where the kworkers' wake-ups of readers go, and what each woken reader waits behind."""
    pending, woken, affine = {}, 0, 0
    slept_on = {}  # reader -> the CPU of its last switch-out (the kernel's prev_cpu at its wake-up)
    placed = {}    # woken reader -> (its prev_cpu, the waker's CPU) until it switches in
    split = collections.Counter()
    behind = collections.defaultdict(list)
    for ts, name, comm, rest, pid, cpu in evs:
        d = fields(rest)
        if name == 'sched_waking':
            target = int(d.get('pid', -1))
            if target in readers and comm.startswith('kworker'):
                woken += 1
                target_cpu = int(d['target_cpu'])
                affine += target_cpu == cpu
                placed[target] = (slept_on.get(target), cpu)
                pending[target] = (ts, target_cpu, [])
            continue
        if name == 'sched_switch' and int(d['prev_pid']) in readers:
            slept_on[int(d['prev_pid'])] = cpu
        for woken_pid, (_, target_cpu, ran) in pending.items():
            if target_cpu == cpu and int(d['prev_pid']) != woken_pid:  # not the woken reader's own switch-out
                ran.append(d['prev_comm'] if int(d['prev_pid']) in readers or d['prev_comm'] != 'fio' else 'fio-main')
        nxt = int(d['next_pid'])
        if nxt in placed:  # where the woken reader ran: its prev_cpu, the waker's CPU, or another
            prev, waker_cpu = placed.pop(nxt)
            if prev is not None:
                split['known'] += 1
                if prev == waker_cpu:
                    split['prev is waker'] += 1
                else:
                    split['to waker'] += cpu == waker_cpu
                    split['to prev'] += cpu == prev
        if nxt in pending:
            t0, target_cpu, ran = pending.pop(nxt)
            if cpu != target_cpu:
                kind = 'migrated'
            elif 'fio' in ran:
                kind = 'behind another fio thread'
            elif all(r.startswith('swapper') for r in ran) and len(ran) <= 1:
                kind = 'the CPU was idle'
            else:
                kind = 'behind a kworker or other task'
            behind[kind].append(ts - t0)
    if not woken:
        return
    print(f'woken by kworkers: {woken}; {100.0 * affine / woken:.0f}% with sched_waking\'s target_cpu the waker\'s own CPU'
          ' (try_to_wake_up() fires sched_waking before it picks a CPU: target_cpu is the reader\'s prev_cpu)')
    if split['known']:
        other = split['known'] - split['prev is waker']
        print(f'  ran on: prev_cpu (the CPU it slept on) is the waker\'s in {100.0 * split["prev is waker"] / split["known"]:.0f}%;'
              f' when it is not ({other}): ran on the waker\'s CPU {100.0 * split["to waker"] / max(other, 1):.1f}%'
              f' (cpu.wake_affine), on prev_cpu {100.0 * split["to prev"] / max(other, 1):.1f}%')
    total = sum(len(v) for v in behind.values())
    for kind, waits in sorted(behind.items(), key=lambda kv: -len(kv[1])):
        print(f'  {kind}: {100.0 * len(waits) / total:.0f}%, median {quantile(waits, 0.5) * 1e6:.0f} us,'
              f' p90 {quantile(waits, 0.9) * 1e6:.0f} us')


def wake_bursts(evs, readers):
    """Bursts of sched_waking of readers by one task, each less than 20 us after the one before."""
    bursts, cur = [], None
    for ts, name, _comm, rest, pid, cpu in evs:
        if name != 'sched_waking':
            continue
        d = fields(rest)
        if int(d.get('pid', -1)) not in readers:
            continue
        if cur and ts - cur['t'] < 20e-6 and cur['waker'] == pid:
            cur['targets'].append(int(d['target_cpu']))
            cur['t'] = ts
        else:
            if cur:
                bursts.append(cur)
            cur = {'t': ts, 'waker': pid, 'cpu': cpu, 'targets': [int(d['target_cpu'])]}
    if cur:
        bursts.append(cur)
    sizes = collections.Counter()
    on_waker = woken = 0
    for b in bursts:
        n = len(b['targets'])
        if n < 2:
            continue
        sizes[(n, max(collections.Counter(b['targets']).values()))] += 1
        on_waker += sum(1 for t in b['targets'] if t == b['cpu'])
        woken += n
    if not woken:
        return
    print(f'wake-up bursts of 2 or more readers: {sum(sizes.values())}; '
          f'{100.0 * on_waker / woken:.0f}% of their readers with sched_waking\'s target_cpu (their prev_cpu) the waker\'s')
    for n in sorted({n for n, _ in sizes}):
        row = ', '.join(f'{k} on one CPU: {sizes[(n, k)]}' for k in range(1, n + 1) if sizes[(n, k)])
        print(f'  {n} readers woken: {row}')
