/* device.h - the disk: queue depth, latency, data channels (see device.c). */
#ifndef PCSIM_MODEL_DEVICE_H
#define PCSIM_MODEL_DEVICE_H

#include "pcsim/evq.h"
#include "pcsim/params.h"
#include "rng.h"

#include <stdint.h>

typedef struct PcsSim PcsSim;

typedef struct {
  uint32_t in_service;  /* requests dispatched, not completed */
  PcsTime busy_since;   /* when in_service last rose from 0 */
  PcsTime channel_free; /* when the data channel finishes its last transfer (device.channels = 1) */
  PcsTime *channels;    /* device.channels > 1: when each channel finishes its last transfer */
  uint32_t nchannels;
  PcsRng *rng;          /* device.jitter > 0: the service-time draws (PCS_RNG_STREAM_DEVICE) */
} PcsDevice;

/* Called once per run: device.channels data channels. */
void pcs_dev_init(PcsDevice *d, const PcsParams *p);
/* Frees what pcs_dev_init() allocated. */
void pcs_dev_clear(PcsDevice *d);

/* __blk_run_queue(): dispatches queued requests up to device.queue_depth,
 * scheduling one PCS_EV_DEVICE_DONE each (FIFO lane).  Called after the
 * elevator gained requests and after each completion. */
void pcs_dev_dispatch(PcsSim *s);
/* The PCS_EV_DEVICE_DONE event of request RQ: hands its bios to end-io,
 * frees RQ, dispatches more. */
void pcs_dev_complete(PcsSim *s, uint32_t rq);

#endif
