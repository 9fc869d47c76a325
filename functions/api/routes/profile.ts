import { demandProfile } from '../../../shared/domain/demand-profile';
import { allLeasesOf } from '../../../shared/usecases/all-leases';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import { checkRange, instant, type RangeInput, resolveRange } from '../range';
import type { ApiContext } from './context';

const profileQuery = (nowMs: number) =>
  z
    .pipe(
      z.strictObject({ from: z.optional(instant), to: z.optional(instant) }),
      z.transform((query: RangeInput) => resolveRange(query, nowMs)),
    )
    .check(z.superRefine(checkRange));

/**
 * The tenant's demand per UTC day: GPU-hours, average and peak concurrent GPUs
 * by workload and mode, and the wait from request to running. GPU utilization
 * comes from the GPU telemetry, which is not collected yet, so it is `null`.
 */
export async function getProfile(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const range = validate(profileQuery(nowMs), event.queryStringParameters ?? {}, 'query');
  const gpusOf = (instanceType: string) => ctx.deps.catalog.offering(instanceType)?.gpuCount ?? 1;
  const days = demandProfile(
    await allLeasesOf(ctx.deps.leases, tenantId),
    range.fromMs,
    range.toMs,
    nowMs,
    gpusOf,
  );
  return json(200, {
    from: new Date(range.fromMs).toISOString(),
    to: new Date(Math.min(range.toMs, nowMs)).toISOString(),
    gpuUtilization: null,
    gpuUtilizationNote:
      'GPU telemetry is not collected yet; utilization will come from the CloudWatch GPU metrics',
    days,
  });
}
