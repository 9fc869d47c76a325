import { BUDGET_ACTIONS } from '../domain/budgets/budget';
import { LEASE_STARTS, RENTAL_MODES, WORKLOADS } from '../domain/lease';
import { TASK_STATUSES } from '../domain/tasks/state';
import { leaseGpusSchema } from '../domain/waste/fractional';
import * as z from '../zod';

/*
 * Every domain event on the gpurent bus, one entry each: its schema version and
 * the zod schema of what the producer puts in `detail`. The publisher validates
 * with these, `DomainEvent` is derived from them and `npm run events` writes the
 * JSON Schemas integrators read (docs/events/). Adding an event is one entry
 * here; changing an event's shape incompatibly means a new version.
 */

const leaseId = z.string().check(z.regex(/^lease_[0-9a-z]{26}$/));
const microUsd = z.number().check(z.int(), z.describe('Integer micro-dollars (1 USD = 1,000,000).'));
const epochMs = z.number().check(z.int(), z.nonnegative(), z.describe('Milliseconds since the Unix epoch.'));
const month = z.string().check(z.regex(/^\d{4}-\d{2}$/), z.describe('UTC month, yyyy-mm.'));
const project = z.string().check(z.regex(/^[a-z0-9-]{1,64}$/));
/** Where the provisioner placed a lease, and why. */
/** Where a lease waiting for admission stands (LeaseQueued, and a scaling group's waiting members). */
const queueState = {
  reason: z.enum(['quota', 'capacity', 'account-quota']),
  position: z.number().check(z.int(), z.gte(1)),
  estimatedStartAtMs: z.nullable(epochMs),
  estimateBasis: z.string(),
  waitEndsAtMs: z.optional(
    epochMs.check(z.describe('When it stops waiting: FAILED with QUEUE_TIMEOUT unless admitted by then.')),
  ),
};

const placement = z.strictObject({
  region: z.string(),
  zone: z.string(),
  instanceType: z.string(),
  instances: z.number().check(z.int(), z.gte(1)),
  mode: z.enum(RENTAL_MODES),
  hourlyMicroUsd: microUsd,
  image: z.optional(z.string()),
  reason: z.string(),
  start: z.optional(z.enum(LEASE_STARTS)),
  secondsToRunning: z.optional(z.number().check(z.nonnegative())),
});

export const DOMAIN_EVENTS = {
  LeaseRequested: {
    version: 1,
    description: 'A lease was accepted and is waiting to be provisioned.',
    detail: z.strictObject({
      leaseId,
      workload: z.enum(WORKLOADS),
      gpus: leaseGpusSchema,
      instanceType: z.string().check(z.minLength(1)),
      project: z.optional(project),
      expiresAtMs: z
        .optional(epochMs)
        .check(z.describe('When the lease is released on its own; absent: never.')),
    }),
  },
  LeaseRunning: {
    version: 1,
    description: "The lease's instances are launched and billed; the mode and pool chosen and why.",
    detail: z.strictObject({
      leaseId,
      mode: z.enum(RENTAL_MODES),
      reason: z.string(),
      gpus: leaseGpusSchema,
      placement: z.optional(placement),
    }),
  },
  LeaseInterrupted: {
    version: 1,
    description: 'EC2 warned that it takes back a spot instance of the lease; a replacement is queued.',
    detail: z.strictObject({
      leaseId,
      instanceId: z.string().check(z.minLength(1)),
      zone: z.string(),
      warnedAtMs: epochMs,
    }),
  },
  LeaseReplaced: {
    version: 1,
    description: 'An interrupted instance of the lease was replaced; the lease runs again.',
    detail: z.strictObject({ leaseId, replacedInstanceId: z.string().check(z.minLength(1)), placement }),
  },
  LeaseReleased: {
    version: 1,
    description: 'Every instance of the lease is terminated and its bill closed.',
    detail: z.strictObject({ leaseId, totalMicroUsd: microUsd, endedAtMs: epochMs }),
  },
  TaskStarted: {
    version: 1,
    description: "An attempt of the lease's task was sent to its instance (SSM Run Command).",
    detail: z.strictObject({
      leaseId,
      attempt: z.number().check(z.int(), z.gte(1)),
      instanceId: z.string().check(z.minLength(1)),
      commandId: z.string().check(z.minLength(1)),
      waitedMs: z
        .number()
        .check(z.int(), z.nonnegative(), z.describe('From the lease request to this attempt being sent.')),
    }),
  },
  TaskEnded: {
    version: 1,
    description: "The lease's task ended: succeeded, failed (exit code, time or attempts) or stopped.",
    detail: z.strictObject({
      leaseId,
      status: z.enum(TASK_STATUSES),
      attempt: z.number().check(z.int(), z.nonnegative()),
      exitCode: z.optional(z.number().check(z.int())),
      endedAtMs: epochMs,
      failureReason: z.optional(z.string()),
    }),
  },
  LeaseSessionOpened: {
    version: 1,
    description:
      "Short-lived credentials for a Session Manager session to the lease's instances were handed out.",
    detail: z.strictObject({
      leaseId,
      instanceIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
      expiresAtMs: epochMs.check(z.describe('When the credentials stop working.')),
    }),
  },
  LeaseFailed: {
    version: 1,
    description: 'Nothing could be launched for the lease; it costs nothing.',
    detail: z.strictObject({ leaseId, reason: z.string() }),
  },
  LeaseQueued: {
    version: 1,
    description:
      "No room for the lease now (its tenant's quota, capacity, or the account's EC2 quota): it waits in the admission queue; nothing runs or bills.",
    detail: z.strictObject({ leaseId, ...queueState }),
  },
  LeaseAdmitted: {
    version: 1,
    description: 'A queued lease fits now: it goes to provisioning, once.',
    detail: z.strictObject({ leaseId, waitedMs: z.number().check(z.int(), z.nonnegative()) }),
  },
  LeaseQueueTimedOut: {
    version: 1,
    description:
      'The lease waited its maxWaitMinutes without admission: it is FAILED with QUEUE_TIMEOUT, never ran and never billed.',
    detail: z.strictObject({ leaseId, maxWaitMinutes: z.number().check(z.int(), z.gte(1)) }),
  },
  OrphanInstanceTerminated: {
    version: 1,
    description: 'The reconciler ended a managed GPU instance that no live lease owned.',
    detail: z.strictObject({
      instanceId: z.string().check(z.minLength(1)),
      leaseId: z.optional(z.string()),
      instanceType: z.string(),
      launchedAtMs: epochMs,
    }),
  },
  BudgetThresholdCrossed: {
    version: 1,
    description: "A budget's spend (actual or forecast) crossed one of its thresholds this month.",
    detail: z.strictObject({
      budget: z.string(),
      project: z.optional(project),
      month,
      threshold: z.number().check(z.int(), z.gte(1)),
      basis: z.enum(['actual', 'forecast']),
      valueMicroUsd: microUsd,
      limitMicroUsd: microUsd,
      forecastMicroUsd: microUsd,
      alertId: z
        .string()
        .check(z.minLength(1), z.describe('The same id as the SNS alert; repeated on a resend.')),
    }),
  },
  SpendAnomaly: {
    version: 1,
    description:
      "A tenant's (or project's) spend rate stayed above its seasonal baseline for several metering runs: one per episode.",
    detail: z.strictObject({
      project: z.optional(project),
      startedAtMs: epochMs,
      rateMicroUsdPerHour: microUsd,
      expectedMicroUsdPerHour: microUsd,
      lineMicroUsdPerHour: microUsd,
      leaseIds: z.readonly(z.array(leaseId)),
      alertId: z
        .string()
        .check(z.minLength(1), z.describe('The same id as the SNS alert; repeated on a resend.')),
    }),
  },
  BudgetActionTaken: {
    version: 1,
    description: 'A budget reached its limit and its action was taken (and leases released, if any).',
    detail: z.strictObject({
      budget: z.string(),
      project: z.optional(project),
      month,
      action: z.enum(BUDGET_ACTIONS),
      spendMicroUsd: microUsd,
      limitMicroUsd: microUsd,
      releasedLeaseIds: z.readonly(z.array(leaseId)),
    }),
  },
  ScalingDecision: {
    version: 1,
    description:
      'A scaling group changed size (or launched/released members, or members started or stopped waiting in the admission queue): the decision, why, and the metric values behind it.',
    detail: z.strictObject({
      group: z.string().check(z.minLength(1)),
      atMs: epochMs,
      action: z.enum(['scale-out', 'scale-in', 'none']),
      from: z.number().check(z.int(), z.gte(0)),
      to: z.number().check(z.int(), z.gte(0)),
      reason: z.string(),
      observations: z.readonly(
        z.array(
          z.strictObject({
            rule: z.enum(['scaleOut', 'scaleIn']),
            metric: z.string(),
            values: z.readonly(z.array(z.number())),
          }),
        ),
      ),
      launched: z.readonly(z.array(leaseId)),
      released: z.readonly(z.array(leaseId)),
      waiting: z.optional(
        z
          .readonly(z.array(z.strictObject({ leaseId, ...queueState })))
          .check(
            z.describe('Members whose leases wait in the admission queue, each with its reason and place'),
          ),
      ),
    }),
  },
  GpuUnhealthy: {
    version: 1,
    description: 'A GPU is hotter than its limit or has reported nothing for 5 minutes (once per episode).',
    detail: z.strictObject({
      leaseId,
      instanceId: z.string().check(z.minLength(1)),
      gpuIndex: z.number().check(z.int(), z.gte(0)),
      status: z.enum(['hot', 'silent']),
      reason: z.string(),
    }),
  },
  LeaseIdle: {
    version: 1,
    description:
      "Every GPU of the lease stayed below the idle policy's line for its window (once per idle episode); what the policy does follows.",
    detail: z.strictObject({
      leaseId,
      episodeId: z.string().check(z.minLength(1), z.describe('The same id as the SNS notice.')),
      idleSinceMs: epochMs,
      gpus: z.number().check(z.int(), z.gte(1), z.describe('GPUs judged (every GPU of every instance).')),
      belowPercent: z.number().check(z.gte(0), z.lte(100)),
      forMinutes: z.number().check(z.int(), z.gte(1)),
      peakPercent: z
        .number()
        .check(z.gte(0), z.describe("The window's highest per-minute sample of any GPU.")),
      meanPercent: z.number().check(z.gte(0)),
      action: z.enum(['notify', 'release']),
    }),
  },
  AuditReady: {
    version: 1,
    description: "Last month's audit of the tenant is stored and can be read at GET /v1/audit/{month}.",
    detail: z.strictObject({
      month,
      auditId: z
        .string()
        .check(z.minLength(1), z.describe('The same id as the SNS summary; repeated on a resend.')),
      costMicroUsd: microUsd,
      reservedGpus: z.number().check(z.int(), z.gte(0)),
      estimatedSavingMicroUsd: microUsd,
    }),
  },
  JobPolicyDecision: {
    version: 1,
    description:
      "The deadline policy's decision for a job with a deadline (spot in a pool, on-demand, or wait), why, and the slack it left.",
    detail: z.strictObject({
      leaseId,
      atMs: epochMs,
      trigger: z.enum(['launch', 'interruption', 'schedule']),
      action: z.enum(['spot', 'on-demand', 'wait']),
      region: z.optional(z.string()),
      zone: z.optional(z.string()),
      reason: z.string(),
      slackMs: z
        .number()
        .check(
          z.int(),
          z.describe('Time the job may still lose before it must run on-demand; negative once it must.'),
        ),
      doneMs: z.number().check(z.int(), z.nonnegative(), z.describe('Work saved in the latest checkpoint.')),
    }),
  },
} as const satisfies Record<string, DomainEventDefinition>;

export interface DomainEventDefinition {
  /** Bumped on an incompatible change; the schema file and `detail.schemaVersion` carry it. */
  readonly version: number;
  readonly description: string;
  readonly detail: z.ZodMiniObject;
}

export type DomainEventType = keyof typeof DOMAIN_EVENTS;

export const DOMAIN_EVENT_TYPES = Object.keys(DOMAIN_EVENTS) as DomainEventType[];

export function isDomainEventType(type: string): type is DomainEventType {
  return Object.hasOwn(DOMAIN_EVENTS, type);
}

/** What every published `detail` carries besides the event's own fields. */
export const envelopeFields = {
  eventId: z
    .string()
    .check(
      z.regex(/^[0-9a-f]{32}$/),
      z.describe('Stable per fact: a redelivered or re-published event has the same id; drop repeats.'),
    ),
  schemaVersion: z.number().check(z.int(), z.gte(1)),
  tenantId: z.string().check(z.minLength(1)),
};

/** The whole `detail` integrators receive for an event type. */
export function publishedDetailSchema(type: DomainEventType) {
  const { version, detail } = DOMAIN_EVENTS[type];
  return z.extend(detail, { ...envelopeFields, schemaVersion: z.literal(version) });
}
