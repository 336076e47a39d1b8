/* device.c - the disk: dispatch up to the queue depth, serve, complete.
 *
 * Mirrors __blk_run_queue() dispatching to a device with NCQ.  A request
 * costs device.latency (seek/flash access; overlaps across the requests in
 * service) and then size / device.bandwidth of transfer.  Transfers share
 * the device's one data channel: a request alone takes exactly latency +
 * size / bandwidth, and the device as a whole never moves more than
 * device.bandwidth, however deep the queue.  Requests complete in the order
 * their transfers end; each completed request hands its bios to the btrfs
 * end-io workers (endio.c; a checksum leaf's read to the metadata worker).
 * Each data request's dispatch -> complete time (the kernel trace's
 * block_rq_issue -> block_rq_complete) is summed and binned, and the most
 * data requests in service at once kept, for the device metrics of
 * include/pcsim/ktrace.h; a checksum leaf's read (csum.c) occupies the
 * device like any request but, as trace-stats keeps RM apart, is in none of
 * them.
 *
 * device.channels > 1: several transfers run at once, each at
 * device.bandwidth.  This is the loop device on a host file (losetup
 * --direct-io=on): the loop worker turns each request into a direct I/O
 * on the backing file and the host serves several of them in parallel,
 * each about as fast as one alone, up to what the host itself can move
 * (channels x bandwidth).  A dispatched request takes the channel that
 * frees first (FIFO over channels, so a request never overtakes an
 * earlier one onto a channel); completions then come in the order the
 * transfers end, which with several channels need not be dispatch order.
 * With one channel the device is exactly the one-channel model above.
 * device.jitter > 0: each request's latency and transfer are scaled by one
 * lognormal factor of mean 1 (sigma = device.jitter) from the device's own
 * seeded stream: the host's service times are heavy-tailed (ra128-j1:
 * 256 KiB requests median 230 us, mean 433 us), and that spread is what
 * lets one window complete before an earlier one.
 * device.sharing = 1 (processor sharing): after its latency a request
 * joins the transfers in progress and the n of them share
 * device.bandwidth, each at bandwidth / n, until one finishes.  Requests of
 * one size issued together therefore complete together, and one alone gets
 * the whole rate: this is what the loop device on its host showed
 * (tests/data/kernel-6.18-btrfs-threads/mechanism/ra4096-j1: the six or
 * seven 1280 KiB requests of one 8 MiB window complete within 10 us of each
 * other, 3..7 ms after their issue, while a 256 KiB request alone takes
 * 165 us; docs/validation.md).  The device keeps one PCS_EV_DEVICE_DONE
 * pending at its next change (a latency ending, a transfer finishing);
 * a change that moves it earlier pushes a new one and the old does nothing.
 * device.slow_rate > 0 (with sharing): the host's slow spells, runs of
 * requests taking several times what the shared rate gives them
 * (ra4096-j1: about 5x, spells of 10.7 ms mean, 9.5 ms apart): the device
 * alternates between its rate and slow_rate x its rate, each state held
 * for an exponential time (device.fast_time, device.slow_time) drawn from
 * the device's stream; a state change is a device event.
 * Differs from the host: no per-request CPU cost of the loop worker (the
 * captures' workqueue events put it at 17..40 us per run, 2..6% of the
 * span); requests of many single-page segments, which the host serves one
 * after another, share like any other; with device.sharing = 0 a
 * transfer's rate does not depend on how many others run.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

#define NEVER G_MAXUINT64 /* no device change pending */

static PcsTime transfer_ns(PcsSim *s, uint64_t bytes) {
  return (PcsTime)((bytes * (uint64_t)PCS_NS_PER_S + s->p->device_bandwidth - 1) / s->p->device_bandwidth);
}

/* device.sharing = 1: a request in service.  ready: when its latency
 * ends; finish: the value of PcsDevice.served at which its transfer ends
 * (set when it joins, at ready). */
typedef struct PcsDevSlot {
  uint32_t rq;
  gboolean active; /* in transfer */
  PcsTime ready;
  double bytes;  /* its transfer, jitter applied */
  double finish;
} PcsDevSlot;

/* An exponential time of mean MEAN (at least 1 ns) from RNG. */
static PcsTime exp_time(PcsRng *rng, PcsTime mean) { return 1 + (PcsTime)(-log(pcs_rng_open01(rng)) * (double)mean); }

void pcs_dev_init(PcsDevice *d, const PcsParams *p) {
  *d = (PcsDevice){.nchannels = (uint32_t)p->device_channels, .next_event = NEVER};
  if (p->device_sharing)
    d->slots = g_new0(PcsDevSlot, p->device_queue_depth);
  else if (d->nchannels > 1)
    d->channels = g_new0(PcsTime, d->nchannels);
  if (p->device_jitter > 0 || (p->device_sharing && p->device_slow_rate > 0)) {
    d->rng = g_new(PcsRng, 1);
    pcs_rng_init_stream(d->rng, p->scenario_seed, PCS_RNG_STREAM_DEVICE);
  }
  if (p->device_sharing && p->device_slow_rate > 0) /* starts in the normal state */
    d->next_switch = exp_time(d->rng, p->device_fast_time);
}

void pcs_dev_clear(PcsDevice *d) {
  g_clear_pointer(&d->channels, g_free);
  g_clear_pointer(&d->slots, g_free);
  g_clear_pointer(&d->rng, g_free);
}

/* device.jitter: a lognormal factor of mean 1, exp(sigma z - sigma^2 / 2)
 * with z standard normal (Box-Muller from two draws of the device stream). */
static double service_factor(PcsSim *s) {
  double sigma = s->p->device_jitter;
  if (sigma <= 0) return 1.0;
  return exp(sigma * pcs_rng_normal(s->dev.rng) - sigma * sigma / 2.0);
}

/* The channel that frees first (the lowest index of equals). */
static uint32_t first_free_channel(const PcsDevice *d) {
  uint32_t best = 0;
  for (uint32_t c = 1; c < d->nchannels; c++)
    if (d->channels[c] < d->channels[best]) best = c;
  return best;
}

/* ---- device.sharing = 1 ---- */

/* Bytes per ns of the device as a whole, in its present state. */
static double share_rate(PcsSim *s) {
  double rate = (double)s->p->device_bandwidth / (double)PCS_NS_PER_S;
  return s->dev.slow ? rate * s->p->device_slow_rate : rate;
}

/* Advances PcsDevice.served to now: each of the nactive transfers got
 * the rate / nactive since served_at (the state cannot have changed in
 * between while transfers ran: a state change is a device event); then
 * takes the state changes that are due. */
static void share_advance(PcsSim *s) {
  PcsDevice *d = &s->dev;
  if (d->nactive) d->served += (double)(s->evq.now - d->served_at) * share_rate(s) / d->nactive;
  d->served_at = s->evq.now;
  while (s->p->device_slow_rate > 0 && d->next_switch <= s->evq.now) {
    d->slow = !d->slow;
    d->next_switch += exp_time(d->rng, d->slow ? s->p->device_slow_time : s->p->device_fast_time);
  }
}

/* Schedules the device's next change (a latency ending, a transfer
 * finishing) unless it is already the pending event. */
static void share_schedule(PcsSim *s) {
  PcsDevice *d = &s->dev;
  share_advance(s); /* the transfers in progress are the same since served_at */
  PcsTime next = NEVER;
  double min_finish = HUGE_VAL;
  for (uint32_t i = 0; i < d->nslots; i++) {
    if (!d->slots[i].active)
      next = MIN(next, d->slots[i].ready);
    else
      min_finish = MIN(min_finish, d->slots[i].finish);
  }
  if (s->p->device_slow_rate > 0 && d->nslots) next = MIN(next, d->next_switch);
  if (d->nactive) {
    double ns = ceil((min_finish - d->served) * d->nactive / share_rate(s));
    next = MIN(next, s->evq.now + (PcsTime)MAX(ns, 1.0));
  }
  if (next >= d->next_event) return; /* the pending event comes first and reschedules */
  d->next_event = next;
  pcs_evq_push(&s->evq, next, PCS_EV_DEVICE_DONE, PCS_NONE);
}

static void complete_request(PcsSim *s, uint32_t id);

/* The PCS_EV_DEVICE_DONE of device.sharing = 1: completes the transfers
 * that have finished (in the order of their finish, then of dispatch),
 * starts the transfers whose latency has ended, schedules the next change. */
static void share_event(PcsSim *s) {
  PcsDevice *d = &s->dev;
  if (s->evq.now != d->next_event) return; /* superseded */
  d->next_event = NEVER;
  share_advance(s);
  for (;;) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < d->nslots; i++)
      if (d->slots[i].active && d->slots[i].finish <= d->served + 1e-6 &&
          (best == UINT32_MAX || d->slots[i].finish < d->slots[best].finish))
        best = i;
    if (best == UINT32_MAX) break;
    uint32_t id = d->slots[best].rq;
    memmove(&d->slots[best], &d->slots[best + 1], (d->nslots - best - 1) * sizeof *d->slots); /* dispatch order kept */
    d->nslots--;
    d->nactive--;
    complete_request(s, id);
  }
  for (uint32_t i = 0; i < d->nslots; i++) {
    PcsDevSlot *sl = &d->slots[i];
    if (sl->active || sl->ready > s->evq.now) continue;
    sl->active = TRUE;
    sl->finish = d->served + sl->bytes;
    d->nactive++;
  }
  pcs_dev_dispatch(s); /* fills the slots the completions freed, schedules */
}

/* Request ID's service begins now: after its latency its transfer (FIFO
 * channels), or it joins the transfers at ready (device.sharing, whose
 * next change the caller schedules). */
static void dev_start(PcsSim *s, uint32_t id) {
  PcsRequest *rq = pcs_rq_at(&s->blk, id);
  double f = service_factor(s);
  PcsTime ready = s->evq.now + (PcsTime)((double)s->p->device_latency * f);
  if (s->p->device_sharing) { /* joins the transfers at ready (share_event) */
    s->dev.slots[s->dev.nslots++] = (PcsDevSlot){
        .rq = id, .ready = ready + s->p->device_command_cost, .bytes = (double)rq->nsect * PCS_SECTOR_SIZE * f};
    return;
  }
  PcsTime xfer = s->p->device_command_cost + transfer_ns(s, (uint64_t)rq->nsect * PCS_SECTOR_SIZE), done;
  xfer = (PcsTime)((double)xfer * f);
  if (s->dev.nchannels > 1) {
    uint32_t c = first_free_channel(&s->dev);
    done = s->dev.channels[c] = MAX(ready, s->dev.channels[c]) + xfer;
    pcs_evq_push(&s->evq, done, PCS_EV_DEVICE_DONE, id);
  } else {
    done = s->dev.channel_free = MAX(ready, s->dev.channel_free) + xfer;
    pcs_evq_push_fifo(&s->evq, done, PCS_EV_DEVICE_DONE, id); /* channel_free never decreases */
  }
}

void pcs_dev_start(PcsSim *s, uint32_t id) {
  dev_start(s, id);
  if (s->p->device_sharing) share_schedule(s);
}

void pcs_dev_dispatch(PcsSim *s) {
  while (s->dev.in_service < s->p->device_queue_depth && s->blk.elv_head != PCS_NONE) {
    uint32_t id = pcs_blk_next_request(s);
    if (id == PCS_NONE) break; /* CFQ holds the rest back (blk.c) */
    PcsRequest *rq = pcs_rq_at(&s->blk, id);
    if (s->dev.in_service++ == 0) s->dev.busy_since = s->evq.now; /* diskstats io_ticks */
    gboolean meta = pcs_csum_is_leaf(rq->sector / PCS_SECTORS_PER_PAGE); /* a checksum leaf's read (csum.c) */
    s->dev.meta_in_service += meta;
    /* data requests, as trace-stats counts them */
    s->res->max_in_flight = MAX(s->res->max_in_flight, s->dev.in_service - s->dev.meta_in_service);
    rq->dispatched = s->evq.now;
    s->res->requests += !meta;
    pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_DISPATCH, rq->sector, rq->nsect);
    if (pcs_loop_on(&s->loop))
      pcs_loop_queue(s, id); /* the loop worker sends it to the host (loop.c) */
    else
      dev_start(s, id);
  }
  if (s->p->device_sharing) share_schedule(s);
}

void pcs_dev_complete(PcsSim *s, uint32_t id) {
  if (s->p->device_sharing) {
    share_event(s);
    return;
  }
  complete_request(s, id);
  pcs_dev_dispatch(s);
}

/* Request ID has left the device: its bios go to end-io, it is freed. */
static void complete_request(PcsSim *s, uint32_t id) {
  PcsRequest *rq = pcs_rq_at(&s->blk, id);
  pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_COMPLETE, rq->sector, rq->nsect);
  if (--s->dev.in_service == 0) s->res->device_busy_ns += s->evq.now - s->dev.busy_since;
  if (pcs_csum_is_leaf(rq->sector / PCS_SECTORS_PER_PAGE)) { /* metadata: not in the data figures */
    s->dev.meta_in_service--;
  } else {
    s->res->pages_read += rq->nsect / PCS_SECTORS_PER_PAGE;
    PcsTime service = s->evq.now - rq->dispatched; /* block_rq_issue -> block_rq_complete */
    s->res->device_ns += service;
    s->res->latency_us_hist[pcs_latency_bucket(service)]++;
  }
  for (uint32_t bio = rq->bio_head; bio != PCS_NONE;) {
    uint32_t next = pcs_bio_at(&s->bio, bio)->next;
    if (s->p->bio_chained) pcs_endio_part_done(s, bio); else pcs_endio_queue(s, bio);
    bio = next;
  }
  pcs_blk_put_request(s, id);
}
