"""first-run - a capture's first run against its repeats (is rep1 representative?).

For each SESSION, a capture folder: a fixture (tests/data/kernel-6.18-NAME, with
capture.txt and blocks/NAME-repI.ftrace.txt.gz) or what scripts/capture-kernel-trace
wrote (OUT, with README and OUT/NAME-repI/NAME-repI.ftrace.txt.gz).  From the run list
of capture.txt (or README), in the order the runs ran:

  SESSION: first run CONFIG-rep1 M MiB/s, its repeats A, B MiB/s: R of their median

the session's first run, which is the first repeat of the first configuration: the
run calibrate reads for its one-thread 128 KiB capture.  R's median is validate-6.18's over
repeats (two repeats: their mean), not quantile.py's upper middle value, and so is the
median over sessions.  With --bios CONFIG, that
configuration's data bios/MiB in each repeat (block_bio_queue of reads without M:
bios over the MiB they carry, as `pcsim trace-stats` counts them), and whether rep1
has more than every other repeat.  Then over the sessions: the median R, how many
are below 0.8, and with --bios in how many sessions rep1 has more data bios/MiB
than the others (docs/notebook/2026-12-07-first-run.md).
"""
import errno
import os
import re

from .ftrace import block, events

NAME = 'first-run'
HELP = "a capture's first run against its repeats (MiB/s, data bios/MiB)"
PATHS = ()

RUN = re.compile(r'^  (\S+)-rep(\d+): threads \d+, fio (\d+) MiB/s')


def add_arguments(p):
    p.add_argument('--bios', metavar='CONFIG',
                   help="also CONFIG's data bios/MiB per repeat (e.g. bs32k-ra4096-j1)")
    p.add_argument('sessions', nargs='+', metavar='SESSION')


def runs(session):
    """[(config, rep, MiB/s)] of SESSION's run list, in the order the runs ran."""
    if not os.path.exists(session):
        raise OSError(errno.ENOENT, os.strerror(errno.ENOENT), session)
    for name in ('capture.txt', 'README'):
        path = os.path.join(session, name)
        if os.path.isfile(path):
            with open(path) as f:
                return [(m.group(1), int(m.group(2)), int(m.group(3))) for m in map(RUN.match, f) if m]
    raise OSError(2, 'no capture.txt or README (not a capture folder)', session)


def trace_of(session, run):
    """The block trace of RUN (CONFIG-repI) in SESSION: blocks/ of a fixture, else OUT/RUN/."""
    for path in (os.path.join(session, 'blocks', run + '.ftrace.txt.gz'),
                 os.path.join(session, run, run + '.ftrace.txt.gz')):
        if os.path.isfile(path):
            return path
    raise OSError(2, f'no trace of {run}', session)


def bios_per_mib(path):
    """Data bios per MiB they carry: block_bio_queue of reads that are not metadata."""
    bios = sectors = 0
    for e in events(path, {'block_bio_queue'}):
        b = block(e.rest)
        if b and 'R' in b.rwbs and 'M' not in b.rwbs:
            bios += 1
            sectors += b.sectors
    return bios / (sectors * 512 / 2**20) if sectors else 0.0


def median(v):
    """The median as scripts/validate-6.18 takes it over repeats: the middle value, or the mean
    of the two middle ones.  Not quantile.py's rule (the upper of the two) on purpose: a
    first run is set against its two repeats, and the upper one alone would be the faster
    repeat, not their middle."""
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def one(session, config):
    """Prints SESSION's lines; (first / median of its repeats or None, rep1 has the most bios or None)."""
    r = runs(session)
    if not r:
        print(f'{session}: no runs listed')
        return None, None
    first = r[0][0]
    mine = {rep: mibs for c, rep, mibs in r if c == first}
    others = [mibs for rep, mibs in sorted(mine.items()) if rep != 1]
    ratio = mine[1] / median(others) if others and 1 in mine and median(others) else None
    text = ', '.join(str(v) for v in others) or 'none'
    print(f'{session}: first run {first}-rep1 {mine.get(1, "?")} MiB/s, its repeats {text} MiB/s'
          + (f': {ratio:.2f} of their median' if ratio is not None else ''))
    most = None
    if config:
        reps = sorted(rep for c, rep, _ in r if c == config)
        if not reps:
            print(f'  {config}: not captured here')
        else:
            b = {rep: bios_per_mib(trace_of(session, f'{config}-rep{rep}')) for rep in reps}
            rest = [v for k, v in b.items() if k != 1]
            if 1 in b and rest:
                most = b[1] > max(rest)
            print(f'  {config}: data bios/MiB ' + ', '.join(f'rep{k} {v:.3f}' for k, v in sorted(b.items()))
                  + (f'; rep1 {"has" if most else "has not"} more than the others' if most is not None else ''))
    return ratio, most


def run(args):
    ratios, most = [], []
    for session in args.sessions:
        r, m = one(session.rstrip('/'), args.bios)
        if r is not None:
            ratios.append(r)
        if m is not None:
            most.append(m)
    if len(args.sessions) > 1 and ratios:
        print(f'{len(ratios)} sessions: the first run {median(ratios):.2f} of its repeats (median; '
              f'{min(ratios):.2f}..{max(ratios):.2f}), below 0.8 in {sum(x < 0.8 for x in ratios)}')
        if most:
            print(f'  {args.bios}: rep1 has more data bios/MiB than every other repeat in {sum(most)} of {len(most)}')
    return 0
