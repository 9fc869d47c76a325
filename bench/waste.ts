/**
 * GPU waste (issue #18): idle reclaim on the Alibaba trace under the default
 * idle policy against none, spend-anomaly detection on per-tenant spend series
 * of the same trace with injected anomalies against a fixed threshold and a
 * daily check, and the fractional replay of its GPU-sharing tasks. Methods:
 * BENCHMARKS.md, "waste".
 */
import { priceCatalog } from '../shared/catalog';
import { idlePolicySchema } from '../shared/domain/waste/idle-policy';
import { replayOnFractions } from '../shared/planning/waste/fractional-replay';
import * as z from '../shared/zod';
import type { BenchmarkResult } from './support/benchmark';
import { round } from './support/stats';
import {
  type DetectionScore,
  dailyCheckDetector,
  fixedThresholdDetector,
  gpurentDetector,
  hasNaturalPrecedent,
  injectAnomalies,
  naturalLookAlikes,
  SERIES_DAYS,
  type SpendSeries,
  scoreDetector,
  type TenantSplit,
  tenantSeries,
} from './support/waste-anomaly';
import { replayIdle } from './support/waste-idle';
import { SYNTHETIC_MODEL, syntheticTenantSeries } from './support/waste-synthetic';
import { readAlibabaTrace, readSharingTasks } from './support/waste-trace';
import { UTILIZATION_MODEL } from './support/waste-utilization';

const REGION = 'us-east-1';
/** The planner's replay type: every GPU is one p3.2xlarge (1x V100). */
const GPU_TYPE = 'p3.2xlarge';
const UTILIZATION_SEED = 2023;
/**
 * The trace names no user, so tenants are built from it: disjoint ones (each
 * task in exactly one tenant, as a real tenant's leases are its own), by a
 * hash of the task name (8 tenants of about 5 GPUs) and by the trace's qos
 * label (3 tenants). The overlapping `random-half` tenants (each a random half
 * of the whole cluster, about 19 GPUs) are kept only to compare with the
 * figures first published: they smooth every series and flatter the detector.
 * Anomalies with the first seed list; the second checks it holds.
 */
const TENANT_SEED = 1;
/** The made-up family (waste-synthetic.ts): not drawn from any trace, so the method is not judged on one alone. */
const SYNTHETIC_SEED = 1;
/** A second draw of the same family with the check's anomaly seeds, never looked at while the detector was built. */
const SYNTHETIC_CHECK_SEED = 2;
/** A third draw, added as a held-out check when the new-spend rule was adopted: not looked at while it was chosen. */
const SYNTHETIC_HELD_OUT_SEED = 3;
const ANOMALY_SEEDS = [
  [1, 2, 3, 4],
  [5, 6, 7, 8],
  [9, 10, 11, 12],
] as const;

const hours = (seconds: number) => round(seconds / 3600, 1);
const usd = (micro: number) => round(micro / 1e6, 2);

function score(detector: Parameters<typeof scoreDetector>[0], cases: Parameters<typeof scoreDetector>[1]) {
  const s: DetectionScore = scoreDetector(detector, cases);
  return { ...s, recall: round(s.recall, 3), precision: round(s.precision, 3) };
}

export async function run(): Promise<BenchmarkResult> {
  const startedAt = performance.now();
  const trace = await readAlibabaTrace();
  const gpuPrice = priceCatalog.onDemandMicroPerHour(GPU_TYPE, REGION);

  const policy = z.parse(idlePolicySchema, { action: 'release' });
  const idle = replayIdle(trace.leases, policy, gpuPrice, UTILIZATION_SEED);
  const idleGpuSecondsReclaimed = idle.noPolicy.idleGpuSeconds - idle.policy.idleGpuSeconds;
  const idleUsdReclaimed = idle.noPolicy.idleMicroUsd - idle.policy.idleMicroUsd;
  const cutGpuSeconds = idle.noPolicy.gpuSeconds - idle.policy.gpuSeconds;

  const scoreSeries = (series: readonly SpendSeries[], seeds: readonly number[]) => {
    const lookAlikes = series.map((s) => naturalLookAlikes(s, gpuPrice));
    const cases = seeds.flatMap((seed) =>
      series.map((s, i) => ({
        clean: s,
        lookAlikes: lookAlikes[i] ?? [],
        ...injectAnomalies(s, seed, gpuPrice),
      })),
    );
    return {
      anomalySeeds: seeds,
      tenants: series.length,
      meanUsdPerHourByTenant: series.map((s) => usd(s.rates.reduce((a, b) => a + b, 0) / s.rates.length)),
      naturalLookAlikes: lookAlikes.reduce((sum, stretches) => sum + stretches.length, 0),
      injectedWithNaturalPrecedent: cases.reduce(
        (sum, c) => sum + c.injected.filter((x) => hasNaturalPrecedent(c.clean, x, gpuPrice)).length,
        0,
      ),
      gpurentMedium: score(gpurentDetector('medium'), cases),
      gpurentMediumRateOnly: score(gpurentDetector('medium', false), cases),
      gpurentLow: score(gpurentDetector('low'), cases),
      fixedThreshold: score(fixedThresholdDetector, cases),
      dailyCheck: score(dailyCheckDetector, cases),
    };
  };
  const scoreSplit = (split: TenantSplit, tenantSeed: number, seeds: readonly number[]) => ({
    split,
    tenantSeed,
    ...scoreSeries(tenantSeries(trace.leases, trace.endMs, gpuPrice, split, tenantSeed), seeds),
  });
  const anomalies = {
    primary: scoreSplit('hash-8', 0, ANOMALY_SEEDS[0]),
    otherSeed: scoreSplit('hash-8', 0, ANOMALY_SEEDS[1]),
    byQos: scoreSplit('workload', 0, ANOMALY_SEEDS[0]),
    overlappingHalves: scoreSplit('random-half', TENANT_SEED, ANOMALY_SEEDS[0]),
    synthetic: {
      model: SYNTHETIC_MODEL,
      familySeed: SYNTHETIC_SEED,
      ...scoreSeries(syntheticTenantSeries(SYNTHETIC_SEED, SERIES_DAYS, gpuPrice), ANOMALY_SEEDS[0]),
    },
    syntheticOtherFamily: {
      familySeed: SYNTHETIC_CHECK_SEED,
      ...scoreSeries(syntheticTenantSeries(SYNTHETIC_CHECK_SEED, SERIES_DAYS, gpuPrice), ANOMALY_SEEDS[1]),
    },
    syntheticHeldOut: {
      familySeed: SYNTHETIC_HELD_OUT_SEED,
      ...scoreSeries(syntheticTenantSeries(SYNTHETIC_HELD_OUT_SEED, SERIES_DAYS, gpuPrice), ANOMALY_SEEDS[2]),
    },
  };
  const primary = anomalies.primary;

  const sharing = (await readSharingTasks(trace)).filter((t) => t.gpuShare < 1 && t.gpuShare > 0);
  const fractional = Object.fromEntries(
    ['g6.xlarge', GPU_TYPE].map((whole) => {
      const replay = replayOnFractions(sharing, priceCatalog, REGION, whole);
      return [
        whole,
        {
          sharingTasks: replay.sharingTasks,
          onFractions: replay.onFractions,
          byFraction: replay.byFraction,
          wholeUsd: usd(replay.wholeMicroUsd),
          fractionalUsd: usd(replay.fractionalMicroUsd),
          ratio: round(replay.fractionalMicroUsd / replay.wholeMicroUsd, 4),
        },
      ];
    }),
  );

  const figures = {
    idleGpuHoursReclaimed: hours(idleGpuSecondsReclaimed),
    idleUsdReclaimed: usd(idleUsdReclaimed),
    releasedNotIdle: idle.released === 0 ? 0 : round(idle.releasedNotIdle / idle.released, 4),
    anomalyRecall: primary.gpurentMedium.recall,
    anomalyPrecision: primary.gpurentMedium.precision,
    anomalyMedianDelayRuns: primary.gpurentMedium.medianDelayRuns,
    idle: {
      policy: { belowPercent: policy.belowPercent, forMinutes: policy.forMinutes, action: policy.action },
      gpuType: GPU_TYPE,
      leases: idle.leases,
      noPolicy: {
        gpuHours: hours(idle.noPolicy.gpuSeconds),
        usd: usd(idle.noPolicy.microUsd),
        idleGpuHours: hours(idle.noPolicy.idleGpuSeconds),
        idleUsd: usd(idle.noPolicy.idleMicroUsd),
        idleShare: round(idle.noPolicy.idleGpuSeconds / idle.noPolicy.gpuSeconds, 4),
      },
      withPolicy: {
        gpuHours: hours(idle.policy.gpuSeconds),
        usd: usd(idle.policy.microUsd),
        idleGpuHours: hours(idle.policy.idleGpuSeconds),
        idleUsd: usd(idle.policy.idleMicroUsd),
      },
      reclaimedShareOfIdle: round(idleGpuSecondsReclaimed / idle.noPolicy.idleGpuSeconds, 4),
      gpuHoursCut: hours(cutGpuSeconds),
      usdCut: usd(idle.noPolicy.microUsd - idle.policy.microUsd),
      released: idle.released,
      releasedNotIdleLeases: idle.releasedNotIdle,
      releasedWithWorkLeft: idle.releasedWithWorkLeft,
      workGpuHoursCut: hours(cutGpuSeconds - idleGpuSecondsReclaimed),
      silentLeases: idle.silentLeases,
      judgeDisagreements: idle.judgeDisagreements,
      utilizationModel: UTILIZATION_MODEL,
      utilizationSeed: UTILIZATION_SEED,
    },
    anomalies: { seriesDays: SERIES_DAYS, ...anomalies },
    fractional,
    runSeconds: round((performance.now() - startedAt) / 1000, 1),
  };
  const a = primary.gpurentMedium;
  const other = anomalies.otherSeed.gpurentMedium;
  const qos = anomalies.byQos.gpurentMedium;
  const halves = anomalies.overlappingHalves.gpurentMedium;
  const synthetic = anomalies.synthetic.gpurentMedium;
  const syntheticOther = anomalies.syntheticOtherFamily.gpurentMedium;
  const syntheticHeldOut = anomalies.syntheticHeldOut.gpurentMedium;
  const rateOnly = primary.gpurentMediumRateOnly;
  return {
    key: 'waste',
    figures,
    summary: [
      `idle policy (<${policy.belowPercent} % for ${policy.forMinutes} min, release): ${idle.released} of ${idle.leases} leases released, ` +
        `${figures.idleGpuHoursReclaimed} idle GPU-hours ($${figures.idleUsdReclaimed}) reclaimed of ` +
        `${figures.idle.noPolicy.idleGpuHours} idle (${figures.idle.reclaimedShareOfIdle} share); released not idle: ${idle.releasedNotIdle}; ` +
        `released with work left: ${idle.releasedWithWorkLeft} (${figures.idle.workGpuHoursCut} work GPU-hours cut)`,
      `anomalies (8 disjoint tenants by task-name hash, 4 anomaly seeds): gpurent recall ${a.recall} precision ${a.precision} ` +
        `median delay ${a.medianDelayRuns} runs; fixed ${primary.fixedThreshold.recall}/${primary.fixedThreshold.precision}; ` +
        `daily ${primary.dailyCheck.recall}/${primary.dailyCheck.precision} delay ${primary.dailyCheck.medianDelayRuns}; ` +
        `other seeds ${other.recall}/${other.precision} delay ${other.medianDelayRuns}; 3 qos tenants ${qos.recall}/${qos.precision}; ` +
        `overlapping random halves (as first published) ${halves.recall}/${halves.precision}; ` +
        `synthetic family ${synthetic.recall}/${synthetic.precision} delay ${synthetic.medianDelayRuns}; ` +
        `synthetic family seed ${SYNTHETIC_CHECK_SEED} ${syntheticOther.recall}/${syntheticOther.precision}; ` +
        `synthetic family seed ${SYNTHETIC_HELD_OUT_SEED} (held out) ${syntheticHeldOut.recall}/${syntheticHeldOut.precision}; ` +
        `rate alone (no leases) ${rateOnly.recall}/${rateOnly.precision}; ` +
        `natural look-alikes in the clean series: ${primary.naturalLookAlikes} (trace, hash-8), ${anomalies.synthetic.naturalLookAlikes} (synthetic)`,
      `fractional: ${fractional['g6.xlarge']?.onFractions} of ${fractional['g6.xlarge']?.sharingTasks} sharing tasks on fractions, ` +
        `${fractional['g6.xlarge']?.ratio} x whole g6.xlarge, ${fractional[GPU_TYPE]?.ratio} x whole ${GPU_TYPE}`,
    ].join('\n'),
  };
}
