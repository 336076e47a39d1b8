/* device.c - the disk: dispatch up to the queue depth, serve, complete.
 *
 * Mirrors __blk_run_queue() dispatching to a device with NCQ.  A request
 * costs device.latency (seek/flash access; overlaps across the requests in
 * service) and then size / device.bandwidth of transfer.  Transfers share
 * the device's one data channel: a request alone takes exactly latency +
 * size / bandwidth, and the device as a whole never moves more than
 * device.bandwidth, however deep the queue.  Requests complete in the order
 * their transfers end; each completed request hands its bios to the btrfs
 * end-io workers (endio.c).  Each request's dispatch -> complete time (the
 * kernel trace's block_rq_issue -> block_rq_complete) is summed and
 * binned, and the most requests in service at once kept, for the
 * device metrics of include/pcsim/ktrace.h.
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
 * Differs from the host: no per-request CPU cost of the loop worker, and
 * a transfer's rate does not depend on how many others run.
 */
#include "internal.h"

#include <math.h>

static PcsTime transfer_ns(PcsSim *s, uint64_t bytes) {
  return (PcsTime)((bytes * (uint64_t)PCS_NS_PER_S + s->p->device_bandwidth - 1) / s->p->device_bandwidth);
}

void pcs_dev_init(PcsDevice *d, const PcsParams *p) {
  *d = (PcsDevice){.nchannels = (uint32_t)p->device_channels};
  if (d->nchannels > 1) d->channels = g_new0(PcsTime, d->nchannels);
  if (p->device_jitter > 0) {
    d->rng = g_new(PcsRng, 1);
    pcs_rng_init_stream(d->rng, p->scenario_seed, PCS_RNG_STREAM_DEVICE);
  }
}

void pcs_dev_clear(PcsDevice *d) {
  g_clear_pointer(&d->channels, g_free);
  g_clear_pointer(&d->rng, g_free);
}

/* device.jitter: a lognormal factor of mean 1, exp(sigma z - sigma^2 / 2)
 * with z standard normal (Box-Muller from two draws of the device stream). */
static double service_factor(PcsSim *s) {
  double sigma = s->p->device_jitter;
  if (!s->dev.rng) return 1.0;
  double u1 = ((double)pcs_rng_u32(s->dev.rng) + 1.0) / 4294967297.0; /* (0,1) */
  double u2 = (double)pcs_rng_u32(s->dev.rng) / 4294967296.0;
  double z = sqrt(-2.0 * log(u1)) * cos(2.0 * G_PI * u2);
  return exp(sigma * z - sigma * sigma / 2.0);
}

/* The channel that frees first (the lowest index of equals). */
static uint32_t first_free_channel(const PcsDevice *d) {
  uint32_t best = 0;
  for (uint32_t c = 1; c < d->nchannels; c++)
    if (d->channels[c] < d->channels[best]) best = c;
  return best;
}

void pcs_dev_dispatch(PcsSim *s) {
  while (s->dev.in_service < s->p->device_queue_depth && s->blk.elv_head != PCS_NONE) {
    uint32_t id = pcs_blk_next_request(s);
    if (id == PCS_NONE) break; /* CFQ holds the rest back (blk.c) */
    PcsRequest *rq = pcs_rq_at(&s->blk, id);
    double f = service_factor(s);
    PcsTime ready = s->evq.now + (PcsTime)((double)s->p->device_latency * f);
    PcsTime xfer = s->p->device_command_cost + transfer_ns(s, (uint64_t)rq->nsect * PCS_SECTOR_SIZE), done;
    if (s->dev.rng) xfer = (PcsTime)((double)xfer * f);
    if (s->dev.nchannels > 1) {
      uint32_t c = first_free_channel(&s->dev);
      done = s->dev.channels[c] = MAX(ready, s->dev.channels[c]) + xfer;
    } else {
      done = s->dev.channel_free = MAX(ready, s->dev.channel_free) + xfer;
    }
    if (s->dev.in_service++ == 0) s->dev.busy_since = s->evq.now; /* diskstats io_ticks */
    s->res->max_in_flight = MAX(s->res->max_in_flight, s->dev.in_service);
    rq->dispatched = s->evq.now;
    s->res->requests++;
    pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_DISPATCH, rq->sector, rq->nsect);
    if (s->dev.nchannels > 1)
      pcs_evq_push(&s->evq, done, PCS_EV_DEVICE_DONE, id);
    else
      pcs_evq_push_fifo(&s->evq, done, PCS_EV_DEVICE_DONE, id); /* channel_free never decreases */
  }
}

void pcs_dev_complete(PcsSim *s, uint32_t id) {
  PcsRequest *rq = pcs_rq_at(&s->blk, id);
  pcs_trace(s, PCS_NO_THREAD, PCS_TRACE_COMPLETE, rq->sector, rq->nsect);
  if (--s->dev.in_service == 0) s->res->device_busy_ns += s->evq.now - s->dev.busy_since;
  s->res->pages_read += rq->nsect / PCS_SECTORS_PER_PAGE;
  PcsTime service = s->evq.now - rq->dispatched; /* block_rq_issue -> block_rq_complete */
  s->res->device_ns += service;
  s->res->latency_us_hist[pcs_latency_bucket(service)]++;
  for (uint32_t bio = rq->bio_head; bio != PCS_NONE;) {
    uint32_t next = pcs_bio_at(&s->bio, bio)->next;
    pcs_endio_queue(s, bio);
    bio = next;
  }
  pcs_blk_put_request(s, id);
  pcs_dev_dispatch(s);
}
