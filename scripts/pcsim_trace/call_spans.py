"""call-spans - where a one-thread read() call's time goes when each call misses the cache.

For each TRACE (ftrace text with page_cache_sync_ra, block_bio_queue, block_rq_issue and
block_rq_complete: a kernel capture of scripts/capture-kernel-trace or pcsim's --ftrace;
.gz or plain) of one reader whose every call misses and reads its own request, as
fio's rw=randread with fadvise_hint=1 does (FMODE_RANDOM: one synchronous readahead of
exactly the call's pages, one data bio, one request): each call from its
page_cache_sync_ra to the next one's, split into three spans:

  submit    page_cache_sync_ra -> the call's data bio (block_bio_queue): the page
            inserts, the readahead's setup and the bio's submission (the reader's CPU)
  device    block_rq_issue -> block_rq_complete of that request: the device's time
            (on a loop device the loop worker's run is inside it)
  wake      block_rq_complete -> the next call's page_cache_sync_ra: end-io (btrfs: its
            worker and checksum), the reader's wake-up, the copy, the return to fio and
            fio's next read() call

A call's bio and request are the first data ones (no M in RWBS) after its readahead;
calls with none, or whose request another call's readahead interrupts, are not timed.
A trace that is not that (readaheads from more than one task, an asynchronous readahead, or a
call with a second data bio) is refused on stderr with exit status 2.  The last call, with no
next one, is not timed.  Prints per trace the calls timed and each span's median, mean and p90 in us, and their
sum of medians against the median call.  Used for
docs/notebook/2026-12-07-loop-double-count.md (the kernel's 5 / 46 / 15 us against
pcsim's 8 / 87 / 43 on the one-thread 4 KiB random read of kernel-6.18-fiojobs-dec07h).
"""
import sys

from .ftrace import block, each_trace, events
from .quantile import quantiles

NAME = 'call-spans'
HELP = "a missing read() call's time: submit, device, wake-up to the next call"
PATHS = ('traces',)
NAMES = {'page_cache_sync_ra', 'page_cache_async_ra', 'block_bio_queue', 'block_rq_issue', 'block_rq_complete'}


def add_arguments(p):
    p.add_argument('traces', nargs='+', metavar='TRACE')


def spans(path):
    """(submit, device, wake, call) lists in us, one entry per call timed, and why the trace is
    not one reader's missing calls (None when it is)."""
    out = ([], [], [], [])
    readers, asyncs, extra = set(), 0, 0
    call = None  # the current call: its readahead time, then 'bio', 'sector', 'issue', 'done'
    for e in events(path, NAMES):
        if e.name == 'page_cache_async_ra':
            asyncs += 1
            continue
        if e.name == 'page_cache_sync_ra':
            readers.add(e.pid)
            if call and 'done' in call:
                out[0].append(call['bio'] - call['ra'])
                out[1].append(call['done'] - call['issue'])
                out[2].append(e.time - call['done'])
                out[3].append(e.time - call['ra'])
            call = {'ra': e.time}
            continue
        b = block(e.rest)
        if call is None or not b or 'R' not in b.rwbs or 'M' in b.rwbs:
            continue
        if e.name == 'block_bio_queue':
            if 'bio' in call:
                extra += 1
            else:
                call['bio'], call['sector'] = e.time, b.sector
        elif e.name == 'block_rq_issue' and call.get('sector') == b.sector and 'done' not in call:
            call['issue'] = e.time  # a requeue times its last issue
        elif e.name == 'block_rq_complete' and call.get('sector') == b.sector and 'issue' in call:
            call.setdefault('done', e.time)
    why = None
    if len(readers) > 1:
        why = f'{len(readers)} tasks start readaheads: call-spans splits one reader\'s calls'
    elif asyncs or extra:
        why = (f'{asyncs} asynchronous readaheads and {extra} data bios beyond the first of a call: not a read '
               'whose every call misses and reads its own request (fio rw=randread with fadvise_hint=1)')
    return tuple([1e6 * x for x in v] for v in out) + (why,)


def one(path):
    submit, device, wake, whole, why = spans(path)
    if why:
        sys.stderr.write(f'pcsim-trace {NAME}: {path}: {why}\n')
        return 2
    if len(whole) < 10:
        print(f'{path}: {len(whole)} calls timed: too few')
        return 0
    print(f'{path}: {len(whole)} calls timed')
    medians = 0.0
    for name, v in (('submit', submit), ('device', device), ('wake', wake), ('call', whole)):
        p50, p90 = quantiles(v, 0.5, 0.9)
        if name != 'call':
            medians += p50
        print(f'  {name:<7} median {p50:7.1f} us  mean {sum(v) / len(v):7.1f} us  p90 {p90:7.1f} us')
    print(f'  the spans\' medians add to {medians:.1f} us')
    return 0


def run(args):
    return each_trace(args.traces, one)
