/**
 * Money is carried as integer micro-dollars (1 USD = 1,000,000 µ$) so that sums
 * of many small charges stay exact. Floats only appear at the edges: parsing a
 * catalog price and formatting a figure for people.
 */
export type MicroUsd = number;

export const MICRO_PER_USD = 1_000_000;
const SECONDS_PER_HOUR = 3600;

export class MoneyOverflowError extends Error {
  constructor(readonly value: number) {
    super(`Money value ${value} is outside the exact integer range`);
    this.name = 'MoneyOverflowError';
  }
}

function exact(value: number): number {
  if (!Number.isSafeInteger(value)) throw new MoneyOverflowError(value);
  return value;
}

/** Converts a decimal USD figure (e.g. a catalog price of 3.06) to micro-dollars. */
export function usdToMicro(usd: number): MicroUsd {
  return exact(Math.round(usd * MICRO_PER_USD));
}

/** Formats micro-dollars as a USD decimal string with six places, e.g. "0.051000". */
export function formatUsd(micro: MicroUsd): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / MICRO_PER_USD);
  const fraction = String(abs % MICRO_PER_USD).padStart(6, '0');
  return `${sign}${whole}.${fraction}`;
}

/** USD as a JSON number, for API responses and reports (rounded to the micro-dollar). */
export function microToUsd(micro: MicroUsd): number {
  return Number(formatUsd(micro));
}

/** Seconds at one hourly price: a stretch of a run whose price changed along the way. */
export interface PricedSeconds {
  readonly seconds: number;
  readonly priceMicroPerHour: MicroUsd;
}

/**
 * Cost of stretches of seconds, each at its hourly price: summed exactly (the
 * integral, in µ$·s/h) and rounded once, half up, to the micro-dollar, so the
 * same seconds cost the same however they are split into charges.
 * Integer arithmetic only: seconds × µ$/h stays far below 2^53 for any real lease.
 */
export function costOfPricedSeconds(stretches: readonly PricedSeconds[]): MicroUsd {
  const product = stretches.reduce(
    (sum, stretch) => exact(sum + exact(stretch.seconds * stretch.priceMicroPerHour)),
    0,
  );
  return Math.floor((product + SECONDS_PER_HOUR / 2) / SECONDS_PER_HOUR);
}

/** Cost of `seconds` at an hourly price, rounded half up to the micro-dollar. */
export function costOfSeconds(seconds: number, priceMicroPerHour: MicroUsd): MicroUsd {
  return costOfPricedSeconds([{ seconds, priceMicroPerHour }]);
}
