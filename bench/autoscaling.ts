/**
 * Autoscaling replay: an inference fleet serves the Azure Functions request
 * trace minute by minute under the default scaling policy, against a static
 * fleet provisioned for the peak (the baseline) and a naive threshold scaler
 * (last datapoint only, no cooldown) that shows what the sustained-for and
 * cooldown rules buy. Also measures how fast the policy decides, against that
 * threshold check on the same inputs.
 */

import { AZURE_TRACE, readRequestsPerMinute } from '../planner/trace/azure-functions';
import { microToUsd, usdToMicro } from '../shared/domain/money';
import {
  type Datapoint,
  DEFAULT_SCALE_OUT,
  decideScaling,
  parseScalingPolicy,
  type ScalingCondition,
  type ScalingPolicy,
  type ScalingRule,
  seriesKey,
} from '../shared/domain/scaling';
import type { BenchmarkResult } from './support/benchmark';
import {
  type FleetState,
  type Scaler,
  type SimulationOutcome,
  simulateFleet,
} from './support/fleet-simulation';
import { timeEvaluation } from './support/scaling-evaluation';
import { predictiveFloor, proportionalScaleOut, targetTracking } from './support/scaling-strategies';
import { median, medianMs, percentile, round } from './support/stats';

/** One GPU serves this many requests a minute (12,500/s: a small model, batched, on one V100). */
const REQUESTS_PER_GPU_MINUTE = 750_000;
/** The load the static fleet is sized for: the 99.9th percentile minute. */
const PEAK_PERCENTILE = 0.999;
const BOOT_MINUTES = 3;
const USD_PER_GPU_HOUR = 3.06;
const SPEED_ROUNDS = 15;
/** AWS target tracking's usual target for GPU utilization. */
const TARGET_UTILIZATION = 70;
/** How fast a GPU from a warm pool (pre-initialized, stopped) serves: start, no image pull or model load. */
const WARM_POOL_BOOT_MINUTES = 1;
const EVALUATION_GROUPS = 1_000;
const EVALUATION_ROUNDS = 3;

/** The product defaults, bounded for an inference service: 2 GPUs for redundancy, 40 as the spending cap. */
const POLICY: ScalingPolicy = parseScalingPolicy({ minCapacity: 2, maxCapacity: 40 });
/** The fleet series the default rules read. */
const UTILIZATION = seriesKey(DEFAULT_SCALE_OUT.conditions[0] as ScalingCondition);
/** What the scaler reads each minute: the last few datapoints, as a GetMetricData query over ten minutes. */
const METRIC_WINDOW = 10;

/**
 * Higher floors for the same policy: what it costs to buy back the SLO misses
 * of one-minute spikes that no reactive rule can catch.
 */
const FLOOR_SWEEP = [4, 8, 16];
/** The default policy's utilization thresholds, for the naive scaler. */
const [OUT_ABOVE, IN_BELOW] = [POLICY.scaleOut, POLICY.scaleIn].map(
  (rule) => (rule.conditions[0] as ScalingCondition).threshold,
) as [number, number];

function policyScaler(policy: ScalingPolicy): Scaler {
  return (state) =>
    decideScaling({
      policy,
      metrics: { [UTILIZATION]: state.utilization.slice(-METRIC_WINDOW) },
      currentCapacity: state.capacity,
      lastAction: state.lastAction,
      nowMs: state.nowMs,
    }).to;
}

/** The trivial check: the speed baseline, and what sustained-for and cooldown must beat on stability. */
function decideByThreshold(state: FleetState): number {
  const latest = (state.utilization.at(-1) as Datapoint).value;
  if (latest > OUT_ABOVE) return Math.min(POLICY.maxCapacity, state.capacity + POLICY.scaleOut.step);
  if (latest < IN_BELOW) return Math.max(POLICY.minCapacity, state.capacity - POLICY.scaleIn.step);
  return state.capacity;
}

/** Wraps a scaler to keep every state it was shown, so both deciders can be timed on the very same inputs. */
function recording(scaler: Scaler, states: FleetState[]): Scaler {
  return (state) => {
    states.push({ ...state, utilization: state.utilization.slice(-METRIC_WINDOW) });
    return scaler(state);
  };
}

function report(outcome: SimulationOutcome, minutes: number, idealGpuHours: number) {
  return {
    gpuHoursOverIdeal: round(outcome.gpuHours / idealGpuHours, 2),
    overloadedMinuteShare: round(outcome.sloMissMinutes / minutes, 4),
    actionsPerDay: round((outcome.scaleOutActions + outcome.scaleInActions) / (minutes / 1440), 2),
    gpuHours: round(outcome.gpuHours, 1),
    costUsd: microToUsd(outcome.costMicroUsd),
    sloMissMinutes: outcome.sloMissMinutes,
    sloMissShare: round(outcome.sloMissMinutes / minutes, 4),
    scaleOutActions: outcome.scaleOutActions,
    scaleInActions: outcome.scaleInActions,
    peakGpus: outcome.peakCapacity,
    meanUtilizationPercent: round(outcome.meanUtilizationPercent, 1),
  };
}

function decisionsPerSecond(decide: Scaler, states: readonly FleetState[]): number {
  const ms = medianMs(() => states.reduce((total, state) => total + decide(state), 0), SPEED_ROUNDS);
  return states.length / (ms / 1000);
}

/** e.g. `gpuUtilization > 80 for 3 datapoints, step 1`. */
function describeRule(rule: ScalingRule): string {
  const conditions = rule.conditions.map(
    (c) => `${c.metric} ${c.comparison} ${c.threshold} for ${c.sustainedFor} datapoints`,
  );
  return `${conditions.join(` ${rule.match === 'all' ? 'and' : 'or'} `)}, step ${rule.step}`;
}

export async function run(): Promise<BenchmarkResult> {
  const requestsPerMinute = readRequestsPerMinute();
  const minutes = requestsPerMinute.length;
  const peak = percentile(requestsPerMinute, PEAK_PERCENTILE);
  const busiest = requestsPerMinute.reduce((max, requests) => Math.max(max, requests), 0);
  const staticGpus = Math.ceil(peak / REQUESTS_PER_GPU_MINUTE);
  // Demand / capacity each minute: the fractional GPUs a perfectly elastic fleet would hold.
  const idealGpuHours = requestsPerMinute.reduce((sum, r) => sum + r / REQUESTS_PER_GPU_MINUTE, 0) / 60;
  // The least whole GPUs can do: exactly enough each minute, with no boot time.
  const wholeGpuHours =
    requestsPerMinute.reduce((sum, r) => sum + Math.ceil(r / REQUESTS_PER_GPU_MINUTE), 0) / 60;
  const simulation = {
    requestsPerMinute,
    requestsPerGpuMinute: REQUESTS_PER_GPU_MINUTE,
    bootMinutes: BOOT_MINUTES,
    priceMicroUsdPerHour: usdToMicro(USD_PER_GPU_HOUR),
  };

  const decideWithPolicy = policyScaler(POLICY);
  const states: FleetState[] = [];
  const staticFleet = simulateFleet({ ...simulation, initialCapacity: staticGpus }, () => staticGpus);
  const autoscaled = simulateFleet(
    { ...simulation, initialCapacity: POLICY.minCapacity },
    recording(decideWithPolicy, states),
  );
  const threshold = simulateFleet({ ...simulation, initialCapacity: POLICY.minCapacity }, decideByThreshold);

  const floorSweep = FLOOR_SWEEP.map((minCapacity) => ({
    minGpus: minCapacity,
    ...report(
      simulateFleet(
        { ...simulation, initialCapacity: minCapacity },
        policyScaler(parseScalingPolicy({ ...POLICY, minCapacity })),
      ),
      minutes,
      idealGpuHours,
    ),
  }));

  const bounds = { minCapacity: POLICY.minCapacity, maxCapacity: POLICY.maxCapacity };
  const fromFloor = { ...simulation, initialCapacity: POLICY.minCapacity };
  const targetTracked = simulateFleet(
    fromFloor,
    targetTracking({ targetPercent: TARGET_UTILIZATION, ...bounds }),
  );
  const predictive = (base: Scaler) =>
    predictiveFloor(base, requestsPerMinute, REQUESTS_PER_GPU_MINUTE, {
      days: 7,
      quantile: 0.9,
      spreadMinutes: 15,
      targetPercent: TARGET_UTILIZATION,
      maxCapacity: POLICY.maxCapacity,
    });
  const proportional = (base: Scaler) => proportionalScaleOut(base, TARGET_UTILIZATION, POLICY.maxCapacity);
  const warm = { ...fromFloor, bootMinutes: WARM_POOL_BOOT_MINUTES };
  const alternatives = {
    proportionalSteps: simulateFleet(fromFloor, proportional(decideWithPolicy)),
    predictiveDailyCycle: simulateFleet(fromFloor, predictive(decideWithPolicy)),
    warmPool: simulateFleet(warm, decideWithPolicy),
    allThree: simulateFleet(warm, predictive(proportional(decideWithPolicy))),
    defaultRulesFloorOne: simulateFleet(
      { ...simulation, initialCapacity: 1 },
      policyScaler(parseScalingPolicy({ ...POLICY, minCapacity: 1 })),
    ),
  };

  const evaluation1000 = await timeEvaluation(EVALUATION_GROUPS, EVALUATION_ROUNDS);

  const policyRate = decisionsPerSecond(decideWithPolicy, states);
  const thresholdRate = decisionsPerSecond(decideByThreshold, states);

  const figures = {
    trace: {
      minutes,
      medianRequestsPerMinute: median(requestsPerMinute),
      peakRequestsPerMinute: peak,
      maxRequestsPerMinute: busiest,
    },
    gpuHoursOverIdeal: round(autoscaled.gpuHours / idealGpuHours, 2),
    overloadedMinuteShare: round(autoscaled.sloMissMinutes / minutes, 4),
    actionsPerDay: round((autoscaled.scaleOutActions + autoscaled.scaleInActions) / (minutes / 1440), 2),
    staticGpuHoursOverIdeal: round(staticFleet.gpuHours / idealGpuHours, 2),
    targetTrackingGpuHoursOverIdeal: round(targetTracked.gpuHours / idealGpuHours, 2),
    targetTrackingOverloadedMinuteShare: round(targetTracked.sloMissMinutes / minutes, 4),
    evaluate1000GroupsMs: Math.round(evaluation1000.batchedMs),
    metricCallsFor1000Groups: evaluation1000.batchedMetricCalls,
    idealGpuHours: round(idealGpuHours, 1),
    wholeGpuLowerBound: {
      gpuHours: round(wholeGpuHours, 1),
      overIdeal: round(wholeGpuHours / idealGpuHours, 2),
    },
    staticPeakFleet: { gpus: staticGpus, ...report(staticFleet, minutes, idealGpuHours) },
    autoscaled: report(autoscaled, minutes, idealGpuHours),
    targetTracking: { targetPercent: TARGET_UTILIZATION, ...report(targetTracked, minutes, idealGpuHours) },
    alternatives: Object.fromEntries(
      Object.entries(alternatives).map(([name, outcome]) => [name, report(outcome, minutes, idealGpuHours)]),
    ),
    evaluation1000Groups: {
      ...evaluation1000,
      batchedMs: Math.round(evaluation1000.batchedMs),
      perGroupMs: Math.round(evaluation1000.perGroupMs),
      batchedVsPerGroupTimeRatio: round(evaluation1000.batchedMs / evaluation1000.perGroupMs, 3),
    },
    naiveThreshold: report(threshold, minutes, idealGpuHours),
    autoscaledWithHigherFloors: floorSweep,
    autoscaledVsStatic: {
      gpuHoursRatio: round(autoscaled.gpuHours / staticFleet.gpuHours, 4),
      costRatio: round(autoscaled.costMicroUsd / staticFleet.costMicroUsd, 4),
      sloMissRatio: round(autoscaled.sloMissMinutes / staticFleet.sloMissMinutes, 2),
    },
    evaluation: {
      decisions: states.length,
      policyDecisionsPerSecond: Math.round(policyRate),
      thresholdDecisionsPerSecond: Math.round(thresholdRate),
      policyVsThresholdSpeedRatio: round(policyRate / thresholdRate, 4),
    },
    policy: POLICY,
    assumptions: [
      `load: ${AZURE_TRACE}, ${minutes} minutes (${round(minutes / 1440, 1)} days), one datapoint a minute`,
      `one GPU serves ${REQUESTS_PER_GPU_MINUTE.toLocaleString('en-US')} requests/minute; utilization = requests / (serving GPUs × that), capped at 100% as nvidia-smi reports it`,
      `the static baseline is sized for the ${PEAK_PERCENTILE * 100}th percentile minute (${peak.toLocaleString('en-US')} requests → ${staticGpus} GPUs); the busiest minute (${busiest.toLocaleString('en-US')}) is a one-minute spike that would need ${Math.ceil(busiest / REQUESTS_PER_GPU_MINUTE)} GPUs`,
      'an SLO miss is a minute whose requests exceed the serving GPUs’ capacity; those requests are counted as missed, not queued into the next minute',
      `a launched GPU serves after ${BOOT_MINUTES} minutes (boot from a pre-baked AMI and model load) and is billed from launch; a removed GPU stops billing at once, booting ones are removed first`,
      `price: p3.2xlarge on-demand $${USD_PER_GPU_HOUR}/h per GPU, billed per second with the one-minute minimum (shared/domain/billing.ts)`,
      `policy: the product defaults (out when ${describeRule(POLICY.scaleOut)}; in when ${describeRule(POLICY.scaleIn)}; cooldowns ${POLICY.scaleOut.cooldownSeconds} s after scale-out, ${POLICY.scaleIn.cooldownSeconds} s after scale-in) with ${POLICY.minCapacity}–${POLICY.maxCapacity} GPUs; the autoscaled and threshold fleets start at ${POLICY.minCapacity} GPUs`,
      `the scaler reads the last ${METRIC_WINDOW} datapoints each minute, the decision uses fleet size including booting GPUs`,
      'naive threshold: same thresholds, step and bounds, on the latest datapoint only, no cooldown',
      `ideal: demand / capacity each minute, summed (${round(idealGpuHours, 1)} GPU-h); whole GPUs sized exactly each minute with no boot need ${round(wholeGpuHours, 1)} GPU-h`,
      `target tracking at ${TARGET_UTILIZATION}% as AWS behaves: out on 3 of 3 datapoints above the target, in on 15 of 15 below 90% of it, proportional capacity (at least ±1 GPU, scale-in rounded up), 300 s cooldowns, same bounds`,
      `alternatives: proportionalSteps = default rules, but a scale-out adds capacity × load / ${TARGET_UTILIZATION}%; predictiveDailyCycle = default rules above a floor of the p90 demand of the same time of day (±15 min, 3 minutes ahead) over the past 7 days at ${TARGET_UTILIZATION}%; warmPool = default rules with GPUs serving ${WARM_POOL_BOOT_MINUTES} minute after launch (stopped pre-initialized instances; their EBS cost is not counted); allThree combined; defaultRulesFloorOne = default rules with min 1`,
      `evaluation of ${EVALUATION_GROUPS} groups: one running member each, default rules, against DynamoDB Local and moto_server started for the bench; median of ${EVALUATION_ROUNDS} runs after one warm-up; baseline = the same evaluation reading each group's queries in a call of its own`,
      `evaluation speed: both deciders timed on the same ${states.length} recorded fleet states, median of ${SPEED_ROUNDS} passes`,
    ],
  };
  const line = (name: string, r: ReturnType<typeof report>) =>
    `${name}: ${r.gpuHours} GPU-h (${r.gpuHoursOverIdeal}× ideal), $${r.costUsd.toFixed(2)}, ${r.sloMissMinutes} SLO-miss minutes (${round(r.sloMissShare * 100, 2)}%), ${r.scaleOutActions} out / ${r.scaleInActions} in (${r.actionsPerDay}/day), peak ${r.peakGpus} GPUs`;
  const e = figures.evaluation1000Groups;
  const summary = [
    line(`static ${staticGpus} GPUs`, figures.staticPeakFleet),
    line('autoscaled (default policy)', figures.autoscaled),
    line('naive threshold', figures.naiveThreshold),
    line(`target tracking ${TARGET_UTILIZATION}%`, figures.targetTracking),
    ...Object.entries(figures.alternatives).map(([name, r]) => line(`alternative ${name}`, r)),
    `ideal ${figures.idealGpuHours} GPU-h; whole GPUs, no boot: ${figures.wholeGpuLowerBound.gpuHours} GPU-h (${figures.wholeGpuLowerBound.overIdeal}× ideal)`,
    `evaluate ${e.groups} groups against moto: ${e.batchedMs} ms, ${e.batchedMetricCalls} GetMetricData calls for ${e.metricQueries} queries; per-group reads (baseline) ${e.perGroupMs} ms, ${e.perGroupMetricCalls} calls (ratio ${e.batchedVsPerGroupTimeRatio})`,
    ...floorSweep.map((r) => line(`autoscaled, floor ${r.minGpus}`, r)),
    `autoscaled vs static: ${figures.autoscaledVsStatic.gpuHoursRatio}× GPU-hours, ${figures.autoscaledVsStatic.sloMissRatio}× SLO-miss minutes`,
    `decisions/s: policy ${figures.evaluation.policyDecisionsPerSecond.toLocaleString('en-US')}, threshold ${figures.evaluation.thresholdDecisionsPerSecond.toLocaleString('en-US')} (ratio ${figures.evaluation.policyVsThresholdSpeedRatio})`,
  ].join('\n');
  return { key: 'autoscaling', figures, summary };
}
