import type { SpendAnomalyMessage } from '../domain/waste/anomaly-message';
import type {
  LeaseSpend,
  SpendAnomalyAlert,
  SpendAnomalySettings,
  SpendAnomalyState,
} from '../domain/waste/spend-anomaly';

/** One spend series' baseline between metering runs: a tenant (project absent) or one of its projects. */
export interface StoredSpendSeries {
  readonly tenantId: string;
  readonly project?: string | undefined;
  readonly state: SpendAnomalyState;
  /** The episode alert this series claimed, with the leases it names, until it is on the topic. */
  readonly pendingAlert?:
    | {
        readonly alert: SpendAnomalyAlert;
        readonly leases: readonly LeaseSpend[];
        readonly claimedAtMs: number;
      }
    | undefined;
  /** Bumped by every save: the lock of the conditional write. */
  readonly version: number;
}

/** Baselines per series (one item each) and the tenants' anomaly settings. */
export interface SpendAnomalyStore {
  /** Every stored series. */
  all(): Promise<StoredSpendSeries[]>;
  /**
   * Stores the series if its stored version is still `series.version - 1`
   * (0: none stored). False when another run saved it first: that run's
   * decision stands, so an episode is claimed once.
   */
  save(series: StoredSpendSeries): Promise<boolean>;
  /** A tenant's settings: under '' its own, under a project name that project's. */
  settings(tenantId: string): Promise<Readonly<Record<string, SpendAnomalySettings>>>;
  putSettings(tenantId: string, project: string | undefined, settings: SpendAnomalySettings): Promise<void>;
}

/** Where an episode's one alert goes: the budget alerts topic. */
export interface AnomalyNotifier {
  publish(message: SpendAnomalyMessage): Promise<void>;
}
