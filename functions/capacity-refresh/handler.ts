import type { ScheduledEvent } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { METRIC_NAMES } from '../../shared/metric-names';
import { refreshFleetCapacity } from '../../shared/usecases/admission/fleet-capacity';
import { capacityRefreshWiring } from './wiring';

const deps = buildPorts(capacityRefreshWiring);

/**
 * Every five minutes: the capacity pools' limits from the account's vCPU
 * quotas and the reserved commitments. A quota it could not read is logged
 * and keeps its stored limit; the next admission pass admits what a raised
 * limit lets in.
 */
export const handler = observed(async (event: ScheduledEvent) => {
  const refresh = await refreshFleetCapacity({ ...deps, now: () => Date.parse(event.time) });
  for (const error of refresh.unavailable) {
    logger.warn('vCPU quota unavailable; its pool keeps its stored limit', {
      ...error.quota,
      quotaCode: error.quotaCode,
      reason: error.reason,
      code: error.code,
    });
  }
  metrics.addMetric(METRIC_NAMES.capacityPoolsWritten, 'Count', refresh.written.length);
  metrics.addMetric(METRIC_NAMES.vcpuQuotasUnavailable, 'Count', refresh.unavailable.length);
  return { written: refresh.written.length, ...refresh.sources, unavailable: refresh.unavailable.length };
});
