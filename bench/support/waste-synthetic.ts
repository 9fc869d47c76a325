/**
 * A second family of tenant spend series, made up rather than drawn from the
 * Alibaba trace, so the anomaly detector is not judged (nor tuned) on one
 * trace alone. Its parameters were fixed before the detector was measured on
 * it. Per tenant (8 per family seed, sizes from 4 to 100 GPUs running on
 * average):
 * - leases arrive as a Poisson process whose rate follows a daily cycle
 *   (1 + 0.7 × a sine peaking at a tenant's own hour, 08-20 UTC, never under
 *   0.15) and a quieter weekend (0.3-0.9 × the weekday rate, per tenant);
 * - each lease holds 1, 1, 1, 1, 2, 2, 4 or 8 GPUs (drawn evenly) for a
 *   lognormal time (median 90 min, σ 1), each GPU at the same hourly price;
 * - bursts, the legitimate surges a real tenant has: about twice a week (at
 *   the same daily cycle) a sweep of 0.5-1.5 × the tenant's mean concurrent
 *   leases of 1 GPU starts at once, each lasting a lognormal time (median 60 min).
 * Series start on a Monday, 00:00 UTC, one rate a minute, like the trace's.
 */
import { seededRandom } from './random';
import { ratesOf, type SpendLease, type SpendSeries } from './waste-anomaly';

const DAY_MINUTES = 1440;
const TENANT_MEAN_GPUS = [4, 6, 10, 16, 24, 40, 64, 100] as const;
const LEASE_GPUS = [1, 1, 1, 1, 2, 2, 4, 8] as const;
const MEAN_LEASE_GPUS = LEASE_GPUS.reduce((a, b) => a + b, 0) / LEASE_GPUS.length;
/** Mean of a lognormal of median 90 min and σ 1: 90 × e^½. */
const MEAN_LEASE_MINUTES = 90 * Math.exp(0.5);
const BURSTS_PER_MINUTE = 2 / (7 * DAY_MINUTES);
/** 2026-11-02, a Monday. */
const START_MS = Date.UTC(2026, 10, 2);

export const SYNTHETIC_MODEL =
  'Poisson leases on a daily sine (peak 08-20 UTC per tenant) and a 0.3-0.9 weekend; ' +
  '1/1/1/1/2/2/4/8 GPUs, lognormal 90 min (σ 1); bursts of 0.5-1.5 × mean leases of 1 GPU ' +
  '(lognormal 60 min) about twice a week; 8 tenants of 4-100 GPUs on average';

export function syntheticTenantSeries(
  familySeed: number,
  days: number,
  gpuMicroUsdPerHour: number,
): SpendSeries[] {
  return TENANT_MEAN_GPUS.map((meanGpus, tenant) => {
    const random = seededRandom(familySeed * 104_729 + tenant);
    const lognormal = (medianMinutes: number, sigma: number) => {
      const u = Math.max(1e-12, random());
      const v = random();
      return medianMinutes * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
    };
    const peakHour = 8 + 12 * random();
    const weekend = 0.3 + 0.6 * random();
    const cycle = (minute: number) => {
      const hour = (minute % DAY_MINUTES) / 60;
      const daily = Math.max(0.15, 1 + 0.7 * Math.cos((2 * Math.PI * (hour - peakHour)) / 24));
      return Math.floor(minute / DAY_MINUTES) % 7 < 5 ? daily : daily * weekend;
    };
    // Little's law: arrivals × mean duration × mean GPUs = mean GPUs running (the cycle averages about 1).
    const arrivalsPerMinute = meanGpus / (MEAN_LEASE_MINUTES * MEAN_LEASE_GPUS);
    const meanLeases = arrivalsPerMinute * MEAN_LEASE_MINUTES;
    const minutes = days * DAY_MINUTES;
    const leases: SpendLease[] = [];
    const run = (from: number, gpus: number, length: number) => {
      const to = Math.min(minutes, from + Math.max(1, Math.round(length)));
      leases.push({
        id: `lease-${leases.length}`,
        from,
        to,
        cost: gpus * gpuMicroUsdPerHour,
        instanceCost: gpuMicroUsdPerHour,
      });
    };
    for (let minute = 0; minute < minutes; minute++) {
      const intensity = cycle(minute);
      if (random() < arrivalsPerMinute * intensity) {
        run(minute, LEASE_GPUS[Math.floor(random() * LEASE_GPUS.length)] as number, lognormal(90, 1));
      }
      if (random() < BURSTS_PER_MINUTE * intensity) {
        const sweep = Math.max(1, Math.round(meanLeases * (0.5 + random())));
        for (let i = 0; i < sweep; i++) run(minute, 1, lognormal(60, 1));
      }
    }
    return { tenant, startMs: START_MS, rates: ratesOf(leases, minutes), leases };
  });
}
