import { demandProfile } from '../../../shared/domain/demand-profile';
import {
  dailyUtilization,
  NO_TELEMETRY,
  UTILIZATION_DAY_MS,
  UTILIZATION_METHOD,
  utilizationOfAll,
} from '../../../shared/domain/gpu-utilization';
import { allLeasesOf } from '../../../shared/usecases/all-leases';
import { readGpuUtilization } from '../../../shared/usecases/gpu-utilization';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import { rangeQuery } from '../range';
import type { ApiContext } from './context';

/**
 * The tenant's demand per UTC day: GPU-hours, average and peak concurrent GPUs
 * by workload and mode, the wait from request to running, and the GPU
 * utilization its instances' telemetry shows (null with `telemetry: "none"`
 * for a day no GPU sent a sample).
 */
export async function getProfile(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const range = validate(rangeQuery(nowMs), event.queryStringParameters ?? {}, 'query');
  const toMs = Math.min(range.toMs, nowMs);
  const gpusOf = (instanceType: string) => ctx.deps.catalog.gpusPerInstance(instanceType);
  const leases = await allLeasesOf(ctx.deps.leases, tenantId);
  const measured = await readGpuUtilization(ctx.deps.metrics, leases, {
    fromMs: range.fromMs,
    toMs,
    nowMs,
    periodMs: UTILIZATION_DAY_MS,
  });
  const utilization = dailyUtilization(measured, range.fromMs, toMs);
  const days = demandProfile(leases, range.fromMs, range.toMs, nowMs, gpusOf).map((day) => ({
    ...day,
    gpuUtilization: utilization.get(day.day) ?? NO_TELEMETRY,
  }));
  return json(200, {
    from: new Date(range.fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    gpuUtilization: utilizationOfAll(measured),
    gpuUtilizationNote: UTILIZATION_METHOD,
    days,
  });
}
