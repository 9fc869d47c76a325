import { METRIC_PERIODS, type MetricPeriod } from '../../../shared/domain/gpu-telemetry';
import type { GpuSeries } from '../../../shared/usecases/lease-metrics';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import {
  authErrors,
  errorResponse,
  instant as instantSchema,
  jsonContent,
  type OpenApiGroup,
  ref,
  responseObject,
} from '../openapi-parts';
import { pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { leaseIdDoc, leaseIdParameter } from './leases';

/** At most this many datapoints per series: a day by the minute, two months by the hour. */
const MAX_DATAPOINTS = 1_440;
const HOUR_MS = 3_600_000;

const instant = z.iso.datetime({
  offset: true,
  message: 'must be an ISO-8601 date-time such as 2026-11-01T00:00:00Z',
});

const metricsQuery = (nowMs: number) =>
  z
    .pipe(
      z.strictObject({
        from: z.optional(instant),
        to: z.optional(instant),
        period: z._default(z.enum(METRIC_PERIODS, { message: 'must be 60, 300 or 3600 (seconds)' }), '60'),
      }),
      z.transform((query: { from?: string; to?: string; period: MetricPeriod }) => {
        const toMs = query.to ? Date.parse(query.to) : nowMs;
        return {
          fromMs: query.from ? Date.parse(query.from) : toMs - HOUR_MS,
          toMs,
          periodSeconds: Number(query.period),
        };
      }),
    )
    .check(
      z.superRefine((window, ctx) => {
        if (window.fromMs >= window.toMs) {
          ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be before to' });
        }
        if ((window.toMs - window.fromMs) / (window.periodSeconds * 1000) > MAX_DATAPOINTS) {
          ctx.addIssue({
            code: 'custom',
            path: ['period'],
            message: `the range holds more than ${MAX_DATAPOINTS} periods of ${window.periodSeconds} s; use a longer period or a shorter range`,
          });
        }
      }),
    );

const seriesBody = (series: GpuSeries) => ({
  unit: series.unit,
  avg: series.avg,
  p95: series.p95,
  max: series.max,
  datapoints: series.datapoints.map((d) => ({ at: new Date(d.timestampMs).toISOString(), value: d.value })),
});

export async function getLeaseMetrics(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const leaseId = pathValue(event, leaseIdParameter);
  const window = validate(metricsQuery(ctx.deps.now()), event.queryStringParameters ?? {}, 'query');
  const instances = await ctx.scaling.leaseMetrics(tenantId, leaseId, window);
  return json(200, {
    leaseId,
    from: new Date(window.fromMs).toISOString(),
    to: new Date(window.toMs).toISOString(),
    period: window.periodSeconds,
    instances: instances.map((instance) => ({
      instanceId: instance.instanceId,
      gpus: instance.gpus.map((gpu) => ({
        index: gpu.index,
        utilization: seriesBody(gpu.utilization),
        memoryUsed: seriesBody(gpu.memoryUsed),
        temperature: seriesBody(gpu.temperature),
        power: seriesBody(gpu.power),
        health: gpu.health,
      })),
    })),
  });
}

export const leaseMetricsRoutes = {
  'GET /v1/leases/{id}/metrics': { handle: getLeaseMetrics },
} as const satisfies Routes;

export const leaseMetricsOpenApi = (): OpenApiGroup<keyof typeof leaseMetricsRoutes> => {
  const nullableNumber = { type: ['number', 'null'] };
  const series = {
    type: 'object',
    properties: {
      unit: { type: 'string' },
      avg: nullableNumber,
      p95: { ...nullableNumber, description: '95th percentile of the period values (nearest rank)' },
      max: nullableNumber,
      datapoints: {
        type: 'array',
        items: { type: 'object', properties: { at: instantSchema, value: { type: 'number' } } },
      },
    },
  };
  return {
    tag: { name: 'GPU metrics', description: "The GPU telemetry of a lease's instances" },
    schemas: {
      LeaseGpuMetrics: responseObject({
        leaseId: { type: 'string' },
        from: instantSchema,
        to: instantSchema,
        period: { type: 'integer', enum: [60, 300, 3600] },
        instances: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              instanceId: { type: 'string' },
              gpus: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    index: { type: 'integer' },
                    utilization: series,
                    memoryUsed: series,
                    temperature: series,
                    power: series,
                    health: {
                      type: 'object',
                      description:
                        'As of `to`, for running GPUs: hot above the limit (85 °C), silent after 5 minutes without data',
                      properties: {
                        status: { type: 'string', enum: ['ok', 'hot', 'silent'] },
                        reason: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      }),
    },
    operations: {
      'GET /v1/leases/{id}/metrics': {
        operationId: 'getLeaseMetrics',
        summary: "GPU utilization, memory, temperature and power of a lease's instances",
        description:
          'Series per instance and GPU from the CloudWatch agent, with the average, 95th percentile and maximum of each, and the health of running GPUs.',
        parameters: [
          leaseIdDoc(),
          {
            name: 'from',
            in: 'query',
            schema: instantSchema,
            description: 'Start; default: one hour before to',
          },
          { name: 'to', in: 'query', schema: instantSchema, description: 'End; default: now' },
          {
            name: 'period',
            in: 'query',
            schema: { type: 'string', enum: METRIC_PERIODS, default: '60' },
            description: 'Seconds per datapoint; at most 1,440 datapoints per series',
          },
        ],
        responses: {
          '200': { description: 'Series per instance and GPU', content: jsonContent(ref('LeaseGpuMetrics')) },
          '400': errorResponse('INVALID_LEASE_ID or VALIDATION_FAILED'),
          '404': errorResponse('LEASE_NOT_FOUND'),
          ...authErrors,
        },
      },
    },
  };
};
