import { dailyQueueFigures, NO_QUEUE_FIGURES, waitsOf } from '../../../shared/domain/admission/queue-figures';
import { demandProfile } from '../../../shared/domain/demand-profile';
import {
  dailyUtilization,
  NO_TELEMETRY,
  UTILIZATION_DAY_MS,
  UTILIZATION_METHOD,
  utilizationOfAll,
} from '../../../shared/domain/gpu-utilization';
import { dayOf } from '../../../shared/domain/spend';
import { dailyTaskTime, NO_TASK_TIME, tasksOf } from '../../../shared/domain/tasks/task-time';
import { idleShareOfDay } from '../../../shared/domain/waste/idle-usage';
import { readGpuUtilization } from '../../../shared/usecases/gpu-utilization';
import { leasesInRange } from '../../../shared/usecases/leases-in-range';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import {
  authErrors,
  errorResponse,
  historyRangeNote,
  instant,
  jsonContent,
  type OpenApiGroup,
  rangeParameters,
  responseObject,
  utilizationSchema,
} from '../openapi-parts';
import { historyRangeQuery, MAX_HISTORY_RANGE_DAYS } from '../range';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

/**
 * The tenant's demand per UTC day: GPU-hours, average and peak concurrent GPUs
 * by workload and mode, the wait from request to running, and the GPU
 * utilization its instances' telemetry shows (null with `telemetry: "none"`
 * for a day no GPU sent a sample), its tasks' run time and wait from
 * request to task start, and its leases' waits for admission.
 */
export async function getProfile(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const range = validate(historyRangeQuery(nowMs), event.queryStringParameters ?? {}, 'query');
  const toMs = Math.min(range.toMs, nowMs);
  const gpusOf = (instanceType: string) => ctx.deps.catalog.gpusPerInstance(instanceType);
  const leases = await leasesInRange(ctx.deps, tenantId, range.fromMs, toMs);
  const measured = await readGpuUtilization(ctx.deps.metrics, ctx.deps.catalog, leases, {
    fromMs: range.fromMs,
    toMs,
    nowMs,
    periodMs: UTILIZATION_DAY_MS,
  });
  const utilization = dailyUtilization(measured, range.fromMs, toMs);
  const idle = await ctx.deps.idleLedger.dailyIdle(tenantId, dayOf(range.fromMs), dayOf(toMs));
  const tasks = dailyTaskTime(tasksOf(leases), range.fromMs, toMs, nowMs);
  const queue = dailyQueueFigures(waitsOf(leases, nowMs), range.fromMs, toMs, nowMs);
  const days = demandProfile(leases, range.fromMs, range.toMs, nowMs, gpusOf).map((day) => ({
    ...day,
    tasks: tasks.get(day.day) ?? NO_TASK_TIME,
    queue: queue.get(day.day) ?? NO_QUEUE_FIGURES,
    gpuUtilization: utilization.get(day.day) ?? NO_TELEMETRY,
    ...idleShareOfDay(idle, day.day, day.gpuHours),
  }));
  return json(200, {
    from: new Date(range.fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    gpuUtilization: utilizationOfAll(measured),
    gpuUtilizationNote: UTILIZATION_METHOD,
    days,
  });
}

export const profileRoutes = {
  'GET /v1/profile': { handle: getProfile },
} as const satisfies Routes;

export const profileOpenApi = (): OpenApiGroup<keyof typeof profileRoutes> => ({
  tag: { name: 'Profile', description: "The tenant's demand per UTC day" },
  operations: {
    'GET /v1/profile': {
      operationId: 'getDemandProfile',
      summary:
        'Demand profile per UTC day: GPU-hours, average and peak concurrent GPUs, wait to RUNNING, task time, queue wait, GPU utilization',
      description: `Per UTC day of the range: GPU-hours, average and peak concurrent GPUs by workload and mode, the wait from request to RUNNING, task run time and wait from request to task start by workload, the wait for admission by workload with time over quota and GPU-hours refused for the account's EC2 quota, and the GPU utilization the instances' telemetry shows. ${historyRangeNote}`,
      parameters: rangeParameters,
      responses: {
        '200': {
          description:
            'days[]: {day, gpuHours, avgConcurrentGpus, peakConcurrentGpus, waitSeconds: {leases, p50, p95}, byWorkload, byMode, tasks, queue, gpuUtilization, idleGpuHours, idleMicroUsd, idleShare}; tasks: {runSeconds, waitSeconds: {tasks, p50, p95}, byWorkload} (seconds the tasks ran that day, and the wait from lease request to task start of the leases requested that day); queue: waits for admission that day (QueueFigures: wait p50/p95 by workload of the leases requested that day, time waiting on the tenant quota, GPU-hours waiting on the account EC2 quota by region and family); idle figures from the waste ledger (idleShare: idle GPU-hours over GPU-hours, null on a day no GPU ran); gpuUtilization (the range and each day) from the GPU telemetry, gpuUtilizationNote says how it is computed',
          content: jsonContent(
            responseObject({
              from: instant,
              to: instant,
              gpuUtilization: utilizationSchema,
              gpuUtilizationNote: { type: 'string' },
              days: { type: 'array', items: { type: 'object' } },
            }),
          ),
        },
        '400': errorResponse(
          `VALIDATION_FAILED: a bad from or to, or a range longer than ${MAX_HISTORY_RANGE_DAYS} days (details name the field)`,
        ),
        ...authErrors,
      },
    },
  },
});
