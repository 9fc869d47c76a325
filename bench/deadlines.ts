/**
 * Deadline-aware spot (issue #20): the settings of "Can't Be Late" (NSDI '24)
 * replayed on the 9 real V100 zones, each zone alone and all 9 together;
 * greedy, uniform progress and gpurent's policy against all on-demand and
 * the offline optimum of the same jobs, measured in the same run.
 */
import { deadlinePolicy } from '../shared/domain/deadlines/policy';
import { greedyPolicy, uniformProgressPolicy } from '../shared/planning/deadlines/baselines';
import {
  evaluateSetting,
  PAPER_SETTINGS,
  type SettingOutcome,
  spreadStarts,
} from '../shared/planning/deadlines/evaluate';
import type { BenchmarkResult } from './support/benchmark';
import { DEFAULT_DATA_DIR, deadlineMarket, loadDeadlineData } from './support/deadlines-data';
import { round } from './support/stats';

/** Start times per setting and zone set, evenly over the traces: as many as keep the run within a few minutes. */
const STARTS = 40;
/** A model checkpoint of a V100 job (weights and optimizer state), moved whenever the job changes region. */
const CHECKPOINT_GB = 50;
const POLICIES = { greedy: greedyPolicy, uniformProgress: uniformProgressPolicy, gpurent: deadlinePolicy };
type PolicyName = keyof typeof POLICIES;
const NAMES = Object.keys(POLICIES) as PolicyName[];

interface Cell extends SettingOutcome {
  readonly zones: string;
}

/** One setting's two halves as one: each figure weighted by its half's jobs. */
function combine(a: SettingOutcome, b: SettingOutcome): SettingOutcome {
  const jobs = a.jobs + b.jobs;
  const mean = (x: number, y: number) => (jobs === 0 ? 0 : (x * a.jobs + y * b.jobs) / jobs);
  const policies = Object.fromEntries(
    Object.entries(a.policies).map(([name, p]) => {
      const q = b.policies[name] ?? p;
      return [
        name,
        {
          costVsOnDemand: mean(p.costVsOnDemand, q.costVsOnDemand),
          costVsOptimum: mean(p.costVsOptimum, q.costVsOptimum),
          misses: p.misses + q.misses,
          dearerThanOnDemand: p.dearerThanOnDemand + q.dearerThanOnDemand,
        },
      ];
    }),
  );
  return {
    setting: a.setting,
    jobs,
    infeasible: a.infeasible + b.infeasible,
    optimumVsOnDemand: mean(a.optimumVsOnDemand, b.optimumVsOnDemand),
    policies,
  };
}

export async function run(): Promise<BenchmarkResult> {
  const startedAt = performance.now();
  const data = await loadDeadlineData(DEFAULT_DATA_DIR);
  const allZones = data.traces.zones.map((zone) => zone.zone);
  const zoneSets = [...allZones.map((zone) => [zone]), allZones];
  const longestMs = Math.max(...PAPER_SETTINGS.map((s) => s.workHours * s.deadlineFactor)) * 3_600_000;
  const cells: Cell[] = [];
  const tuning: Cell[] = [];
  const heldOut: Cell[] = [];
  for (const zones of zoneSets) {
    const market = deadlineMarket(data, zones);
    const starts = spreadStarts(market, longestMs, STARTS);
    const terms = { checkpointGb: CHECKPOINT_GB, homeRegion: market.zones[0]?.region ?? '' };
    const name = zones.length === 1 ? (zones[0] as string) : `all ${zones.length}`;
    for (const setting of PAPER_SETTINGS) {
      // The policy's parameters were chosen on the earlier half of the start times; the later half is held out.
      const first = evaluateSetting(market, setting, starts.slice(0, STARTS / 2), terms, POLICIES);
      const second = evaluateSetting(market, setting, starts.slice(STARTS / 2), terms, POLICIES);
      tuning.push({ ...first, zones: name });
      heldOut.push({ ...second, zones: name });
      cells.push({ ...combine(first, second), zones: name });
    }
  }
  const seconds = round((performance.now() - startedAt) / 1000, 1);
  const mean = (pick: (cell: Cell) => number, of: readonly Cell[] = cells) =>
    of.reduce((sum, cell) => sum + pick(cell), 0) / of.length;
  const figure = (name: PolicyName, of: readonly Cell[]) => ({
    misses: of.reduce((sum, cell) => sum + (cell.policies[name]?.misses ?? 0), 0),
    meanCostVsOptimum: round(
      mean((cell) => cell.policies[name]?.costVsOptimum ?? 0, of),
      4,
    ),
    meanCostVsOnDemand: round(
      mean((cell) => cell.policies[name]?.costVsOnDemand ?? 0, of),
      4,
    ),
    dearerThanOnDemand: of.reduce((sum, cell) => sum + (cell.policies[name]?.dearerThanOnDemand ?? 0), 0),
  });
  const behindOf = (of: readonly Cell[]) =>
    of.filter(
      (cell) =>
        (cell.policies.gpurent?.costVsOptimum ?? 0) >
        (cell.policies.uniformProgress?.costVsOptimum ?? 0) + 1e-9,
    );
  const behind = behindOf(cells);
  const split = (of: readonly Cell[]) => ({
    ...figure('gpurent', of),
    uniformProgress: figure('uniformProgress', of),
    settingsBehindUniformProgress: behindOf(of).length,
  });
  const single = cells.filter((cell) => !cell.zones.startsWith('all'));
  const multi = cells.filter((cell) => cell.zones.startsWith('all'));
  const byPolicy = Object.fromEntries(NAMES.map((name) => [name, figure(name, cells)]));
  const gpurent = figure('gpurent', cells);
  const figures = {
    jobs: cells.reduce((sum, cell) => sum + cell.jobs, 0),
    startsPerSetting: STARTS,
    settings: cells.length,
    checkpointGb: CHECKPOINT_GB,
    misses: gpurent.misses,
    meanCostVsOptimum: gpurent.meanCostVsOptimum,
    meanCostVsOnDemand: gpurent.meanCostVsOnDemand,
    settingsBehindUniformProgress: behind.length,
    optimumVsOnDemand: round(
      mean((cell) => cell.optimumVsOnDemand),
      4,
    ),
    policies: byPolicy,
    singleZone: Object.fromEntries(NAMES.map((name) => [name, figure(name, single)])),
    allZones: Object.fromEntries(NAMES.map((name) => [name, figure(name, multi)])),
    tuningHalf: split(tuning),
    heldOutHalf: split(heldOut),
    perSetting: cells.map((cell) => ({
      zones: cell.zones,
      ...cell.setting,
      jobs: cell.jobs,
      infeasible: cell.infeasible,
      optimumVsOnDemand: round(cell.optimumVsOnDemand, 4),
      ...Object.fromEntries(
        NAMES.map((name) => {
          const p = cell.policies[name];
          return [
            name,
            {
              costVsOnDemand: round(p?.costVsOnDemand ?? 0, 4),
              costVsOptimum: round(p?.costVsOptimum ?? 0, 4),
              misses: p?.misses ?? 0,
            },
          ];
        }),
      ),
    })),
    seconds,
  };
  const line = (name: PolicyName) => {
    const f = byPolicy[name] as ReturnType<typeof figure>;
    return `${name.padEnd(16)} ${f.meanCostVsOnDemand.toFixed(3)} x on-demand, ${f.meanCostVsOptimum.toFixed(3)} x optimum, ${f.misses} misses`;
  };
  return {
    key: 'deadlines',
    figures,
    summary: [
      `${figures.jobs} jobs: ${cells.length} settings (${PAPER_SETTINGS.length} job shapes x ${zoneSets.length} zone sets) x ${STARTS} starts, ${seconds} s`,
      `offline optimum  ${figures.optimumVsOnDemand.toFixed(3)} x on-demand`,
      ...NAMES.map(line),
      `held out (later half of the starts): gpurent ${figures.heldOutHalf.meanCostVsOptimum.toFixed(3)} x optimum, ${figures.heldOutHalf.misses} misses, behind uniform progress on ${figures.heldOutHalf.settingsBehindUniformProgress}; tuning half ${figures.tuningHalf.meanCostVsOptimum.toFixed(3)} x optimum`,
      `gpurent behind uniform progress on ${behind.length} of ${cells.length} settings` +
        (behind.length > 0
          ? ` (${behind
              .map(
                (c) =>
                  `${c.zones} ${c.setting.workHours}h/${c.setting.deadlineFactor}x/${c.setting.restartMinutes}m`,
              )
              .slice(0, 6)
              .join(', ')})`
          : ''),
    ].join('\n'),
  };
}
