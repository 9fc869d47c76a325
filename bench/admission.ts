/**
 * Admission (#19): the Alibaba trace split across 8 tenants of unequal demand
 * replayed through the real admission pass with the fleet capped at the
 * trace's median concurrent GPUs (fairness, waits, utilization), the wait
 * estimate made at each queued arrival against the start that followed (and
 * against the naive queue position × mean duration), and the pure pass's own
 * speed over 10,000 queued leases, stored in DynamoDB Local (against a naive
 * read and conditional write per lease) and alone. See BENCHMARKS.md, "Admission".
 */

import { startEmulators } from '../local/emulators';
import { priceCatalog } from '../shared/catalog';
import { admissionPass, type WaitingLease } from '../shared/domain/admission/admission-pass';
import { capacityOfPools } from '../shared/domain/admission/claims';
import type { Quota } from '../shared/domain/admission/quota';
import type { LaunchCandidate } from '../shared/domain/admission/tenant-ledger';
import { fairnessOf } from '../shared/planning/admission/fairness';
import { type ReplayLease, replayAdmission } from '../shared/planning/admission/replay';
import { estimateFigures, waitFigures } from './support/admission-figures';
import { floorPass, naivePass, type StorePassSetup, storePass } from './support/admission-store-pass';
import { DECLARED_RUNTIME_SHARE, readAdmissionTrace } from './support/admission-trace';
import type { BenchmarkResult } from './support/benchmark';
import { seededRandom } from './support/random';
import { medianMs, round } from './support/stats';

const REGION = 'us-east-1';
const TENANTS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];
/** Bigger teams weigh more: the two largest tenants weight 2, the two smallest 0.5, the rest 1. */
const WEIGHTS: Record<string, number> = { t1: 2, t2: 2, t3: 1, t4: 1, t5: 1, t6: 1, t7: 0.5, t8: 0.5 };
/** The longest wait a lease may ask for, so that waits are measured rather than cut off. */
const REPLAY_MAX_WAIT_MINUTES = 10_080;
const V100_VCPUS_PER_GPU = 8;

/** V100s, as the trace's GPUs are: one instance of the type with that many GPUs, else that many p3.2xlarge. */
function v100Candidate(gpus: number): LaunchCandidate {
  const whole = priceCatalog
    .typesFor({ gpuModel: 'V100' }, [REGION])
    .find((offering) => offering.gpuCount === gpus && offering.instanceType.startsWith('p3.'));
  const instanceType = whole?.instanceType ?? 'p3.2xlarge';
  const instances = whole ? 1 : gpus;
  return {
    region: REGION,
    instanceType,
    instances,
    mode: 'on-demand',
    hourlyMicroUsd: instances * priceCatalog.onDemandMicroPerHour(instanceType, REGION),
  };
}

/** Quotas that never bind: the fleet's capacity is what is short here; only the weights matter. */
function tenantQuotas(fleetGpus: number): Record<string, Quota> {
  return Object.fromEntries(
    TENANTS.map((tenantId) => [
      tenantId,
      {
        maxGpus: fleetGpus,
        maxHourlyMicroUsd: Number.MAX_SAFE_INTEGER,
        maxGpusByMode: {},
        weight: WEIGHTS[tenantId] ?? 1,
      },
    ]),
  );
}

async function replayFigures() {
  const trace = await readAdmissionTrace(TENANTS);
  const fleetGpus = trace.medianConcurrentGpus;
  const startedAt = performance.now();
  const quotas = tenantQuotas(fleetGpus);
  const { outcomes, segments } = replayAdmission({
    leases: trace.leases,
    quotas,
    defaultQuota: quotas.t1 as Quota,
    capacity: {
      vcpuQuotas: [
        {
          region: REGION,
          family: 'P',
          market: 'on-demand',
          limitVcpus: fleetGpus * V100_VCPUS_PER_GPU,
          usedVcpus: 0,
        },
      ],
      reservedSlots: [],
    },
    catalog: priceCatalog,
    candidatesFor: (lease: ReplayLease) => [v100Candidate(lease.gpus)],
    maxWaitMinutes: REPLAY_MAX_WAIT_MINUTES,
  });
  const replaySeconds = round((performance.now() - startedAt) / 1000, 1);
  const fairness = fairnessOf(segments, WEIGHTS, fleetGpus);
  return {
    leases: trace.leases.length,
    fleetGpus,
    replaySeconds,
    fairness,
    waits: waitFigures(outcomes, TENANTS),
    estimates: estimateFigures(outcomes),
  };
}

/** 10,000 leases of 100 tenants over a fleet that takes about half of them (the figures of part 1). */
function throughputSetup(): StorePassSetup {
  const random = seededRandom(19);
  const nowMs = Date.UTC(2026, 11, 1);
  const queue: WaitingLease[] = Array.from({ length: 10_000 }, (_, i) => {
    const gpus = 1 + Math.floor(random() * 8);
    return {
      leaseId: `lease-${i}`,
      tenantId: `tenant-${Math.floor(random() * 100)}`,
      workload: 'training',
      gpus,
      candidates: [v100Candidate(gpus)],
      priority: Math.floor(random() * 1001),
      queuedAtMs: nowMs - Math.floor(random() * 3_600_000),
      maxWaitMinutes: 60,
    };
  });
  return {
    nowMs,
    queue,
    defaultQuota: {
      maxGpus: 1_000,
      maxHourlyMicroUsd: Number.MAX_SAFE_INTEGER,
      maxGpusByMode: {},
      weight: 1,
    },
    pool: { kind: 'vcpu', region: REGION, family: 'P', market: 'on-demand', limit: 180_000 },
  };
}

/** The pure pass alone over the same queue, no storage: what the store's pass spends on deciding. */
function purePassThroughput(setup: StorePassSetup) {
  const input = {
    nowMs: setup.nowMs,
    queue: setup.queue,
    usage: {},
    quotas: {},
    defaultQuota: setup.defaultQuota,
    capacity: capacityOfPools([{ ...setup.pool, used: 0 }]),
    catalog: priceCatalog,
  };
  const admitted = admissionPass(input).admitted.length;
  const ms = medianMs(() => admissionPass(input), 5);
  return {
    queued: setup.queue.length,
    admitted,
    passMs: round(ms, 1),
    admissionsPerSecond: round(admitted / (ms / 1000), 0),
  };
}

/** The store's pass and the naive one over the same queue, each on a freshly seeded table; both must admit the same leases. */
async function comparedPasses(endpoint: string, setup: StorePassSetup) {
  const batched = await storePass(endpoint, setup);
  const naive = await naivePass(endpoint, setup);
  const naiveSet = new Set(naive.admitted);
  if (naiveSet.size !== batched.admitted.length || batched.admitted.some((id) => !naiveSet.has(id))) {
    throw new Error(
      `the naive pass admitted ${naive.admitted.length} leases, the store's pass ${batched.admitted.length}, not the same`,
    );
  }
  return { batched, naive };
}

/** The least a pass writing each admitted lease's item could take here, with writes that can carry a condition and without. */
async function floorsOf(endpoint: string, setup: StorePassSetup, admitted: readonly string[]) {
  return {
    transactions: await floorPass(endpoint, setup, admitted, 'transactions'),
    batches: await floorPass(endpoint, setup, admitted, 'batches'),
  };
}

/** Warm rounds of part 1: the naive pass alone varies by half from run to run, so one round's ratio is noise. */
const WARM_ROUNDS = 3;

/**
 * Part 1 on DynamoDB Local, in rounds on one emulator. The first runs on a
 * cold JVM, whose JIT compiles the transaction paths during the store's pass
 * (its first mark transactions take 0.2-2 s, later ones 50-200 ms) and the
 * single reads and writes during the naive one. The figures are the warm
 * round with the median speedup of WARM_ROUNDS, each round both passes over
 * the same queue; the cold round's and the warm rounds' spread are reported too.
 */
async function storeThroughput(setup: StorePassSetup) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const emulators = await startEmulators();
  try {
    const endpoint = emulators.endpoints.dynamodb;
    const cold = await comparedPasses(endpoint, setup);
    const warm: (Awaited<ReturnType<typeof comparedPasses>> & {
      speedup: number;
      floors: Awaited<ReturnType<typeof floorsOf>>;
    })[] = [];
    for (let i = 0; i < WARM_ROUNDS; i++) {
      const passes = await comparedPasses(endpoint, setup);
      const floors = await floorsOf(endpoint, setup, passes.batched.admitted);
      warm.push({ ...passes, floors, speedup: passes.naive.seconds / passes.batched.seconds });
    }
    const byRatio = [...warm].sort((a, b) => a.speedup - b.speedup);
    const { batched, naive, floors } = byRatio[Math.floor(WARM_ROUNDS / 2)] as (typeof warm)[number];
    const admitted = batched.admitted.length;
    return {
      admitted,
      passSeconds: round(batched.seconds, 2),
      requests: batched.requests,
      naivePassSeconds: round(naive.seconds, 2),
      naiveRequests: naive.requests,
      admissionsPerSecond: round(admitted / batched.seconds, 0),
      naiveAdmissionsPerSecond: round(admitted / naive.seconds, 0),
      speedupVsNaive: round(naive.seconds / batched.seconds, 1),
      coldPassSeconds: round(cold.batched.seconds, 2),
      coldNaivePassSeconds: round(cold.naive.seconds, 2),
      coldSpeedupVsNaive: round(cold.naive.seconds / cold.batched.seconds, 1),
      warmSpeedupsVsNaive: warm.map(({ speedup }) => round(speedup, 1)),
      // The ceilings of any pass that writes each admitted lease's item, in the same round as the figures above.
      conditionalFloorSeconds: round(floors.transactions.seconds, 2),
      conditionalCeilingVsNaive: round(naive.seconds / floors.transactions.seconds, 1),
      unconditionalFloorSeconds: round(floors.batches.seconds, 2),
      unconditionalCeilingVsNaive: round(naive.seconds / floors.batches.seconds, 1),
      warmConditionalCeilingsVsNaive: warm.map((pass) =>
        round(pass.naive.seconds / pass.floors.transactions.seconds, 1),
      ),
    };
  } finally {
    await emulators.stop();
  }
}

export async function run(): Promise<BenchmarkResult> {
  const replay = await replayFigures();
  const setup = throughputSetup();
  const pure = purePassThroughput(setup);
  const stored = await storeThroughput(setup);
  const { fairness, waits, estimates } = replay;
  const figures = {
    admissionsPerSecond: stored.admissionsPerSecond,
    speedupVsNaive: stored.speedupVsNaive,
    storePass: stored,
    purePass: pure,
    jainIndex: round(fairness.jainIndex, 3),
    jainIndexOfWaitingTenants:
      fairness.jainIndexOfWaitingTenants === null ? null : round(fairness.jainIndexOfWaitingTenants, 3),
    cappedUtilization: round(fairness.cappedUtilization, 3),
    workConservation: round(fairness.workConservation, 3),
    contendedHours: round(fairness.contendedSeconds / 3600, 1),
    p95WaitSecondsByTenant: waits.p95WaitSecondsByTenant,
    leasesByTenant: waits.leasesByTenant,
    p95WaitSeconds: waits.p95WaitSeconds,
    queuedOnArrival: waits.queuedOnArrival,
    timedOut: waits.timedOut,
    ...estimates,
    fleetGpus: replay.fleetGpus,
    leases: replay.leases,
    tenantWeights: WEIGHTS,
    declaredRuntimeShare: DECLARED_RUNTIME_SHARE,
    replaySeconds: replay.replaySeconds,
  };
  const ratio =
    estimates.estimateMedianErrorSeconds !== null && estimates.naiveEstimateMedianErrorSeconds
      ? round(estimates.estimateMedianErrorSeconds / estimates.naiveEstimateMedianErrorSeconds, 3)
      : null;
  return {
    key: 'admission',
    figures: { ...figures, estimateErrorVsNaive: ratio },
    summary: [
      `${replay.leases} leases, 8 tenants, fleet capped at ${replay.fleetGpus} GPUs; replay ${replay.replaySeconds} s`,
      `Jain ${figures.jainIndex} (waiting tenants ${figures.jainIndexOfWaitingTenants}), capped utilization ` +
        `${figures.cappedUtilization}, work conservation ${figures.workConservation}, ${waits.timedOut} timed out`,
      `p95 wait by tenant (s): ${JSON.stringify(waits.p95WaitSecondsByTenant)}`,
      `estimate error median ${estimates.estimateMedianErrorSeconds} s, p90 ${estimates.estimateP90ErrorSeconds} s; ` +
        `naive median ${estimates.naiveEstimateMedianErrorSeconds} s, p90 ${estimates.naiveEstimateP90ErrorSeconds} s ` +
        `(ratio ${ratio}) over ${estimates.estimated} queued arrivals`,
      `DynamoDB Local: ${stored.admitted} of ${pure.queued} admitted in ${stored.passSeconds} s = ` +
        `${stored.admissionsPerSecond}/s (${stored.requests} requests); naive ${stored.naivePassSeconds} s = ` +
        `${stored.naiveAdmissionsPerSecond}/s (${stored.naiveRequests} requests): ${stored.speedupVsNaive}x, ` +
        `the median of ${WARM_ROUNDS} warm rounds (${stored.warmSpeedupsVsNaive.join('x, ')}x) ` +
        `(first round, cold emulator: ${stored.coldPassSeconds} s against ${stored.coldNaivePassSeconds} s, ${stored.coldSpeedupVsNaive}x)`,
      `floors of a pass writing each admitted lease's item (snapshot, then the items alone): ` +
        `${stored.conditionalFloorSeconds} s in transactions, which can carry the condition that keeps a lease from ` +
        `being admitted twice = at most ${stored.conditionalCeilingVsNaive}x the naive pass ` +
        `(warm rounds: ${stored.warmConditionalCeilingsVsNaive.join('x, ')}x); ` +
        `${stored.unconditionalFloorSeconds} s in unconditional batches = ${stored.unconditionalCeilingVsNaive}x`,
      `pure pass alone: ${pure.passMs} ms = ${pure.admissionsPerSecond}/s`,
    ].join('\n'),
  };
}
