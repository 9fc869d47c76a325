/**
 * Synthetic tenants for the anomaly detector's tests, made up here rather than
 * drawn from any trace: leases arrive as a Poisson process whose rate follows
 * a daily cycle (a peak in the working day) and a quieter weekend, each with
 * 1-8 GPUs at $1-4 per GPU-hour for an exponential time (mean 4 hours). The
 * spend rate at each minute is what the running leases cost per hour (µ$/h).
 */
const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface SyntheticTenant {
  readonly startMs: number;
  /** Spend rate per minute from `startMs`, µ$/h. */
  readonly rates: number[];
}

export function syntheticTenant(seed: number, days: number, arrivalsPerMinute = 0.05): SyntheticTenant {
  const random = lcg(seed);
  const minutes = days * DAY_MINUTES;
  const delta = new Float64Array(minutes + 1);
  const startMs = Date.UTC(2026, 10, 2); // a Monday
  for (let minute = 0; minute < minutes; minute++) {
    const hour = (minute % DAY_MINUTES) / 60;
    const weekday = Math.floor(minute / DAY_MINUTES) % 7 < 5;
    const daily = Math.max(0.1, 1 + 0.8 * Math.sin((2 * Math.PI * (hour - 9)) / 24));
    if (random() >= arrivalsPerMinute * daily * (weekday ? 1 : 0.4)) continue;
    const gpus = [1, 1, 1, 2, 2, 4, 8][Math.floor(random() * 7)] as number;
    const rate = Math.round(gpus * (1 + 3 * random()) * 1_000_000);
    const duration = Math.max(1, Math.round(-Math.log(1 - random()) * 240));
    delta[minute] = (delta[minute] ?? 0) + rate;
    delta[Math.min(minutes, minute + duration)] = (delta[Math.min(minutes, minute + duration)] ?? 0) - rate;
  }
  const rates: number[] = [];
  let running = 0;
  for (let minute = 0; minute < minutes; minute++) {
    running += delta[minute] ?? 0;
    rates.push(running);
  }
  return { startMs, rates };
}

export const minuteOf = (day: number, hh: number, mm: number) => day * DAY_MINUTES + hh * 60 + mm;

export const atMinute = (tenant: SyntheticTenant, minute: number) => tenant.startMs + minute * MINUTE_MS;
