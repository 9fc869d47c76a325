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

/** A USD figure the API accepts: nothing finer than a micro-dollar, so storing it loses nothing. */
export const isWholeMicroUsd = (usd: number): boolean => usdToMicro(usd) / MICRO_PER_USD === usd;

export const WHOLE_MICRO_USD_RULE = 'may have at most 6 decimal places (micro-dollars)';

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

/**
 * Storage is priced per GB-month and billed per second; AWS's own examples
 * count a month as 30 days, so a GB-second is 1/2,592,000 of a GB-month.
 */
export const SECONDS_PER_STORAGE_MONTH = 30 * 86_400;

/**
 * Cost of `gb` stored for `seconds` at a GB-month price, rounded half up to
 * the micro-dollar: one product, one rounding, so a cumulative figure is a
 * pure function of the seconds however they were reached.
 */
export function costOfGbSeconds(gb: number, seconds: number, microPerGbMonth: MicroUsd): MicroUsd {
  const product = exact(exact(gb * seconds) * microPerGbMonth);
  return Math.floor((product + SECONDS_PER_STORAGE_MONTH / 2) / SECONDS_PER_STORAGE_MONTH);
}

const MICRO_PER_CENT = 10_000;
/** Hourly prices keep a hundredth of a cent: catalog and spot prices have up to four decimals. */
const MICRO_PER_HOURLY_STEP = 100;

/** A non-negative amount rounded half up to a multiple of `step`. */
const roundTo = (micro: MicroUsd, step: number) => Math.floor((micro + step / 2) / step) * step;

/** The amount's size rounded to `step`, except under a cent: exact, so it never reads as nothing. */
const shownSize = (micro: MicroUsd, step: number) => {
  const size = Math.abs(micro);
  return size < MICRO_PER_CENT ? size : roundTo(size, step);
};

/** Six decimals without the trailing zeros, but at least cents: 1_006_000 → "1.006". */
function trimmed(micro: MicroUsd): string {
  return formatUsd(micro).replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * The one rule for money shown to people (CLI, alerts, audit summary, report
 * page); JSON keeps the exact figures. An amount is rounded half away from zero
 * to the cent ("$0.02" for 15,000 µ$), except a non-zero amount under a cent,
 * shown exactly ("$0.0042" for 4,200 µ$) so it never reads as nothing.
 */
export function formatUsdForPeople(micro: MicroUsd): string {
  return `${micro < 0 ? '-' : ''}$${trimmed(shownSize(micro, MICRO_PER_CENT))}`;
}

/**
 * An hourly price for people: rounded half away from zero to a hundredth of a
 * cent, trailing zeros after the cents dropped ("$1.006/h", "$0.3672/h",
 * "$1.00/h"); under a cent an hour, exact.
 */
export function formatUsdPerHourForPeople(microPerHour: MicroUsd): string {
  return `${microPerHour < 0 ? '-' : ''}$${trimmed(shownSize(microPerHour, MICRO_PER_HOURLY_STEP))}/h`;
}
