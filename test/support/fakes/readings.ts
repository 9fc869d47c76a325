import type { RentalMode } from '../../../shared/domain/lease';
import { type PriceChange, type SpotPool, spotPoolKey } from '../../../shared/domain/price-changes';
import type { Datapoint } from '../../../shared/domain/scaling';
import type { ControlPlaneMetrics, LeaseRepair } from '../../../shared/ports/control-plane-metrics';
import { type MetricQuery, type MetricReader, metricQueryKey } from '../../../shared/ports/metrics';
import type { SpotPriceHistory } from '../../../shared/ports/spot-price-history';
import { Faults } from './faults';

/** Recorded spot prices, append-only: a change at an instant already recorded is kept as it was. */
export class FakeSpotPriceHistory implements SpotPriceHistory {
  private readonly changes = new Map<string, PriceChange[]>();

  async changesSince(pools: readonly SpotPool[], sinceMs: number): Promise<Map<string, PriceChange[]>> {
    return new Map(
      [...new Set(pools.map(spotPoolKey))].map((key) => [
        key,
        (this.changes.get(key) ?? []).filter((c) => c.fromMs > sinceMs).map((c) => ({ ...c })),
      ]),
    );
  }

  async record(pool: SpotPool, change: PriceChange): Promise<void> {
    const key = spotPoolKey(pool);
    const list = this.changes.get(key) ?? [];
    if (list.some((c) => c.fromMs === change.fromMs)) return;
    this.changes.set(
      key,
      [...list, { ...change }].sort((a, b) => a.fromMs - b.fromMs),
    );
  }
}

/** The dashboard figures the use cases emit, as recorded. */
export class FakeControlPlaneMetrics implements ControlPlaneMetrics {
  readonly running: number[] = [];
  readonly launchFailures: { mode: RentalMode; code: string }[] = [];

  leaseRunning(waitedMs: number): void {
    this.running.push(waitedMs);
  }

  launchFailed(mode: RentalMode, code: string): void {
    this.launchFailures.push({ mode, code });
  }

  readonly repaired: { repair: LeaseRepair; count: number }[] = [];

  leasesRepaired(repair: LeaseRepair, count: number): void {
    this.repaired.push({ repair, count });
  }
}

/** CloudWatch reads: each series answers the datapoints set for it that fall in the window asked. */
export class FakeMetricReader implements MetricReader {
  readonly faults = new Faults<'read'>();
  private readonly series = new Map<string, Datapoint[]>();

  set(query: MetricQuery, datapoints: readonly Datapoint[]): void {
    this.series.set(metricQueryKey(query), [...datapoints]);
  }

  async read(queries: readonly MetricQuery[], fromMs: number, toMs: number): Promise<Datapoint[][]> {
    this.faults.enter('read', [queries, fromMs, toMs]);
    return queries.map((query) =>
      (this.series.get(metricQueryKey(query)) ?? []).filter(
        (d) => d.timestampMs >= fromMs && d.timestampMs < toMs,
      ),
    );
  }
}
