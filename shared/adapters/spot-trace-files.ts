import { loadSpotTraces, type SpotTraces } from '../../planner/spot-market';
import type { SpotTraceSource } from '../ports/audits';

/**
 * The V100 spot traces from a data directory (`spot-availability-aws-v100/`,
 * `spot-prices-aws-v100/`), read and validated on first use and kept for the
 * life of the container.
 */
export class SpotTraceFiles implements SpotTraceSource {
  private traces: Promise<SpotTraces> | undefined;

  constructor(private readonly dataDir: string) {}

  load(): Promise<SpotTraces> {
    this.traces ??= loadSpotTraces(this.dataDir).catch((error: unknown) => {
      this.traces = undefined;
      throw error;
    });
    return this.traces;
  }
}
