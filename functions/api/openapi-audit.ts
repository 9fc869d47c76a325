import { RENTAL_MODES, WORKLOADS } from '../../shared/domain/lease';
import { authErrors, errorResponse, instant, jsonContent, micro, ref } from './openapi-parts';

const monthParameter = {
  name: 'month',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
  description: 'The month (UTC) to audit: this month (to date) or an earlier one',
};
const byMode = {
  type: 'object',
  properties: Object.fromEntries(RENTAL_MODES.map((mode) => [mode, micro])),
};
/** GPU utilization over a stretch of time, from the CloudWatch agent's samples. */
export const utilizationSchema = {
  type: 'object',
  description:
    'The average of every per-minute utilization sample of every GPU (each GPU-minute weighs the same); percent is null and telemetry "none" when no GPU sent a sample: no telemetry, never 0%',
  properties: {
    percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    telemetry: { type: 'string', enum: ['complete', 'partial', 'none'] },
    measuredGpuHours: { type: 'number', description: 'GPU-hours the samples cover' },
    gpusWithoutTelemetry: { type: 'integer', description: 'GPUs that ran and sent no sample' },
  },
};

export const auditSchemas = {
  MonthlyAudit: {
    type: 'object',
    description:
      "A tenant's month: cost by mode from the daily rollups, spot savings, reserved capacity, interruptions, concurrency and the planner's recommendation.",
    properties: {
      tenantId: { type: 'string' },
      month: { type: 'string' },
      generatedAt: instant,
      complete: { type: 'boolean', description: 'False while the month runs: figures are month to date' },
      costMicroUsd: micro,
      seconds: { type: 'integer', description: 'Instance-seconds metered' },
      byMode: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            mode: { type: 'string', enum: RENTAL_MODES },
            seconds: { type: 'integer' },
            costMicroUsd: micro,
            share: { type: 'number', description: 'Of the month’s cost, 0-1' },
          },
        },
      },
      daily: {
        type: 'array',
        items: {
          type: 'object',
          properties: { day: { type: 'string', format: 'date' }, costMicroUsd: byMode },
        },
      },
      spotSavings: {
        type: 'object',
        description:
          'Spot seconds at the catalog on-demand price of each instance type, minus what spot cost',
        properties: {
          spotSeconds: { type: 'integer' },
          spotMicroUsd: micro,
          onDemandMicroUsd: micro,
          savingMicroUsd: micro,
          region: { type: 'string' },
        },
      },
      reserved: {
        type: 'object',
        description:
          "The fleet's reserved commitments (shared by every tenant, the same in every audit): idle time recorded at each metering tick, at each commitment's effective rate",
        properties: {
          source: { type: 'string', enum: ['reservations'] },
          scope: { type: 'string', enum: ['fleet'] },
          commitments: { type: 'integer', description: 'Commitments active in the month' },
          gpus: { type: 'integer', description: 'GPUs those commitments hold' },
          idleGpuHours: { type: 'number' },
          idleMicroUsd: micro,
        },
      },
      interruptions: {
        type: 'object',
        description: "The tenant's instances spot reclaimed (or EC2 ended unasked) in the month",
        properties: {
          source: { type: 'string', enum: ['interruption-notices'] },
          count: { type: 'integer' },
          byWorkload: {
            type: 'object',
            properties: Object.fromEntries(WORKLOADS.map((w) => [w, { type: 'integer' }])),
          },
        },
      },
      concurrency: {
        type: 'object',
        description: 'Peak GPUs held at once in each hour from fromMs',
        properties: {
          fromMs: { type: 'integer' },
          stepMs: { type: 'integer' },
          gpus: { type: 'array', items: { type: 'integer' } },
        },
      },
      utilization: {
        type: 'object',
        description:
          "GPU utilization (%) of the tenant's GPUs from the CloudWatch agent's nvidia_gpu metrics",
        properties: {
          source: { type: 'string', enum: ['cloudwatch-agent'] },
          method: { type: 'string', description: 'How the figures are computed' },
          month: utilizationSchema,
          byHourOfDay: {
            type: 'array',
            description: 'Hours 0-23 UTC; null for an hour no GPU sent a sample in',
            items: { type: ['number', 'null'] },
            minItems: 24,
            maxItems: 24,
          },
        },
      },
      findings: {
        type: 'array',
        description: 'What idle reserved capacity and interruptions mean for the tenant',
        items: { type: 'string' },
      },
      recommendation: { oneOf: [ref('AuditRecommendation'), { type: 'null' }] },
    },
  },
  AuditRecommendation: {
    type: 'object',
    description:
      'The month replayed through the planner with the live policies, at the planner’s model prices (every GPU a p3.2xlarge, V100 spot traces; see model.note): savings compare the month as it ran with the policy at those prices.',
    properties: {
      model: {
        type: 'object',
        properties: {
          instanceType: { type: 'string' },
          onDemandMicroUsdPerHour: micro,
          reservedMicroUsdPerHour: micro,
          note: { type: 'string' },
        },
      },
      reservedGpus: { type: 'integer', description: 'Reserved GPUs to commit for the next 30-day term' },
      reservedReason: { type: 'string' },
      reservedSavingMicroUsd: micro,
      spotCandidates: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            workload: { type: 'string', enum: WORKLOADS },
            leases: { type: 'integer' },
            gpuHours: { type: 'number' },
          },
        },
      },
      asRanMicroUsd: micro,
      policyMicroUsd: micro,
      policySavingMicroUsd: micro,
      recommendedMicroUsd: micro,
      hindsightMicroUsd: micro,
      savingShare: { type: 'number' },
      estimatedSavingOfPaidMicroUsd: micro,
    },
  },
};

const monthErrors = {
  '400': errorResponse('INVALID_MONTH (not yyyy-mm) or MONTH_IN_FUTURE'),
  ...authErrors,
};

export const auditPaths = {
  '/v1/audit/{month}': {
    get: {
      summary: "The tenant's monthly audit (the stored one once the schedule built it on the 1st)",
      parameters: [monthParameter],
      responses: {
        '200': { description: 'The audit', content: jsonContent(ref('MonthlyAudit')) },
        ...monthErrors,
      },
    },
  },
  '/v1/audit/{month}/report.html': {
    get: {
      summary: 'The audit as one self-contained HTML page (inline SVG charts, no script, no request)',
      parameters: [monthParameter],
      responses: {
        '200': { description: 'The report page', content: { 'text/html': { schema: { type: 'string' } } } },
        ...monthErrors,
      },
    },
  },
};
