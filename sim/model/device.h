/* device.h - the disk: queue depth, latency, data channels (see device.c). */
#ifndef PCSIM_MODEL_DEVICE_H
#define PCSIM_MODEL_DEVICE_H

#include "evq.h"
#include "pcsim/params.h"
#include "rng.h"

#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint32_t in_service;  /* requests dispatched, not completed */
  uint32_t meta_in_service; /* of which checksum leaves' reads (csum.c) */
  PcsTime busy_since;   /* when in_service last rose from 0 */
  PcsTime channel_free; /* when the data channel finishes its last transfer (device.channels = 1) */
  PcsTime *channels;    /* device.channels > 1: when each channel finishes its last transfer */
  uint32_t nchannels;
  PcsRng *rng;          /* device.jitter > 0: the service-time draws (PCS_RNG_STREAM_DEVICE) */
  /* device.sharing = 1 (processor sharing): one slot per request in service */
  struct PcsDevSlot *slots; /* device.queue_depth of them */
  uint32_t nslots;          /* slots in use (in latency or in transfer) */
  uint32_t nactive;         /* of which in transfer */
  double served;            /* bytes each transferring request has received since the run began (virtual time) */
  PcsTime served_at;        /* when served was last advanced */
  PcsTime next_event;       /* the one PCS_EV_DEVICE_DONE that counts (earlier pushes are stale) */
  gboolean slow;            /* device.slow_rate > 0: in the slow state */
  PcsTime next_switch;      /* device.slow_rate > 0: when the state changes next */
} PcsDevice;

/* Called once per run: device.channels data channels. */
void pcs_dev_init(PcsDevice *d, const PcsParams *p);
/* Frees what pcs_dev_init() allocated. */
void pcs_dev_clear(PcsDevice *d);

/* __blk_run_queue(): dispatches queued requests up to device.queue_depth,
 * scheduling one PCS_EV_DEVICE_DONE each (FIFO lane).  Called after the
 * elevator gained requests and after each completion. */
void pcs_dev_dispatch(PcsSim *s);
/* lo_rw_aio(): request RQ, issued and handed to the host by the loop
 * worker (loop.c), starts its service now. */
void pcs_dev_start(PcsSim *s, uint32_t rq);
/* The PCS_EV_DEVICE_DONE event of request RQ: hands its bios to end-io,
 * frees RQ, dispatches more.  With device.sharing = 1 the event is the
 * device's next change (a latency ending or a transfer finishing), RQ is
 * unused, and a superseded event does nothing. */
void pcs_dev_complete(PcsSim *s, uint32_t rq);

#endif
