"""sched-compare - the scheduler as the kernel's captures and pcsim's runs show it, side by side.

For each capture's job file JOB.fio (default: the four of tests/data/kernel-6.18-wakes,
1, 2, 4 and 8 threads at 128 KiB, captured with scheduler events) it runs
`pcsim run JOB.fio --model SCENARIO --set readahead.read_ahead_kb=K --seed S
--ftrace F` (K from the job's name, raK-...), reads both the capture
(JOB.ftrace.txt.gz next to the job file) and F with reader-time-split,
and prints one markdown table: kernel and pcsim side by side for

  prev = waker   share of the kworkers' wake-ups of a reader that slept on
                 the waker's own CPU
  to waker       of the others, the share that ran on the waker's CPU
                 (what cpu.wake_affine draws)
  behind fio     share of wake-ups whose reader waited for its CPU behind
                 another fio thread, and that wait's median
  idle CPU       share that found its CPU idle
  woken -> CPU   the readers' median wait from sched_waking to switch-in
                 (median over the readers)
  D sleeps       D sleeps per reader (median over the readers)
  CPU / sleep    a reader's time on CPU per D sleep, us (median over the
                 readers; the capture's is inflated by its own tracing)

Defaults: --pcsim build/pcsim, --model workloads/linux-6.18-btrfs.ini, --seed 1
(paths from the checkout's top).  Used for docs/validation.md, "Where woken readers run".
"""
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

from . import reader_time_split
from .quantile import quantile

NAME = 'sched-compare'
HELP = 'kernel and pcsim scheduler figures side by side'
PATHS = ('pcsim', 'model', 'jobs')
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def seed(text):
    if not text.isdigit():
        raise ValueError(text)
    return text


def add_arguments(p):
    p.add_argument('--pcsim', metavar='BIN', default=os.path.join(ROOT, 'build', 'pcsim'))
    p.add_argument('--model', metavar='SCENARIO.ini', default=os.path.join(ROOT, 'workloads', 'linux-6.18-btrfs.ini'))
    p.add_argument('--seed', metavar='S', type=seed, default='1')
    p.add_argument('jobs', nargs='*', metavar='JOB.fio')


def prepare(args):
    if not args.jobs:
        d = os.path.join(ROOT, 'tests', 'data', 'kernel-6.18-wakes')
        args.jobs = [os.path.join(d, f'ra128-j{n}-rep1.fio') for n in (1, 2, 4, 8)]


def fail(msg):
    sys.stderr.write(f'pcsim-trace sched-compare: {msg}\n')
    return 2


def split_figures(path):
    """reader-time-split's figures of one trace, as a dict; None when it finds no reader."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        if reader_time_split.report(path):
            return None
    f = {'sleeps': [], 'oncpu': [], 'woken': []}
    for line in out.getvalue().splitlines():
        m = re.match(r'\s+on CPU\s+([\d.]+) ms', line)
        if m:
            f['oncpu'].append(float(m.group(1)))
        m = re.match(r'\s+asleep in D\s+[\d.]+ ms in (\d+) sleeps', line)
        if m:
            f['sleeps'].append(int(m.group(1)))
        m = re.match(r'\s+woken -> on CPU \(\d+ D sleeps\): median ([\d.]+) us', line)
        if m:
            f['woken'].append(float(m.group(1)))
        m = re.match(r"\s+ran on: prev_cpu .* is the waker's in (\d+)%; when it is not \(\d+\): "
                     r"ran on the waker's CPU ([\d.]+)%", line)
        if m:
            f['prev_is_waker'], f['to_waker'] = int(m.group(1)), float(m.group(2))
        m = re.match(r'\s+behind another fio thread: (\d+)%, median (\d+) us', line)
        if m:
            f['behind_fio'], f['behind_fio_us'] = int(m.group(1)), int(m.group(2))
        m = re.match(r'\s+the CPU was idle: (\d+)%', line)
        if m:
            f['idle'] = int(m.group(1))
    if not f['sleeps']:
        return None
    f['sleeps_med'] = quantile(f['sleeps'], 0.5)
    f['cpu_per_sleep'] = quantile([1000.0 * c / max(s, 1) for c, s in zip(f['oncpu'], f['sleeps'])], 0.5)
    f['woken_med'] = quantile(f['woken'], 0.5) if f['woken'] else None
    return f


def cell(f, key, fmt):
    v = f.get(key)
    return '-' if v is None else fmt.format(v)


def behind(f):
    return '-' if 'behind_fio' not in f else f'{f["behind_fio"]}%, {f["behind_fio_us"]} us'


def run(args):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for job in args.jobs:
            name = os.path.basename(job)[:-len('.fio')]
            m = re.search(r'ra(\d+)-', name)
            capture = job[:-len('.fio')] + '.ftrace.txt.gz'
            if not job.endswith('.fio') or not m or not os.path.exists(capture):
                return fail(f'{job}: expected a job named raK-....fio with its capture NAME.ftrace.txt.gz next to it')
            trace = os.path.join(tmp, name + '.ftrace')
            ran = subprocess.run([args.pcsim, 'run', job, '--model', args.model, '--set',
                                  f'readahead.read_ahead_kb={m.group(1)}', '--seed', args.seed, '--ftrace', trace],
                                 capture_output=True, text=True)
            if ran.returncode:
                return fail(f'pcsim run {job}: {ran.stderr.strip()}')
            figures = []
            for path in (capture, trace):
                figures.append(split_figures(path))
                if figures[-1] is None:
                    return fail(f'{path}: reader-time-split found no reader')
            rows.append((name, *figures))
    print('| capture | | prev = waker | to waker | behind fio | idle CPU | woken -> CPU | D sleeps | CPU / sleep |')
    print('|---|---|---|---|---|---|---|---|---|')
    for name, k, s in rows:
        for who, f in (('kernel', k), (f'pcsim (seed {args.seed})', s)):
            print(f'| {name if who == "kernel" else ""} | {who} | {cell(f, "prev_is_waker", "{}%")} | '
                  f'{cell(f, "to_waker", "{:.1f}%")} | {behind(f)} | {cell(f, "idle", "{}%")} | '
                  f'{cell(f, "woken_med", "{:.0f} us")} | {f["sleeps_med"]:.0f} | {f["cpu_per_sleep"]:.0f} us |')
    print()
    print(f'pcsim: {os.path.relpath(args.model, ROOT)}; figures from pcsim-trace reader-time-split on each trace.')
    return 0
