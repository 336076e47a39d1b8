"""loop-worker - the loop device's worker: how long its runs take and how long it waits for a CPU.

For a trace with block and scheduler events (a kernel capture of
scripts/capture-kernel-trace with --extra-events sched/sched_switch,sched/sched_waking, or
pcsim's --ftrace; .gz or plain): a fio thread issues its data requests to the loop device
(block_rq_issue), then wakes an unbound kworker (sched_waking of kworker/uN:N by fio):
loop_queue_rq() queued the loop work, and that kworker sends each request to the host
file (lo_rw_aio()).  pcsim's loop worker (cost.loop_worker) is woken by no fio thread in
its --ftrace, so with pcsim's trace name its kworker: --comm NAME (or a last argument
COMM=NAME, e.g. COMM=kworker/u8:3) counts every waking of that task instead.
Per trace:
  runs by requests: the kworker's runs after such a waking (switch-in to switch-out),
      by the data requests the waker issued since its previous waking of a kworker:
      count and p25 / p50 / p75 of the run (us);
  waking -> on CPU: from the waking to the kworker's switch-in, on the waker's CPU and
      on the other one: count, p50 / p90 (us), and the share over 500 us.
Used for docs/validation.md, "The loop worker and EEVDF's wake-up preemption", and the
costs cost.loop_worker and cost.loop_request of docs/notebook/device-candidates/loop-eevdf.ini.
"""
import collections

from .ftrace import block, events, fields
from .quantile import quantiles

NAME = 'loop-worker'
HELP = "the loop worker's runs and CPU waits (cost.loop_worker)"
PATHS = ('traces',)


def add_arguments(p):
    p.add_argument('--comm', metavar='NAME', help="the worker's task name (pcsim's trace: its kworker)")
    p.add_argument('traces', nargs='+', metavar='TRACE')


def prepare(args):
    """A last argument COMM=NAME is --comm NAME."""
    if len(args.traces) > 1 and args.traces[-1].startswith('COMM='):
        args.comm = args.traces.pop()[5:]


def analyse(path, comm):
    issued = collections.Counter()  # per fio pid: data requests since its last kworker waking
    woken = {}  # kworker pid -> (time, requests, waker's cpu)
    running = {}  # cpu -> (kworker pid, start, requests)
    runs = collections.defaultdict(list)
    waits = collections.defaultdict(list)
    for e in events(path, {'block_rq_issue', 'sched_waking', 'sched_switch'}):
        cpu, t = e.cpu, e.time
        if e.name == 'block_rq_issue':
            if e.task == 'fio':
                rq = block(e.rest)
                if rq and rq.rwbs.startswith('R') and 'M' not in rq.rwbs:
                    issued[e.pid] += 1
        elif e.name == 'sched_waking':
            fl = fields(e.rest)
            wanted = fl.get('comm') == comm if comm else e.task == 'fio' and fl.get('comm', '').startswith('kworker/u')
            if wanted and fl['pid'] not in woken:
                woken[fl['pid']] = (t, issued[e.pid], cpu)
                issued[e.pid] = 0
        else:
            fl = fields(e.rest)
            if cpu in running and running[cpu][0] == fl.get('prev_pid'):
                _, start, n = running.pop(cpu)
                runs[min(n, 8)].append((t - start) * 1e6)
            nxt = fl.get('next_pid')
            if nxt in woken:
                tw, n, wcpu = woken.pop(nxt)
                running[cpu] = (nxt, t, n)
                waits['the waker\'s CPU' if wcpu == cpu else 'the other CPU'].append((t - tw) * 1e6)
    print('%s:' % path)
    print('runs by requests issued since the previous waking (8: 8 or more)    n      p25      p50      p75 (us)')
    for n in sorted(runs):
        p25, p50, p75 = quantiles(runs[n], 0.25, 0.5, 0.75)
        print('  %d requests %58d %8.0f %8.0f %8.0f' % (n, len(runs[n]), p25, p50, p75))
    print('waking -> on CPU                                                    n      p50      p90 (us)  over 500 us')
    for where in ("the waker's CPU", 'the other CPU'):
        v = waits.get(where, [])
        p50, p90 = quantiles(v, 0.5, 0.9)
        over = 100.0 * sum(x > 500 for x in v) / len(v) if v else float('nan')
        print('  on %-58s %6d %8.0f %8.0f %11.0f%%' % (where, len(v), p50, p90, over))


def run(args):
    for path in args.traces:
        analyse(path, args.comm)
    return 0
