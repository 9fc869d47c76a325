import { costOfSeconds, type MicroUsd } from '../money';
import { monthBounds, monthOf } from '../spend';

const SECONDS_PER_HOUR = 3600;

export interface Forecast {
  readonly microUsd: MicroUsd;
  readonly spendMicroUsd: MicroUsd;
  /** What the scope's running instances cost per hour now. */
  readonly runRateMicroUsdPerHour: MicroUsd;
  /** Whole seconds left in the month (UTC) at `atMs`. */
  readonly secondsLeft: number;
}

/**
 * Month-end spend if nothing changes: spend so far plus today's hourly run rate
 * for the rest of the month (UTC). Whole hours and the remainder are priced
 * apart so that a large fleet's rate never leaves the exact integer range.
 */
export function forecastMonthEnd(
  spendMicroUsd: MicroUsd,
  runRateMicroUsdPerHour: MicroUsd,
  atMs: number,
): Forecast {
  const { endMs } = monthBounds(monthOf(atMs));
  const secondsLeft = Math.max(0, Math.floor((endMs - atMs) / 1000));
  const wholeHours = Math.floor(secondsLeft / SECONDS_PER_HOUR);
  const rest = secondsLeft - wholeHours * SECONDS_PER_HOUR;
  const ahead = wholeHours * runRateMicroUsdPerHour + costOfSeconds(rest, runRateMicroUsdPerHour);
  return { microUsd: spendMicroUsd + ahead, spendMicroUsd, runRateMicroUsdPerHour, secondsLeft };
}
