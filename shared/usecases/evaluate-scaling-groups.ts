import { mapWithConcurrency } from '../concurrency';
import type { Lease } from '../domain/lease';
import {
  decideScaling,
  type GroupMember,
  isLive,
  launchModes,
  type MetricSeries,
  policyOf,
  type ScalingDecision,
  sameWaiting,
  scaleInOrder,
  type WaitingMember,
  waitingMembers,
  withWaiting,
} from '../domain/scaling';
import { BudgetExceededError } from '../errors';
import type { MetricReader } from '../ports/metrics';
import type {
  GpuHealthMarks,
  LastEvaluation,
  ScalingGroup,
  ScalingGroupRepository,
} from '../ports/scaling-groups';
import { createLease, type LeaseCreationDeps } from './create-lease';
import { HEALTH_WINDOW_PERIODS, reportGpuHealth, watchedGpus } from './gpu-health-sweep';
import { evaluateIdle, type IdleDeps, type IdleSummary, planIdleReads } from './idle/idle-evaluation';
import { requestRelease } from './release-lease';
import { membersOf } from './scaling-group-members';
import { planScalingMetrics } from './scaling-metrics';

export type ScalingDeps = LeaseCreationDeps &
  IdleDeps & {
    readonly groups: ScalingGroupRepository;
    readonly metrics: MetricReader;
    readonly marks: GpuHealthMarks;
    /** A GPU hotter than this is reported unhealthy. */
    readonly temperatureLimitC: number;
  };

/** Groups decided and acted on at once; each acts through a handful of DynamoDB and SQS calls. */
const CONCURRENT_GROUPS = 8;

export type GroupOutcome = 'acted' | 'unchanged' | 'claimed-elsewhere' | 'failed';

/**
 * Which way a decision that changed something went: the policy grew or shrank
 * the group, or (`converge`) kept its size but replaced failed or released members.
 */
export type DecisionDirection = 'scale-out' | 'scale-in' | 'converge';

export interface EvaluationSummary {
  readonly groups: number;
  readonly metricQueries: number;
  readonly outcomes: Readonly<Record<GroupOutcome, number>>;
  readonly launched: number;
  readonly released: number;
  /** Decisions that changed something, by direction (the dashboard's scaling decisions). */
  readonly decisions: Readonly<Record<DecisionDirection, number>>;
  /** GPUs newly reported hot or silent (GpuUnhealthy events). */
  readonly unhealthyGpus: number;
  /** The idle evaluation of every open lease, which rode in the same metric read. */
  readonly idle: IdleSummary;
  /** Groups whose evaluation threw, with the error; the others still ran. */
  readonly failures: readonly { tenantId: string; name: string; error: unknown }[];
}

/**
 * Groups read, and their metrics read, per page of the pass: what one page
 * holds in memory and asks CloudWatch for is bounded whatever the number of
 * groups of all tenants.
 */
export const GROUPS_PER_PAGE = 100;

/**
 * One evaluation of every active scaling group, as the one-minute schedule
 * runs it, page by page of `pageSize` groups: the page's members' leases, one
 * metric read for the page's groups (the first page's also carries the health
 * of every running GPU, reported as GpuUnhealthy, and the idle evaluation),
 * then per group the policy's decision, claimed on the group's version so that
 * an overlapping evaluation never acts twice, then launches (through
 * createLease, so every rule a lease obeys applies to members) and releases
 * until the group's size matches its desired size.
 */
export async function evaluateScalingGroups(
  deps: ScalingDeps,
  nowMs: number,
  pageSize = GROUPS_PER_PAGE,
): Promise<EvaluationSummary> {
  const open = await deps.leases.openInstances();
  const gpus = watchedGpus(deps.catalog, open);
  const idleReads = await planIdleReads(deps, open);
  const totals = {
    groups: 0,
    metricQueries: 0,
    launched: 0,
    released: 0,
    unhealthyGpus: 0,
  };
  let idle: IdleSummary | undefined;
  const outcomes: Record<GroupOutcome, number> = {
    acted: 0,
    unchanged: 0,
    'claimed-elsewhere': 0,
    failed: 0,
  };
  const decisions: Record<DecisionDirection, number> = { 'scale-out': 0, 'scale-in': 0, converge: 0 };
  const failures: EvaluationSummary['failures'][number][] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await deps.groups.listPage(pageSize, cursor);
    cursor = page.nextCursor;
    const first = pages === 0;
    pages += 1;
    const groups = page.groups.filter((g) => g.status === 'ACTIVE');
    totals.groups += groups.length;
    const withMembers = await mapWithConcurrency(groups, CONCURRENT_GROUPS, async (group) => ({
      group,
      tenantId: group.tenantId,
      spec: group.spec,
      members: await membersOf(deps, group),
    }));
    // The fleet-wide reads (GPU health, idle) ride in the first page's metric read only.
    const plan = planScalingMetrics(
      withMembers,
      nowMs,
      first
        ? {
            queries: [...gpus.map((gpu) => gpu.query), ...idleReads.queries],
            windowPeriods: Math.max(HEALTH_WINDOW_PERIODS, idleReads.windowPeriods),
          }
        : undefined,
    );
    totals.metricQueries += plan.queries.length;
    const results = await deps.metrics.read(plan.queries, plan.fromMs, plan.toMs);
    if (first) {
      const extra = (i: number) => results[plan.extraIndexes[i] ?? -1] ?? [];
      totals.unhealthyGpus = await reportGpuHealth(
        deps,
        gpus.map((gpu, i) => ({ ...gpu, temperature: extra(i) })),
        nowMs,
        deps.temperatureLimitC,
      );
      idle = await evaluateIdle(
        deps,
        idleReads,
        idleReads.queries.map((_, i) => extra(gpus.length + i)),
        nowMs,
      );
    }
    await mapWithConcurrency(withMembers, CONCURRENT_GROUPS, async ({ group, members }, index) => {
      try {
        const outcome = await evaluateGroup(
          deps,
          group,
          members,
          plan.seriesOf(index, results),
          nowMs,
          plan.refusedOf(index),
        );
        outcomes[outcome.outcome] += 1;
        if (outcome.direction) decisions[outcome.direction] += 1;
        totals.launched += outcome.launched.length;
        totals.released += outcome.released.length;
      } catch (error) {
        outcomes.failed += 1;
        failures.push({ tenantId: group.tenantId, name: group.name, error });
      }
    });
  } while (cursor);
  return {
    groups: totals.groups,
    metricQueries: totals.metricQueries,
    // The first page always runs (an empty one too), so the idle evaluation did.
    idle: idle as IdleSummary,
    outcomes,
    launched: totals.launched,
    released: totals.released,
    decisions,
    unhealthyGpus: totals.unhealthyGpus,
    failures,
  };
}

interface GroupResult {
  readonly outcome: GroupOutcome;
  /** Set when the group acted. */
  readonly direction?: DecisionDirection;
  readonly launched: readonly string[];
  readonly released: readonly string[];
}

async function evaluateGroup(
  deps: ScalingDeps,
  group: ScalingGroup,
  members: readonly GroupMember[],
  metrics: MetricSeries,
  nowMs: number,
  refusedNamespaces: readonly string[] = [],
): Promise<GroupResult> {
  const waiting = waitingMembers(members);
  const decided = decideScaling({
    policy: policyOf(group.spec),
    metrics,
    currentCapacity: group.desired,
    lastAction: group.lastAction,
    nowMs,
    waitingForAdmission: waiting.length,
  });
  // Said in the reason the tenant reads, so that a group stored before the rule is fixed, not puzzled over.
  const decision =
    refusedNamespaces.length === 0
      ? decided
      : {
          ...decided,
          reason: `${decided.reason}; not read: ${refusedNamespaces.join(', ')} (a custom condition reads only the tenant's gpurent/${group.tenantId}/ namespaces; PUT the group with one of those)`,
        };
  const acted = decision.action !== 'none';
  const lastEvaluation = evaluationOf(decision, waiting, nowMs);
  const claimed = await deps.groups.claim(group, {
    desired: decision.to,
    lastAction: acted
      ? { action: decision.action as 'scale-out' | 'scale-in', atMs: nowMs }
      : group.lastAction,
    lastEvaluation,
  });
  if (!claimed) return { outcome: 'claimed-elsewhere', launched: [], released: [] };

  const ended = members.filter((m) => !isLive(m) && m.status !== 'RELEASING').map((m) => m.leaseId);
  await deps.groups.removeMembers(group.tenantId, group.name, ended);
  const live = members.filter(isLive);
  const launched = await launchMembers(deps, group, live, decision.to - live.length);
  const released = await releaseMembers(deps, group, live, live.length - decision.to, nowMs);

  if (acted || launched.length > 0 || released.length > 0) {
    await publishDecision(
      deps,
      group,
      { ...lastEvaluation, observations: decision.observations },
      launched,
      released,
    );
    const direction = decision.action === 'none' ? 'converge' : decision.action;
    return { outcome: 'acted', direction, launched, released };
  }
  // Members joined or left the admission queue: the group's size did not change, but its history says so.
  if (!sameWaiting(waiting, group.lastEvaluation?.waiting ?? [])) {
    await publishDecision(deps, group, { ...lastEvaluation, observations: decision.observations }, [], []);
  }
  return { outcome: 'unchanged', launched, released };
}

/** The evaluation as stored: the decision, with the members waiting for admission named in its reason. */
function evaluationOf(
  decision: ScalingDecision,
  waiting: readonly WaitingMember[],
  nowMs: number,
): LastEvaluation {
  return {
    atMs: nowMs,
    action: decision.action,
    from: decision.from,
    to: decision.to,
    reason: withWaiting(decision.reason, waiting),
    ...(waiting.length > 0 ? { waiting } : {}),
  };
}

async function launchMembers(
  deps: ScalingDeps,
  group: ScalingGroup,
  live: readonly GroupMember[],
  count: number,
): Promise<string[]> {
  const launched: string[] = [];
  for (const mode of launchModes(group.spec, live, count)) {
    let lease: Lease;
    try {
      lease = await createLease(
        deps,
        {
          tenantId: group.tenantId,
          workload: group.spec.workload,
          gpus: 1,
          instanceType: group.spec.instanceType,
          mode,
        },
        group.spec.instanceType,
      );
    } catch (error) {
      // A spent block-new-leases budget holds groups too: the group stays short, nothing fails.
      if (error instanceof BudgetExceededError) break;
      throw error;
    }
    const member = { leaseId: lease.leaseId, mode, createdAtMs: lease.createdAtMs };
    if (!(await deps.groups.addMember(group.tenantId, group.name, member))) {
      // Deleted meanwhile: the lease must not outlive its group.
      await requestRelease(deps, group.tenantId, lease.leaseId);
      break;
    }
    launched.push(lease.leaseId);
  }
  return launched;
}

async function releaseMembers(
  deps: ScalingDeps,
  group: ScalingGroup,
  live: readonly GroupMember[],
  count: number,
  nowMs: number,
): Promise<string[]> {
  const victims = scaleInOrder(group.spec, live, count, nowMs).map((m) => m.leaseId);
  for (const leaseId of victims) await requestRelease(deps, group.tenantId, leaseId);
  await deps.groups.removeMembers(group.tenantId, group.name, victims);
  return victims;
}

async function publishDecision(
  deps: ScalingDeps,
  group: ScalingGroup,
  evaluation: LastEvaluation & Pick<ScalingDecision, 'observations'>,
  launched: readonly string[],
  released: readonly string[],
): Promise<void> {
  const stored = { ...evaluation, launched, released };
  await deps.groups.recordDecision(group.tenantId, group.name, stored);
  await deps.events.publish([
    { type: 'ScalingDecision', tenantId: group.tenantId, detail: { group: group.name, ...stored } },
  ]);
}
