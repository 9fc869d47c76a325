import { type DurationSamples, HISTORY_WINDOW, historyKey } from '../../domain/admission/duration-history';
import type { Workload } from '../../domain/lease';

/** An ascending list of the latest `size` values, in the order they were added. */
class SortedWindow {
  readonly sorted: number[] = [];
  private readonly arrivals: number[] = [];

  constructor(private readonly size: number) {}

  add(value: number): void {
    this.sorted.splice(this.indexOf(value), 0, value);
    this.arrivals.push(value);
    if (this.arrivals.length > this.size)
      this.sorted.splice(this.indexOf(this.arrivals.shift() as number), 1);
  }

  private indexOf(value: number): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.sorted[middle] as number) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The duration history a replay knows at each instant: completions are added
 * as they happen, and only the latest HISTORY_WINDOW per key are kept, as a
 * repository would.
 */
export class HistoryWindow {
  private readonly byTenantWorkload = new Map<string, SortedWindow>();
  private readonly byWorkload = new Map<Workload, SortedWindow>();
  private total = 0;
  private count = 0;

  constructor(private readonly size = HISTORY_WINDOW) {}

  add(tenantId: string, workload: Workload, durationMs: number): void {
    const key = historyKey(tenantId, workload);
    const own = this.byTenantWorkload.get(key) ?? new SortedWindow(this.size);
    own.add(durationMs);
    this.byTenantWorkload.set(key, own);
    const shared = this.byWorkload.get(workload) ?? new SortedWindow(this.size);
    shared.add(durationMs);
    this.byWorkload.set(workload, shared);
    this.total += durationMs;
    this.count += 1;
  }

  /** The samples as the estimate reads them (views, not copies: read before the next `add`). */
  samples(): DurationSamples {
    return {
      byTenantWorkload: Object.fromEntries([...this.byTenantWorkload].map(([key, w]) => [key, w.sorted])),
      byWorkload: Object.fromEntries([...this.byWorkload].map(([key, w]) => [key, w.sorted])),
    };
  }

  /** Mean duration of every completion so far (the naive estimate's figure); null before the first. */
  meanMs(): number | null {
    return this.count === 0 ? null : this.total / this.count;
  }
}
