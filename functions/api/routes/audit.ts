import { auditableMonth } from '../../../shared/domain/audit/audit-month';
import { hasCurrentShape, type MonthlyAudit } from '../../../shared/domain/audit/monthly-audit';
import { REPORT_CSP, renderAuditReport } from '../../../shared/domain/audit/report-page';
import { RENTAL_MODES, WORKLOADS } from '../../../shared/domain/lease';
import { buildAudit } from '../../../shared/usecases/audit/build-audit';
import { type ApiEvent, type ApiResult, json, tenantOf } from '../http';
import {
  authErrors,
  errorResponse,
  instant,
  jsonContent,
  micro,
  microByDimension,
  type OpenApiGroup,
  ref,
  responseObject,
  utilizationSchema,
} from '../openapi-parts';
import { rawPathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

/**
 * The stored audit of the month (what the schedule announced), else one built
 * now; one stored in an earlier shape is built again, with today's figures.
 */
async function auditOf(event: ApiEvent, ctx: ApiContext): Promise<MonthlyAudit> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const month = auditableMonth(rawPathValue(event, 'month'), nowMs);
  const stored = await ctx.deps.audits.get(tenantId, month);
  return stored && hasCurrentShape(stored.audit)
    ? stored.audit
    : buildAudit(ctx.deps, tenantId, month, nowMs);
}

export async function getAudit(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, await auditOf(event, ctx));
}

export async function getAuditReport(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REPORT_CSP },
    body: renderAuditReport(await auditOf(event, ctx)),
  };
}

export const auditRoutes = {
  'GET /v1/audit/{month}': { handle: getAudit },
  'GET /v1/audit/{month}/report.html': { handle: getAuditReport },
} as const satisfies Routes;

const taskTimeProperties = {
  runSeconds: { type: 'integer' },
  waitSeconds: {
    type: 'object',
    properties: {
      tasks: { type: 'integer', description: 'Tasks started, of the leases requested in the window' },
      p50: { type: ['number', 'null'] },
      p95: { type: ['number', 'null'] },
    },
  },
};

const queueWaitProperties = {
  leases: {
    type: 'integer',
    description:
      'Leases requested in the window whose wait is known: admitted at once (0), admitted after waiting, or timed out (counted at their maxWait)',
  },
  timedOut: { type: 'integer', description: 'Of those, the ones that failed with QUEUE_TIMEOUT' },
  unfinished: {
    type: 'integer',
    description: 'Still waiting, or released while they waited (not in p50/p95)',
  },
  p50: { type: ['number', 'null'] },
  p95: { type: ['number', 'null'] },
};

const accountQuotaProperties = {
  gpuHours: { type: 'number', description: 'GPUs × hours leases waited on the account quota' },
  peakGpus: { type: 'integer', description: 'The most GPUs waiting on it at once' },
  timedOut: {
    type: 'object',
    description: 'Of those, the waits that ended in a time-out (demand never served)',
    properties: { leases: { type: 'integer' }, gpuHours: { type: 'number' } },
  },
};

export const auditOpenApi = (): OpenApiGroup<keyof typeof auditRoutes> => {
  // auditableMonth checks it (and that the month has begun).
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
  const monthErrors = {
    '400': errorResponse('INVALID_MONTH (not yyyy-mm) or MONTH_IN_FUTURE'),
    ...authErrors,
  };
  return {
    tag: {
      name: 'Audit',
      description:
        "A tenant's month: cost by mode, savings, reserved capacity, interruptions and a recommendation",
    },
    schemas: {
      MonthlyAudit: responseObject(
        {
          tenantId: { type: 'string' },
          month: { type: 'string' },
          generatedAt: instant,
          complete: { type: 'boolean', description: 'False while the month runs: figures are month to date' },
          costMicroUsd: micro,
          seconds: { type: 'integer', description: 'Instance-seconds metered' },
          byDimension: microByDimension(
            "The month's cost by what it paid for: instance time, the instances' volumes, data moved between regions",
          ),
          fleetOverhead: {
            type: 'object',
            description:
              "The fleet's stopped machines' volumes (the operator's overhead, in no tenant's cost)",
            properties: { scope: { type: 'string', enum: ['fleet'] }, storageMicroUsd: micro },
          },
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
              'Spot seconds at the catalog on-demand price of each instance type, minus what those seconds cost on spot (compute alone: volumes and transfers cost the same in either mode)',
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
          tasks: {
            type: 'object',
            description:
              "The tasks of the tenant's leases (from the task state on each lease): seconds run, and the wait in seconds from lease request to task start of the leases requested in the month / that day, overall and by workload",
            properties: {
              source: { type: 'string', enum: ['lease-tasks'] },
              month: ref('TaskTime'),
              daily: {
                type: 'array',
                items: {
                  allOf: [
                    { type: 'object', properties: { day: { type: 'string', format: 'date' } } },
                    ref('TaskTime'),
                  ],
                },
              },
            },
          },
          queue: {
            type: 'object',
            description:
              "The leases' waits for admission, from each lease's queue history: the month and each day",
            properties: {
              source: { type: 'string', enum: ['lease-queue-history'] },
              month: ref('QueueFigures'),
              daily: {
                type: 'array',
                items: {
                  allOf: [
                    { type: 'object', properties: { day: { type: 'string', format: 'date' } } },
                    ref('QueueFigures'),
                  ],
                },
              },
            },
          },
          idle: {
            type: 'object',
            description:
              "What the tenant's GPUs cost while idle (every GPU of a lease below its policy's line), from the waste ledger's daily rollups: the month, by project (dearest first, '-' for no project) and the five idlest leases; share is of the month's cost",
            properties: {
              source: { type: 'string', enum: ['idle-ledger'] },
              idleGpuHours: { type: 'number' },
              idleMicroUsd: micro,
              share: { type: 'number' },
              byProject: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    project: { type: 'string' },
                    idleGpuHours: { type: 'number' },
                    idleMicroUsd: micro,
                  },
                },
              },
              idlestLeases: {
                type: 'array',
                maxItems: 5,
                items: {
                  type: 'object',
                  properties: {
                    leaseId: { type: 'string' },
                    project: { type: 'string' },
                    idleGpuHours: { type: 'number' },
                    idleMicroUsd: micro,
                  },
                },
              },
            },
          },
          findings: {
            type: 'array',
            description:
              'What idle reserved capacity, idle GPUs (past 20% of the cost) and interruptions mean for the tenant',
            items: { type: 'string' },
          },
          recommendation: { oneOf: [ref('AuditRecommendation'), { type: 'null' }] },
        },
        [],
        {
          description:
            "A tenant's month: cost by mode from the daily rollups, spot savings, reserved capacity, interruptions, concurrency and the planner's recommendation.",
        },
      ),
      AuditRecommendation: responseObject(
        {
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
        [],
        {
          description:
            'The month replayed through the planner with the live policies, at the planner’s model prices (every GPU a p3.2xlarge, V100 spot traces; see model.note): savings compare the month as it ran with the policy at those prices.',
        },
      ),
      TaskTime: responseObject(
        {
          ...taskTimeProperties,
          byWorkload: {
            type: 'object',
            description: 'The same figures per workload that had a task run or start',
            properties: Object.fromEntries(
              WORKLOADS.map((w) => [w, { type: 'object', properties: taskTimeProperties }]),
            ),
          },
        },
        [],
        { description: 'Seconds the tasks ran, and the wait (seconds) from lease request to task start' },
      ),
      QueueFigures: responseObject(
        {
          waitSeconds: {
            type: 'object',
            description:
              'The wait for admission (admitted-at minus queued-at, seconds) of the leases requested in the window, overall and by workload',
            properties: {
              ...queueWaitProperties,
              byWorkload: {
                type: 'object',
                properties: Object.fromEntries(
                  WORKLOADS.map((w) => [w, { type: 'object', properties: queueWaitProperties }]),
                ),
              },
            },
          },
          overQuota: {
            type: 'object',
            description:
              "Time in the window the tenant's leases waited on its own quota: summed over leases, and wall-clock time with at least one waiting",
            properties: { leaseSeconds: { type: 'number' }, wallSeconds: { type: 'number' } },
          },
          accountQuota: {
            type: 'object',
            description:
              "Waits in the window on the account's EC2 vCPU quota, overall and by region and instance family (null: not recorded): what to ask AWS for",
            properties: {
              ...accountQuotaProperties,
              byPool: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    region: { type: ['string', 'null'] },
                    family: { type: ['string', 'null'], enum: ['G', 'P', null] },
                    ...accountQuotaProperties,
                  },
                },
              },
            },
          },
        },
        [],
        {
          description:
            "A window's waits for admission: wait p50/p95, time waiting on the tenant's quota, GPU-hours waiting on the account's EC2 quota",
        },
      ),
    },
    operations: {
      'GET /v1/audit/{month}': {
        operationId: 'getMonthlyAudit',
        summary: "The tenant's monthly audit (the stored one once the schedule built it on the 1st)",
        description:
          "The month built from the daily rollups, the interruption notices, the reservations, the GPU telemetry and the planner; the current month is built to date. The month bounds what it reads: the leases created in it (or in the week before, whose wait may reach into it) and those that ran in it, never the tenant's whole history.",
        parameters: [monthParameter],
        responses: {
          '200': { description: 'The audit', content: jsonContent(ref('MonthlyAudit')) },
          ...monthErrors,
        },
      },
      'GET /v1/audit/{month}/report.html': {
        operationId: 'getMonthlyAuditReport',
        summary: 'The audit as one self-contained HTML page (inline SVG charts, no script, no request)',
        description:
          'The same audit rendered for people: one HTML page with inline SVG charts that loads nothing.',
        parameters: [monthParameter],
        responses: {
          '200': { description: 'The report page', content: { 'text/html': { schema: { type: 'string' } } } },
          ...monthErrors,
        },
      },
    },
  };
};
