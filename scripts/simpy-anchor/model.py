#!/usr/bin/env python3
"""model.py - a SimPy 2 model of pcsim's seed scenario: a measuring stick, not shipped.

The same mechanism and the same costs as pcsim's kernel model (sim/model/*.c,
[scenario] kernel = v3.5), written as a SimPy user would write it:

  Reader(Process)   one per fio thread: the read() loop of do_generic_file_read()
                    (reader.c), v3.5 on-demand readahead (readahead.c), and
                    extent_readpages() under the run's policy (immediate / pool:N):
                    insert into the page cache, read setup, build bios (bio.c)
  Device(Process)   the disk: serves dispatched requests in order; each takes
                    device.latency (overlapping) then its transfer on the one
                    shared data channel (device.c)
  Worker(Process)   btrfs end-io workers: one bio at a time from a FIFO,
                    bio_complete + pages x page_complete of CPU, then the pages
                    are up to date and their sleepers woken (endio.c)
  Resource cpu      cpu.count CPUs, FIFO; a task keeps its CPU from step to step
                    until it sleeps, or has run cpu.slice while another waits (cpu.c)
  SimEvent per page a reader finding a locked page waits on it (pagecache.c)
  plain functions   the block layer (plug, elevator merges, requests: blk.c) and
                    mapping->tree_lock (a ticket spinlock: a "free at" time, the
                    spin charged as CPU, as pagecache.c does) run synchronously in
                    the submitting task, as in the kernel.

Costs are jittered as pcsim jitters them: per task, a uniform factor in
[1-j, 1+j] from an MT19937 stream seeded exactly as pcsim's (rng.c seeds
init_by_array with {seed lo, seed hi, task + 1}, which is what Python's
random.Random(seed | (task + 1) << 64) does).  The streams are the same, but
ties between events at one instant are broken differently (SimPy posts
request/release/wake-ups as events of their own), so runs agree with pcsim
statistically, not to the byte.

Only the mechanisms active in the seed scenario are ported; the parameters
are checked and anything else (kernel v6.18, per-thread files, contiguous
frames, CFQ dispatch, device jitter/channels, exclusive wake-ups, io_tree
lock costs, bios split by the block layer, window / pool-contig policies) is
refused.  get_request_wait() (block.nr_requests exhausted) is not ported
either: the run stops with an error if it would be reached.

Usage: model.py --params PCSIM_CSV --policy immediate|pool:N [--seed S]
  PCSIM_CSV: output of `pcsim run SCENARIO -f csv`; its '# key=value' header
  holds every resolved scenario key (units: bytes, ns).  Prints one JSON line.
"""
import argparse
import collections
import json
import random
import sys
import time

from SimPy.Simulation import (Process, Resource, SimEvent, Simulation, hold, passivate, release, request,
                              waitevent)

PAGE = 4096
SECTOR = 512
SPP = PAGE // SECTOR  # sectors per page
MIB = 1024 * 1024

# page state bits (pagecache.h)
PRESENT, UPTODATE, READAHEAD = 1, 2, 4


class NotModelled(Exception):
    pass


# ---- parameters -----------------------------------------------------------------------------------------

def load_params(path):
    """The '# key=value' lines of a pcsim CSV header (every key resolved, bytes and ns)."""
    p = {}
    with open(path) as f:
        for line in f:
            if not line.startswith('# ') or '=' not in line:
                continue
            key, _, val = line[2:].strip().partition('=')
            p[key.replace('derived ', '')] = val
    if 'workload.threads' not in p:
        raise SystemExit('model.py: %s: no "# key=value" header (expected `pcsim run SCENARIO -f csv` output)' % path)
    return p


def num(v):
    v = v.strip()
    if v.endswith('ns'):
        v = v[:-2]
    f = float(v)
    return int(f) if f == int(f) else f


def check_modelled(p):
    """Refuse a scenario that needs a mechanism this port leaves out."""
    need = {
        'workload.files': 'shared', 'memory.contiguous': '0', 'block.cfq_quantum': '0',
        'block.plug_flush_size': '0', 'bio.queue_limited': '1', 'device.channels': '1', 'device.jitter': '0',
        'device.command_cost': '0ns', 'cpu.wake_exclusive': '0', 'cost.iotree_lock_extent': '0ns',
        'cost.iotree_test_bit': '0ns', 'cost.iotree_state_private': '0ns', 'memory.scattered': '0',
    }
    for key, want in need.items():
        if p.get(key, want) != want:
            raise NotModelled('%s = %s is not modelled here (only %s)' % (key, p[key], want))
    if p.get('scenario.kernel', 'v3.5') != 'v3.5':
        raise NotModelled('scenario.kernel = %s is not modelled here (only v3.5)' % p['scenario.kernel'])


# ---- bios and requests ------------------------------------------------------------------------------------

class Bio(object):
    __slots__ = ('first', 'npages', 'task')

    def __init__(self, first, task):
        self.first = first
        self.npages = 1
        self.task = task


class Req(object):
    __slots__ = ('task', 'sector', 'nsect', 'nseg', 'bios', 'ready', 'xfer')

    def __init__(self, task, bio):
        self.task = task
        self.sector = bio.first * SPP
        self.nsect = bio.npages * SPP
        self.nseg = bio.npages  # memory.contiguous = 0: every page is a segment
        self.bios = [bio]

    def end(self):
        return self.sector + self.nsect


# ---- tasks on CPUs ----------------------------------------------------------------------------------------

class Task(Process):
    """A reader or an end-io worker: runs in CPU steps on the shared cpu Resource."""

    def __init__(self, m, tid, name):
        Process.__init__(self, name=name, sim=m.sim)
        self.m = m
        self.tid = tid
        self.on_cpu = False
        self.slice_start = 0
        # pcsim rng.c: MT19937 init_by_array({seed lo, seed hi, task + 1})
        self.rng = random.Random(m.seed | (tid + 1) << 64) if m.jitter > 0 else None

    def cost(self, base):
        """BASE ns scaled by the task's next jitter factor (cpu.c pcs_cpu_cost())."""
        if self.rng is None or base == 0:
            return base
        u = self.rng.getrandbits(32) / 4294967296.0
        c = base * (1.0 + self.m.jitter * (2.0 * u - 1.0))
        return int(c) if c > 0.0 else 0

    def run_cpu(self, cost):
        """Run COST ns on a CPU: take one if not holding one; hand it over after a used-up slice."""
        m = self.m
        if self.on_cpu:
            if m.cpu.waitQ and m.sim.now() - self.slice_start >= m.slice:
                yield release, self, m.cpu
                yield request, self, m.cpu
                self.slice_start = m.sim.now()
        else:
            yield request, self, m.cpu
            self.on_cpu = True
            self.slice_start = m.sim.now()
        yield hold, self, cost

    def release_cpu(self):
        if self.on_cpu:
            self.on_cpu = False
            yield release, self, self.m.cpu


class Reader(Task):
    """One fio thread reading the whole file in block_size read() calls."""

    def __init__(self, m, tid):
        Task.__init__(self, m, tid, 'reader%d' % tid)
        # struct file_ra_state
        self.ra_start = self.ra_size = self.ra_async = 0
        self.prev_index = 0
        self.prev_valid = False
        self.done_at = None
        self.bytes = 0

    def run(self):
        m = self.m
        pages = m.pages
        bs = m.block_size
        file_end = m.npages
        pos = call_end = 0
        while True:
            if pos == call_end:  # the read() call ended: the next one, or the end of the file
                if pos == file_end:
                    self.done_at = m.sim.now()
                    yield from self.release_cpu()
                    return
                end = (pos * PAGE // bs + 1) * bs
                call_end = min((end + PAGE - 1) // PAGE, file_end)
                yield from self.run_cpu(self.cost(m.c_syscall))
            again = False  # readahead already ran for pos
            while True:
                st = pages[pos]
                if not st & PRESENT:
                    if again:  # no_cached_page: ->readpage() of pos alone, unplugged
                        m.fallback_reads += 1
                        yield from self.readpages([pos], None, 1, False)
                    else:
                        lst, marker = m.ra_sync(self, pos, call_end - pos)
                        if lst:
                            yield from self.readpages(lst, marker, m.pool, True)
                        again = True
                    continue
                if st & READAHEAD:  # first toucher clears the marker: async readahead
                    pages[pos] = st & ~READAHEAD
                    lst, marker = m.ra_async(self, pos, call_end - pos)
                    if lst:
                        yield from self.readpages(lst, marker, m.pool, True)
                    again = True
                    continue
                if not st & UPTODATE:  # locked: sleep until end-io unlocks it
                    m.waits += 1
                    ev = m.page_wait.get(pos)
                    if ev is None:
                        ev = m.page_wait[pos] = SimEvent(name='page', sim=m.sim)
                    yield from self.release_cpu()
                    yield waitevent, self, ev
                    again = True
                    continue
                yield from self.run_cpu(self.cost(m.c_copy))  # copy_to_user
                break
            self.prev_index = pos
            self.prev_valid = True
            pos += 1
            self.bytes += PAGE if pos < file_end else m.file_size - (pos - 1) * PAGE

    def readpages(self, lst, marker, pool_size, plugged):
        """extent_readpages(): insert each listed page; READ the pooled ones when POOL_SIZE are pooled."""
        m = self.m
        pages = m.pages
        if plugged:
            m.plugs[self.tid] = []  # blk_start_plug()
        pool = []
        bio = None
        for page in lst:
            spin = m.tree_lock()
            if pages[page] & PRESENT:  # -EEXIST: another thread inserted it
                m.eexist += 1
                yield from self.run_cpu(self.cost(spin + m.c_insert_lost))
                continue
            pages[page] = PRESENT | READAHEAD if page == marker else PRESENT
            m.inserts += 1
            yield from self.run_cpu(self.cost(spin + m.c_insert_won))
            pool.append(page)
            if len(pool) >= pool_size:
                bio = yield from self.read_pool(pool, bio)
                pool = []
        if pool:
            bio = yield from self.read_pool(pool, bio)
        if bio is not None:
            yield from self.run_cpu(self.cost(m.c_bio_submit))
            m.submit_bio(self.tid, bio)
        if plugged:
            m.finish_plug(self.tid)

    def read_pool(self, pool, bio):
        """__extent_read_full_page() of each pooled page, then submit_extent_page(): returns the open bio."""
        m = self.m
        for page in pool:
            yield from self.run_cpu(self.cost(m.c_read_setup))
            if bio is None:
                bio = Bio(page, self.tid)
            elif m.bio_accepts(bio, page):
                bio.npages += 1
            else:
                yield from self.run_cpu(self.cost(m.c_bio_submit))
                m.submit_bio(self.tid, bio)
                bio = Bio(page, self.tid)
        return bio


class Worker(Task):
    """A btrfs end-io worker: end_bio_extent_readpage() of one bio at a time."""

    def __init__(self, m, tid):
        Task.__init__(self, m, tid, 'endio%d' % tid)
        self.busy = False

    def run(self):
        m = self.m
        q = m.endio_q
        while True:
            if not q:
                yield from self.release_cpu()
                if q:  # a bio arrived while the CPU was being released
                    continue
                self.busy = False
                yield passivate, self
                continue
            bio = q.popleft()
            yield from self.run_cpu(self.cost(m.c_bio_complete + bio.npages * m.c_page_complete))
            if m.end_read(bio):
                yield hold, self, 0  # let the woken readers run first, as unlock_page() does


class Device(Process):
    """The disk: requests in dispatch order; latency overlaps, transfers share one channel."""

    def __init__(self, m):
        Process.__init__(self, name='device', sim=m.sim)
        self.m = m
        self.q = collections.deque()
        self.idle = True

    def run(self):
        m = self.m
        q = self.q
        while True:
            while not q:
                self.idle = True
                yield passivate, self
            rq = q.popleft()
            now = m.sim.now()
            yield hold, self, max(rq.ready - now, 0) + rq.xfer
            m.complete(rq)


# ---- the model --------------------------------------------------------------------------------------------

class Model(object):
    def __init__(self, p, pool, seed):
        check_modelled(p)
        g = lambda k: num(p[k])
        self.seed = seed
        self.pool = pool
        self.threads = g('workload.threads')
        self.file_size = g('workload.file_size')
        self.block_size = g('workload.block_size')
        self.npages = (self.file_size + PAGE - 1) // PAGE
        self.window = g('readahead.window') // PAGE
        self.bio_max_pages = min(g('bio.max_size') // PAGE, g('block.max_sectors') // SPP)
        self.bio_max_vecs = g('bio.max_vecs')
        self.stripe_pages = g('bio.stripe_size') // PAGE
        self.max_sectors = g('block.max_sectors')
        self.max_segments = g('block.max_segments')
        self.plug_max = g('block.plug_max')
        nr = self.nr_requests = g('block.nr_requests')
        if nr:  # blk_queue_congestion_threshold()
            self.congestion_on = min(nr - nr // 8 + 1, nr)
            self.congestion_off = max(nr - nr // 8 - nr // 16 - 1, 1)
        self.latency = g('device.latency')
        self.bandwidth = g('device.bandwidth')
        self.queue_depth = g('device.queue_depth')
        self.slice = g('cpu.slice')
        self.jitter = float(p['cost.jitter'])
        for key in ('syscall', 'insert_won', 'insert_lost', 'tree_lock_hold', 'read_setup', 'bio_submit',
                    'bio_complete', 'page_complete', 'copy'):
            setattr(self, 'c_' + key, g('cost.' + key))

        self.sim = Simulation()
        self.cpu = Resource(capacity=g('cpu.count'), name='cpu', sim=self.sim)
        self.pages = bytearray(self.npages)
        self.page_wait = {}
        self.tree_lock_free = 0
        self.plugs = [None] * self.threads  # a plugged task's request list
        self.elevator = []  # queued requests, FIFO
        self.live = 0  # requests allocated (plugged, queued, in service)
        self.congested = False
        self.in_service = 0
        self.endio_q = collections.deque()
        self.bios = self.requests = self.eexist = self.inserts = self.waits = self.fallback_reads = 0
        self.ra_sync_n = self.ra_async_n = 0

        self.readers = [Reader(self, t) for t in range(self.threads)]
        self.workers = [Worker(self, self.threads + i) for i in range(g('cpu.endio_workers'))]
        self.device = Device(self)

    def run(self):
        sim = self.sim
        for r in self.readers:
            sim.activate(r, r.run())
        for w in self.workers:
            sim.activate(w, w.run())
        sim.activate(self.device, self.device.run())
        sim.simulate(until=1 << 62)
        assert all(r.done_at is not None for r in self.readers), 'a reader never finished'
        assert not self.endio_q and self.live == 0 and not self.page_wait
        sim_time = max(r.done_at for r in self.readers)
        returned = sum(r.bytes for r in self.readers)
        return {
            'bios': self.bios, 'requests': self.requests, 'eexist': self.eexist, 'inserts': self.inserts,
            'waits': self.waits, 'ra_sync': self.ra_sync_n, 'ra_async': self.ra_async_n,
            'fallback_reads': self.fallback_reads, 'sim_time_ns': sim_time,
            'aggregate_mib_s': returned / MIB / (sim_time / 1e9),
            'device_mib_s': self.npages * PAGE / MIB / (sim_time / 1e9),
            'events': -self.sim._sortpr,  # every event notice SimPy posted
        }

    # -- mapping->tree_lock: a FIFO ticket spinlock held tree_lock_hold per insert (pagecache.c)
    def tree_lock(self):
        now = self.sim.now()
        acquire = max(now, self.tree_lock_free)
        self.tree_lock_free = acquire + self.c_tree_lock_hold
        return acquire - now + self.c_tree_lock_hold

    # -- readahead (mm/readahead.c v3.5, readahead.c) --
    def init_size(self, req):
        size = 1
        while size < req:
            size <<= 1
        mx = self.window
        if size <= mx // 32:
            size *= 4
        elif size <= mx // 4:
            size *= 2
        else:
            size = mx
        return min(size, mx)

    def next_size(self, cur):
        return min(4 * cur if cur < self.window // 16 else 2 * cur, self.window)

    def build_list(self, start, n, async_size, sync):
        """__do_page_cache_readahead(): the absent pages of [start, start+n), the marker at n - async."""
        if sync:
            self.ra_sync_n += 1
        else:
            self.ra_async_n += 1
        pages = self.pages
        lst = []
        marker = None
        for i in range(n):
            page = start + i
            if page >= self.npages:
                break
            if pages[page] & PRESENT:
                continue
            lst.append(page)
            if async_size and i == n - async_size:
                marker = page
        return lst, marker

    def ra_submit(self, r, offset, sync):
        if offset == r.ra_start and r.ra_size == r.ra_async:
            r.ra_async = self.next_size(r.ra_size)
            r.ra_size += r.ra_async
        return self.build_list(r.ra_start, r.ra_size, r.ra_async, sync)

    def ra_initial(self, r, offset, req):
        r.ra_start = offset
        r.ra_size = self.init_size(req)
        r.ra_async = r.ra_size - req if r.ra_size > req else r.ra_size
        return self.ra_submit(r, offset, True)

    def ra_sequential(self, r, offset):
        if offset != r.ra_start + r.ra_size - r.ra_async and offset != r.ra_start + r.ra_size:
            return False
        r.ra_start += r.ra_size
        r.ra_size = self.next_size(r.ra_size)
        r.ra_async = r.ra_size
        return True

    def ra_sync(self, r, offset, req):
        if offset == 0:
            return self.ra_initial(r, offset, req)
        if r.ra_size and self.ra_sequential(r, offset):
            return self.ra_submit(r, offset, True)
        if req > self.window:
            return self.ra_initial(r, offset, req)
        if r.prev_valid and 0 <= offset - r.prev_index <= 1:
            return self.ra_initial(r, offset, req)
        hist = 0  # try_context_readahead()
        while hist < self.window and hist < offset and self.pages[offset - 1 - hist] & PRESENT:
            hist += 1
        if hist:
            if hist >= offset:
                hist *= 2
            r.ra_start = offset
            r.ra_size = self.init_size(hist + req)
            r.ra_async = r.ra_size
            return self.ra_submit(r, offset, True)
        return self.build_list(offset, req, 0, True)

    def ra_async(self, r, offset, req):
        if self.congested:  # v3.5 page_cache_async_readahead()
            return None, None
        if r.ra_size and self.ra_sequential(r, offset):
            return self.ra_submit(r, offset, False)
        start = offset + 1  # radix_tree_next_hole()
        end = min(start + self.window, self.npages)
        while start < end and self.pages[start] & PRESENT:
            start += 1
        if start == end:
            start = offset + 1 + self.window
        if start - offset > self.window or start >= self.npages:
            return None, None
        r.ra_start = start
        r.ra_size = self.next_size(start - offset + req)
        r.ra_async = r.ra_size
        return self.ra_submit(r, offset, False)

    # -- bios (bio.c): bio_add_page() with queue limits, no two frames adjacent --
    def bio_accepts(self, bio, page):
        n = bio.npages
        if bio.first + n != page or n >= self.bio_max_pages or n >= self.bio_max_vecs or n >= self.max_segments:
            return False
        return not self.stripe_pages or bio.first // self.stripe_pages == page // self.stripe_pages

    # -- block layer (blk.c, v3.5 with CFQ's merge rules, requests in insertion order) --
    def fits(self, rq, nsect, nseg):
        return rq.nsect + nsect <= self.max_sectors and rq.nseg + nseg <= self.max_segments

    def try_merge(self, rq, bio):
        ns = bio.npages * SPP
        if not self.fits(rq, ns, bio.npages):
            return False
        sector = bio.first * SPP
        if rq.end() == sector:
            rq.bios.append(bio)
        elif sector + ns == rq.sector:
            rq.bios.insert(0, bio)
            rq.sector = sector
        else:
            return False
        rq.nsect += ns
        rq.nseg += bio.npages
        return True

    def submit_bio(self, task, bio):
        if self.nr_requests and self.live >= self.nr_requests:
            raise NotModelled('get_request_wait(): all %d requests in use' % self.nr_requests)
        self.bios += 1
        plug = self.plugs[task]
        if plug is not None:
            for rq in plug:  # attempt_plug_merge()
                if self.try_merge(rq, bio):
                    return
        for rq in self.elevator:  # elv_merge(): the task's own queued requests only (cfq_allow_merge())
            if rq.task == task and self.try_merge(rq, bio):
                self.merge_neighbours(rq)
                return
        rq = Req(task, bio)
        self.live += 1
        if self.nr_requests and self.live >= self.congestion_on:
            self.congested = True
        if plug is not None:
            if len(plug) >= self.plug_max:
                self.flush_plug(task)
            plug.append(rq)
            return
        self.elevator.append(rq)
        self.dispatch()

    def elv_find(self, sector, by_end, skip, task):
        for rq in self.elevator:
            if rq is skip or (task is not None and rq.task != task):
                continue
            if (rq.end() if by_end else rq.sector) == sector:
                return rq
        return None

    def absorb(self, dst, src):
        dst.bios.extend(src.bios)
        dst.nsect += src.nsect
        dst.nseg += src.nseg
        self.put_request()

    def merge_neighbours(self, rq):
        nxt = self.elv_find(rq.end(), False, rq, rq.task)
        if nxt is not None and self.fits(rq, nxt.nsect, nxt.nseg):
            self.elevator.remove(nxt)
            self.absorb(rq, nxt)
        prev = self.elv_find(rq.sector, True, rq, rq.task)
        if prev is not None and self.fits(prev, rq.nsect, rq.nseg):
            self.elevator.remove(rq)
            self.absorb(prev, rq)

    def flush_plug(self, task):
        plug = self.plugs[task]
        for rq in plug:  # ELEVATOR_INSERT_SORT_MERGE: a back merge into any queued request
            prev = self.elv_find(rq.sector, True, None, None)
            if prev is not None and self.fits(prev, rq.nsect, rq.nseg):
                self.absorb(prev, rq)
            else:
                self.elevator.append(rq)
        del plug[:]
        self.dispatch()

    def finish_plug(self, task):
        self.flush_plug(task)
        self.plugs[task] = None

    def put_request(self):
        self.live -= 1
        if self.nr_requests and self.live < self.congestion_off:
            self.congested = False

    # -- device (device.c) and end-io (endio.c) --
    def dispatch(self):
        dev = self.device
        now = self.sim.now()
        while self.in_service < self.queue_depth and self.elevator:
            rq = self.elevator.pop(0)
            rq.ready = now + self.latency
            rq.xfer = (rq.nsect * SECTOR * 1000000000 + self.bandwidth - 1) // self.bandwidth
            self.in_service += 1
            self.requests += 1
            dev.q.append(rq)
            if dev.idle:
                dev.idle = False
                self.sim.reactivate(dev)

    def complete(self, rq):
        self.in_service -= 1
        for bio in rq.bios:  # end_workqueue_bio(): each bio to the end-io workers
            self.endio_q.append(bio)
            for w in self.workers:
                if not w.busy:
                    w.busy = True
                    self.sim.reactivate(w)
                    break
        self.put_request()
        self.dispatch()

    def end_read(self, bio):
        """The bio's pages are up to date and unlocked: wake their sleepers.  True if any woke."""
        pages = self.pages
        woke = False
        for page in range(bio.first, bio.first + bio.npages):
            pages[page] |= UPTODATE
            ev = self.page_wait.pop(page, None)
            if ev is not None:
                ev.signal()
                woke = True
        return woke


def parse_policy(text):
    if text == 'immediate':
        return 1
    if text.startswith('pool:') and text[5:].isdigit() and int(text[5:]) >= 1:
        return int(text[5:])
    raise NotModelled('policy %s is not modelled here (immediate or pool:N)' % text)


def main():
    ap = argparse.ArgumentParser(description='SimPy 2 model of pcsim\'s seed scenario (a measuring stick)')
    ap.add_argument('--params', required=True, help='output of `pcsim run SCENARIO -f csv` (its header)')
    ap.add_argument('--policy', required=True, help='immediate or pool:N')
    ap.add_argument('--seed', type=int, default=None, help='seed of the jitter streams (default: scenario.seed)')
    a = ap.parse_args()
    p = load_params(a.params)
    seed = a.seed if a.seed is not None else int(p.get('scenario.seed', 1))
    try:
        m = Model(p, parse_policy(a.policy), seed)
        t0 = time.perf_counter()
        res = m.run()
        wall = time.perf_counter() - t0
    except NotModelled as e:
        sys.stderr.write('model.py: %s\n' % e)
        return 2
    res.update({'policy': a.policy, 'seed': seed, 'wall_s': round(wall, 3)})
    print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == '__main__':
    sys.exit(main())
