import { mapWithConcurrency } from '../../concurrency';
import {
  GPU_METRIC_PERIOD_SECONDS,
  gpuDimensions,
  gpuMetricNamespace,
  NVIDIA_SMI_METRICS,
} from '../../domain/gpu-telemetry';
import type { LeaseInstance } from '../../domain/lease';
import type { Datapoint } from '../../domain/scaling';
import { type GpuRef, gpusOfInstances } from '../../domain/waste/gpu-indexes';
import { idleChargeUpTo, idleGpusByMinute } from '../../domain/waste/idle-ledger';
import { type IdleFinding, idleAlertMessage, idleReason } from '../../domain/waste/idle-message';
import {
  DEFAULT_BELOW_PERCENT,
  DEFAULT_FOR_MINUTES,
  effectiveIdlePolicy,
  type IdlePolicy,
  idleOutcome,
} from '../../domain/waste/idle-policy';
import { advanceIdleEpisode, type GpuSeries, judgeIdleWindow } from '../../domain/waste/idle-window';
import type { DomainEventPublisher } from '../../ports/domain-events';
import type {
  IdleEpisode,
  IdleEpisodes,
  IdleLedger,
  IdleNotifier,
  IdlePolicyRepository,
} from '../../ports/idle';
import type { MetricQuery } from '../../ports/metrics';
import type { ControlPlane } from '../dependencies';
import { type PriceChangesOf, priceChangesOf } from '../price-history';
import { requestRelease } from '../release-lease';

const MINUTE_MS = GPU_METRIC_PERIOD_SECONDS * 1000;
/**
 * The agent sends a minute's sample at its end and CloudWatch takes a while to
 * serve it: minutes younger than this are not judged yet (neither idle nor
 * charged), so a late sample is never taken for a missing one.
 */
export const TELEMETRY_DELAY_MS = 2 * MINUTE_MS;
/** A claimed notice not marked sent after this is taken over (the claimer died), as budget alerts are. */
const CLAIM_GRACE_MS = 2 * MINUTE_MS;
const CONCURRENT_LEASES = 8;

export interface IdleDeps
  extends Pick<ControlPlane, 'leases' | 'commands' | 'now' | 'catalog' | 'spotPrices'> {
  readonly idlePolicies: IdlePolicyRepository;
  readonly idleEpisodes: IdleEpisodes;
  readonly idleLedger: IdleLedger;
  readonly idleNotifier: IdleNotifier;
  readonly events: DomainEventPublisher;
}

interface LeaseToJudge {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instances: readonly LeaseInstance[];
  readonly gpus: readonly GpuRef[];
  /** The policy that applies (undefined: none set, so nothing is acted on, but idle time is still counted). */
  readonly policy: IdlePolicy | undefined;
}

export interface IdleReadPlan {
  /** One per-minute utilization query per GPU of every open instance. */
  readonly queries: readonly MetricQuery[];
  /** Minutes to read back: the longest window that applies, plus the telemetry delay. */
  readonly windowPeriods: number;
  readonly leases: readonly LeaseToJudge[];
  readonly gpus: readonly GpuRef[];
}

export interface IdleSummary {
  readonly leasesJudged: number;
  readonly idleEpisodesOpened: number;
  readonly released: number;
  readonly idleMicroUsdRecorded: number;
}

const utilizationQuery = (lease: Pick<LeaseInstance, 'tenantId' | 'leaseId'>, gpu: GpuRef): MetricQuery => ({
  namespace: gpuMetricNamespace(lease),
  metricName: NVIDIA_SMI_METRICS.utilization,
  dimensions: gpuDimensions(gpu.instanceId, gpu.gpuIndex),
  statistic: 'Average',
  periodSeconds: GPU_METRIC_PERIOD_SECONDS,
});

/**
 * What the idle evaluation reads, planned so that it rides in the scaling
 * evaluator's one batched telemetry read: every GPU of every open instance
 * (for the waste ledger whatever the policy, for the verdict where one applies).
 */
export async function planIdleReads(
  deps: Pick<IdleDeps, 'idlePolicies' | 'catalog'>,
  open: readonly LeaseInstance[],
): Promise<IdleReadPlan> {
  const running = open.filter((i) => i.endedAtMs === undefined);
  const policies = await deps.idlePolicies.ofTenants(running.map((i) => i.tenantId));
  const byLease = new Map<string, LeaseInstance[]>();
  for (const instance of running) {
    const key = `${instance.tenantId}\n${instance.leaseId}`;
    byLease.set(key, [...(byLease.get(key) ?? []), instance]);
  }
  const leases = [...byLease.values()].map((instances) => {
    const first = instances[0] as LeaseInstance;
    const set = policies.get(first.tenantId);
    return {
      tenantId: first.tenantId,
      leaseId: first.leaseId,
      instances,
      gpus: gpusOfInstances(deps.catalog, instances),
      policy: effectiveIdlePolicy(set?.admin, set?.tenant),
    };
  });
  const gpus = leases.flatMap((lease) => lease.gpus);
  const longest = Math.max(DEFAULT_FOR_MINUTES, ...leases.map((l) => l.policy?.forMinutes ?? 0));
  return {
    queries: leases.flatMap((lease) => lease.gpus.map((gpu) => utilizationQuery(lease, gpu))),
    windowPeriods: longest + TELEMETRY_DELAY_MS / MINUTE_MS + 1,
    leases,
    gpus,
  };
}

const seriesOf = (gpu: GpuRef, datapoints: readonly Datapoint[]): GpuSeries => ({
  gpu,
  samples: datapoints.map((d) => ({ minuteMs: d.timestampMs, percent: d.value })),
});

/**
 * After the read: each lease judged over its policy's window (every GPU below
 * the line every minute; a silent GPU is never idle, and the health sweep
 * reports it), acted on once per idle episode (claim, LeaseIdle, one SNS
 * notice, then the release the policy asks for), and every open instance's
 * idle seconds since its checkpoint added to the waste ledger. A lease's
 * running task does not matter: idle GPUs are idle, whatever runs on them.
 */
export async function evaluateIdle(
  deps: IdleDeps,
  plan: IdleReadPlan,
  results: readonly (readonly Datapoint[])[],
  nowMs: number,
): Promise<IdleSummary> {
  const horizonMs = nowMs - TELEMETRY_DELAY_MS;
  const series = new Map(
    plan.gpus.map((gpu, i) => [`${gpu.instanceId}#${gpu.gpuIndex}`, seriesOf(gpu, results[i] ?? [])]),
  );
  const episodes = new Map((await deps.idleEpisodes.open()).map((e) => [`${e.tenantId}\n${e.leaseId}`, e]));
  const changesOf = await priceChangesOf(
    deps,
    plan.leases.flatMap((l) => l.instances),
  );
  const judged = new Set<string>();
  let opened = 0;
  let released = 0;
  let recorded = 0;
  await mapWithConcurrency(plan.leases, CONCURRENT_LEASES, async (lease) => {
    const key = `${lease.tenantId}\n${lease.leaseId}`;
    judged.add(key);
    const leaseSeries = lease.gpus.map(
      (gpu) => series.get(`${gpu.instanceId}#${gpu.gpuIndex}`) ?? seriesOf(gpu, []),
    );
    const belowPercent = lease.policy?.belowPercent ?? DEFAULT_BELOW_PERCENT;
    recorded += await recordIdleTime(deps, lease, leaseSeries, belowPercent, horizonMs, changesOf);
    if (!lease.policy) return;
    const outcome = await judgeLease(
      deps,
      lease,
      lease.policy,
      leaseSeries,
      episodes.get(key),
      horizonMs,
      nowMs,
    );
    if (outcome === 'opened' || outcome === 'released') opened += 1;
    if (outcome === 'released') released += 1;
  });
  // Episodes of leases that ended or lost their policy are over.
  for (const [key, episode] of episodes) {
    if (!judged.has(key) || !plan.leases.find((l) => `${l.tenantId}\n${l.leaseId}` === key)?.policy)
      await deps.idleEpisodes.close(episode.tenantId, episode.leaseId);
  }
  return {
    leasesJudged: plan.leases.length,
    idleEpisodesOpened: opened,
    released,
    idleMicroUsdRecorded: recorded,
  };
}

async function judgeLease(
  deps: IdleDeps,
  lease: LeaseToJudge,
  policy: IdlePolicy,
  series: readonly GpuSeries[],
  stored: IdleEpisode | undefined,
  horizonMs: number,
  nowMs: number,
): Promise<'busy' | 'unchanged' | 'opened' | 'released'> {
  const verdict = judgeIdleWindow({
    gpus: lease.gpus,
    series,
    runningSinceMs: Math.max(...lease.instances.map((i) => i.launchedAtMs)),
    atMs: horizonMs,
    belowPercent: policy.belowPercent,
    forMinutes: policy.forMinutes,
  });
  if (verdict.kind === 'busy') {
    if (stored) await deps.idleEpisodes.close(lease.tenantId, lease.leaseId);
    return 'busy';
  }
  if (verdict.kind !== 'idle') return 'unchanged';
  const step = advanceIdleEpisode(lease.leaseId, { openSinceMs: stored?.idleSinceMs }, verdict);
  const stale =
    stored !== undefined && stored.sentAtMs === undefined && stored.claimedAtMs < nowMs - CLAIM_GRACE_MS;
  const episode =
    step.opened ?? (stale ? { episodeId: stored.episodeId, idleSinceMs: stored.idleSinceMs } : undefined);
  if (!episode) return 'unchanged';
  const claimed = await deps.idleEpisodes.claim(
    { tenantId: lease.tenantId, leaseId: lease.leaseId, ...episode, claimedAtMs: nowMs },
    nowMs - CLAIM_GRACE_MS,
  );
  if (!claimed) return 'unchanged';
  const outcome = idleOutcome(policy, {
    workload: (await deps.leases.get(lease.tenantId, lease.leaseId))?.workload ?? 'inference',
    project: lease.instances[0]?.project,
    modes: lease.instances.map((i) => i.mode),
  });
  if (outcome === 'exempt') return 'unchanged';
  const finding: IdleFinding = {
    tenantId: lease.tenantId,
    leaseId: lease.leaseId,
    episodeId: episode.episodeId,
    idleSinceMs: episode.idleSinceMs,
    gpus: lease.gpus.length,
    peakPercent: verdict.peakPercent,
    meanPercent: verdict.meanPercent,
    policy,
    action: outcome,
  };
  await deps.events.publish([
    {
      type: 'LeaseIdle',
      tenantId: lease.tenantId,
      detail: {
        leaseId: lease.leaseId,
        episodeId: episode.episodeId,
        idleSinceMs: episode.idleSinceMs,
        gpus: finding.gpus,
        belowPercent: policy.belowPercent,
        forMinutes: policy.forMinutes,
        peakPercent: verdict.peakPercent,
        meanPercent: Math.round(verdict.meanPercent * 1000) / 1000,
        action: outcome,
      },
    },
  ]);
  await deps.idleNotifier.publish(idleAlertMessage(finding));
  await deps.idleEpisodes.markSent(lease.tenantId, lease.leaseId, episode.episodeId, nowMs);
  if (outcome !== 'release') return 'opened';
  await requestRelease(deps, lease.tenantId, lease.leaseId, { reason: idleReason(finding) });
  return 'released';
}

/**
 * The idle part of each instance's billed seconds since its checkpoint, up to
 * the telemetry horizon (later seconds wait for their samples). Returns the
 * micro-dollars recorded; a checkpoint another run moved first records nothing.
 */
async function recordIdleTime(
  deps: Pick<IdleDeps, 'idleLedger' | 'catalog'>,
  lease: LeaseToJudge,
  series: readonly GpuSeries[],
  belowPercent: number,
  horizonMs: number,
  changesOf: PriceChangesOf,
): Promise<number> {
  const checkpoints = await deps.idleLedger.checkpoints(lease.instances);
  let recorded = 0;
  for (const [i, instance] of lease.instances.entries()) {
    const from = checkpoints[i];
    if (!from) continue;
    const horizonMinuteMs = Math.floor(horizonMs / MINUTE_MS) * MINUTE_MS;
    const judgedSeconds = Math.max(0, Math.floor((horizonMinuteMs - instance.launchedAtMs) / 1000));
    const billedSeconds = Math.min(instance.billedSeconds, judgedSeconds);
    if (billedSeconds <= from.billedSeconds) continue;
    const charge = idleChargeUpTo({
      // Spot seconds at the price in force, as billed.
      run: { ...instance, priceChanges: changesOf(instance) },
      gpusPerInstance: deps.catalog.gpusPerInstance(instance.instanceType),
      checkpoint: from,
      billedSeconds,
      idleGpus: idleGpusByMinute(
        series.filter((s) => s.gpu.instanceId === instance.instanceId),
        belowPercent,
      ),
    });
    const written = await deps.idleLedger.record({
      tenantId: instance.tenantId,
      leaseId: instance.leaseId,
      instanceId: instance.instanceId,
      project: instance.project,
      from,
      to: charge.checkpoint,
      days: charge.days,
    });
    if (written) recorded += charge.checkpoint.idleMicroUsd - from.idleMicroUsd;
  }
  return recorded;
}
