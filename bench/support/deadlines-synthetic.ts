/**
 * A made-up family of spot worlds for the deadline benchmark, so that the
 * policy is not judged (nor tuned) on the V100 traces alone. Its parameters
 * were fixed before any policy was measured on it. Per family seed: 9 zones,
 * 3 in each of us-east-1, us-east-2 and us-west-2, over 20,158 ticks of 195 s
 * (the traces' length), and per zone:
 * - a share of time with capacity drawn evenly from 0.15-0.9 and a median
 *   run drawn evenly from 0.5-4 h; runs and outages are lognormal (σ 1.2:
 *   heavy tails, many short runs and a few long ones) with the outages'
 *   median set so that the mean run over the mean cycle gives the share;
 * - regional shocks about once every two days per region (lognormal, median
 *   2 h, σ 1) that take capacity from all three zones of the region at once;
 * - a price level drawn evenly from 0.28-0.55 × on-demand, moved tick by tick
 *   by a slow random walk of the log price (σ 0.3 % a tick, pulled back to the
 *   level at 0.1 % a tick), never above 0.9 × on-demand.
 */
import type { SpotTraces, SpotZone } from '../../shared/planning/spot-market';
import { seededRandom } from './random';

const TICK_MS = 195_000;
const TICKS = 20_158;
const HOUR_TICKS = 3_600_000 / TICK_MS;
const REGIONS = ['us-east-1', 'us-east-2', 'us-west-2'] as const;
const ZONES_PER_REGION = 3;
const SIGMA = 1.2;
const SHOCKS_PER_TICK = 1 / (48 * HOUR_TICKS);

export const DEADLINE_SYNTHETIC_MODEL =
  '9 zones in 3 regions; capacity share 0.15-0.9, median run 0.5-4 h, lognormal runs and outages (σ 1.2); ' +
  'regional shocks every ~2 days (median 2 h); price 0.28-0.55 × on-demand, slow log random walk';

export function syntheticSpotTraces(
  familySeed: number,
  instanceType: string,
  onDemandMicroUsdPerHour: number,
): SpotTraces {
  const random = seededRandom(familySeed * 7_919 + 17);
  const gaussian = () => {
    const u = Math.max(1e-12, random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const lognormalTicks = (medianTicks: number, sigma: number) =>
    Math.max(1, Math.round(medianTicks * Math.exp(sigma * gaussian())));
  const zones: SpotZone[] = [];
  for (const region of REGIONS) {
    const shocked = new Uint8Array(TICKS);
    for (let t = 0; t < TICKS; t += 1) {
      if (random() < SHOCKS_PER_TICK)
        shocked.fill(1, t, Math.min(TICKS, t + lognormalTicks(2 * HOUR_TICKS, 1)));
    }
    for (let z = 0; z < ZONES_PER_REGION; z += 1) {
      const share = 0.15 + 0.75 * random();
      const medianRun = (0.5 + 3.5 * random()) * HOUR_TICKS;
      // Lognormal mean = median × e^(σ²/2); outages' mean = runs' mean × (1 - share) / share.
      const medianOutage = (medianRun * (1 - share)) / share;
      const unavailable = new Uint8Array(TICKS);
      let t = 0;
      let up = random() < share;
      while (t < TICKS) {
        const length = lognormalTicks(up ? medianRun : medianOutage, SIGMA);
        if (!up) unavailable.fill(1, t, Math.min(TICKS, t + length));
        t += length;
        up = !up;
      }
      for (let i = 0; i < TICKS; i += 1) if (shocked[i] === 1) unavailable[i] = 1;
      const level = Math.log(onDemandMicroUsdPerHour * (0.28 + 0.27 * random()));
      const prices = new Int32Array(TICKS);
      let logPrice = level;
      for (let i = 0; i < TICKS; i += 1) {
        logPrice += 0.003 * gaussian() - 0.001 * (logPrice - level);
        prices[i] = Math.round(Math.min(0.9 * onDemandMicroUsdPerHour, Math.exp(logPrice)));
      }
      zones.push({ zone: `${region}-s${z + 1}`, region, unavailable, priceMicroUsdPerHour: prices });
    }
  }
  return { instanceType, tickMs: TICK_MS, ticks: TICKS, zones };
}
