import type { ScheduledEvent } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { METRIC_NAMES } from '../../shared/metric-names';
import { admitQueued } from '../../shared/usecases/admission/queue';
import { sendWaitEnds } from '../../shared/usecases/admission/wait-ends';
import { admissionWiring } from './wiring';

const deps = buildPorts(admissionWiring);

/**
 * Every minute: one admission pass at the schedule's instant. Releases,
 * failures and quota changes run passes of their own; this one admits what
 * they missed (a lease back from its refusal back-off, a pass that gave up
 * after conflicting rounds) and fails the leases past their maxWaitMinutes;
 * the leases whose wait ends before the next pass get a time-out command held
 * back until it does, so they fail on time, not up to a minute late.
 */
export const handler = observed(async (event: ScheduledEvent) => {
  const atMs = Date.parse(event.time);
  const { run, states } = await admitQueued({ ...deps, now: () => atMs });
  const counts = {
    admitted: run.admitted.length,
    timedOut: run.timedOut.length,
    waitsEnding: await sendWaitEnds(deps, run.queued, atMs),
    queued: states.size,
    settled: run.settled,
  };
  logger.info('Admission pass', { time: event.time, ...counts });
  metrics.addMetric(METRIC_NAMES.queuedLeases, 'Count', counts.queued);
  metrics.addMetric(METRIC_NAMES.leasesAdmitted, 'Count', counts.admitted);
  metrics.addMetric(METRIC_NAMES.queueTimeouts, 'Count', counts.timedOut);
  return counts;
});
