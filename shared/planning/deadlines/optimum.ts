import {
  type DeadlineJobSpec,
  type DeadlineMarket,
  jobTicks,
  marketRegions,
  transferUnits,
  UNITS_PER_MICRO_USD,
} from './market';

interface RunMode {
  /** Index into the market's zones for spot, -1 for on-demand. */
  readonly zoneIndex: number;
  readonly region: number;
  readonly onDemandUnitsPerTick: number;
}

/**
 * The offline optimum: the cheapest schedule that finishes by the deadline
 * knowing the whole trace, by dynamic programming over ticks, under the very
 * rules `simulateJob` replays (the lower bound for every policy). Null when no
 * schedule finishes in time.
 *
 * State at a tick: how the job ran the tick before (spot in a zone, on-demand
 * in a region, or stopped with its checkpoint in a region) and its progress q
 * in ticks. A run pays its restart up front in q (a start at q goes on from
 * q - restart + 1 after its first tick), so no restart counter is needed: q is
 * then at most the true progress. Stopping or an interruption leaves max(q, 0).
 * The encoding never credits progress not made, so every schedule it values
 * is real; and a cheapest real schedule never pays for a run that ends within
 * its restart (waiting instead costs nothing and keeps the same checkpoint,
 * and a later start pays the same restart), so the encoding loses none of
 * them. Only states from which the work can still finish in time are kept
 * (q >= work - ticks left), so the cost is ticks × slack, not ticks × work.
 */
export function offlineOptimumMicroUsd(market: DeadlineMarket, job: DeadlineJobSpec): number | null {
  const { work: W, restart: k, deadline: D } = jobTicks(market, job);
  const regions = marketRegions(market);
  const regionOf = (name: string) => regions.indexOf(name);
  const R = regions.length;
  const modes: RunMode[] = [
    ...market.zones.map((zone, zoneIndex) => ({
      zoneIndex,
      region: regionOf(zone.region),
      onDemandUnitsPerTick: 0,
    })),
    ...market.onDemand.map((offer) => ({
      zoneIndex: -1,
      region: regionOf(offer.region),
      onDemandUnitsPerTick: offer.priceMicroUsdPerHour * market.tickMs,
    })),
  ];
  const M = modes.length;
  const transfer = new Float64Array(R * R);
  for (let a = 0; a < R; a += 1) {
    for (let b = 0; b < R; b += 1) {
      transfer[a * R + b] = transferUnits(
        market,
        job.checkpointGb,
        regions[a] as string,
        regions[b] as string,
      );
    }
  }
  // Progress q runs from -k (a start's debt) to W (done); index q + k.
  const S = W + k + 1;
  const INF = Number.POSITIVE_INFINITY;
  let runNext = new Float64Array(M * S).fill(INF);
  let runCur = new Float64Array(M * S).fill(INF);
  let idleNext = new Float64Array(R * S).fill(INF);
  let idleCur = new Float64Array(R * S).fill(INF);
  for (const layer of [runNext, runCur]) for (let m = 0; m < M; m += 1) layer[m * S + W + k] = 0;
  for (const layer of [idleNext, idleCur]) for (let r = 0; r < R; r += 1) layer[r * S + W + k] = 0;
  const cost = new Float64Array(M);
  const startBest = new Float64Array(R);

  for (let t = D - 1; t >= 0; t -= 1) {
    const tick = job.startTick + t;
    for (let m = 0; m < M; m += 1) {
      const mode = modes[m] as RunMode;
      if (mode.zoneIndex < 0) cost[m] = mode.onDemandUnitsPerTick;
      else {
        const zone = market.zones[mode.zoneIndex];
        cost[m] =
          zone?.unavailable[tick] === 0 ? (zone.priceMicroUsdPerHour[tick] as number) * market.tickMs : INF;
      }
    }
    const lo = W - (D - t);
    const hi = Math.min(W - 1, t);
    // Cells just below the band are read from the next tick's side: they must say "too late".
    const idleLo = Math.max(0, lo);
    for (let r = 0; r < R; r += 1) {
      for (let q = Math.max(0, lo - 1); q < idleLo; q += 1) idleCur[r * S + q + k] = INF;
    }
    for (let q = idleLo; q <= hi; q += 1) {
      startBest.fill(INF);
      const after = q - k + 1 + k;
      for (let m = 0; m < M; m += 1) {
        const c = cost[m] as number;
        if (c === INF) continue;
        const v = c + (runNext[m * S + after] as number);
        const region = (modes[m] as RunMode).region;
        if (v < (startBest[region] as number)) startBest[region] = v;
      }
      for (let r = 0; r < R; r += 1) {
        let best = idleNext[r * S + q + k] as number;
        for (let to = 0; to < R; to += 1) {
          const v = (startBest[to] as number) + (transfer[r * R + to] as number);
          if (v < best) best = v;
        }
        idleCur[r * S + q + k] = best;
      }
    }
    const runLo = Math.max(-k + 1, lo);
    for (let m = 0; m < M; m += 1) {
      const base = m * S;
      for (let q = Math.max(-k, lo - k - 1); q < runLo; q += 1) runCur[base + q + k] = INF;
      const c = cost[m] as number;
      const idleBase = (modes[m] as RunMode).region * S + k;
      for (let q = runLo; q <= hi; q += 1) {
        let best = idleCur[idleBase + Math.max(q, 0)] as number;
        if (c !== INF) {
          const v = c + (runNext[base + q + 1 + k] as number);
          if (v < best) best = v;
        }
        runCur[base + q + k] = best;
      }
    }
    [runCur, runNext] = [runNext, runCur];
    [idleCur, idleNext] = [idleNext, idleCur];
  }
  const home = regionOf(job.homeRegion);
  if (home < 0) return null;
  const value = idleNext[home * S + k] as number;
  return value === INF ? null : value / UNITS_PER_MICRO_USD;
}
