const DAY_MS = 86_400_000;

/** One UTC day's part of a window. */
export interface DayWindow {
  /** YYYY-MM-DD */
  readonly day: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/** The UTC days of [fromMs, toMs), each cut to the window (the first and last may be partial). */
export function utcDays(fromMs: number, toMs: number): DayWindow[] {
  const days: DayWindow[] = [];
  for (let dayStart = Math.floor(fromMs / DAY_MS) * DAY_MS; dayStart < toMs; dayStart += DAY_MS) {
    days.push({
      day: new Date(dayStart).toISOString().slice(0, 10),
      fromMs: Math.max(dayStart, fromMs),
      toMs: Math.min(dayStart + DAY_MS, toMs),
    });
  }
  return days;
}

/** `of` each UTC day's part of [fromMs, toMs), keyed by day (YYYY-MM-DD). */
export function perUtcDay<T>(
  fromMs: number,
  toMs: number,
  of: (fromMs: number, toMs: number) => T,
): Map<string, T> {
  return new Map(utcDays(fromMs, toMs).map((window) => [window.day, of(window.fromMs, window.toMs)]));
}
