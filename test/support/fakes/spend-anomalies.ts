import type { SpendAnomalyMessage } from '../../../shared/domain/waste/anomaly-message';
import type { SpendAnomalySettings } from '../../../shared/domain/waste/spend-anomaly';
import type {
  AnomalyNotifier,
  SpendAnomalyStore,
  StoredSpendSeries,
} from '../../../shared/ports/spend-anomalies';

const keyOf = (tenantId: string, project?: string) => `${tenantId}\n${project ?? ''}`;

/** Keeps the adapter's contract: a save whose version does not follow the stored one writes nothing. */
export class FakeSpendAnomalyStore implements SpendAnomalyStore {
  readonly series = new Map<string, StoredSpendSeries>();
  readonly settingsByTenant = new Map<string, Record<string, SpendAnomalySettings>>();

  async all(): Promise<StoredSpendSeries[]> {
    return [...this.series.values()];
  }

  async save(series: StoredSpendSeries): Promise<boolean> {
    const key = keyOf(series.tenantId, series.project);
    if ((this.series.get(key)?.version ?? 0) !== series.version - 1) return false;
    this.series.set(key, series);
    return true;
  }

  async settings(tenantId: string): Promise<Readonly<Record<string, SpendAnomalySettings>>> {
    return this.settingsByTenant.get(tenantId) ?? {};
  }

  async putSettings(tenantId: string, project: string | undefined, settings: SpendAnomalySettings) {
    this.settingsByTenant.set(tenantId, {
      ...this.settingsByTenant.get(tenantId),
      [project ?? '']: settings,
    });
  }
}

export class FakeAnomalyNotifier implements AnomalyNotifier {
  readonly messages: SpendAnomalyMessage[] = [];
  failNext = false;

  async publish(message: SpendAnomalyMessage): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('SNS down');
    }
    this.messages.push(message);
  }
}
