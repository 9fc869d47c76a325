import type { DemandSegment } from '../domain/reservations';
import type { TraceLease } from './demand-trace';

/** Records GPU concurrency as it changes, as the step function the reservation policy reads. */
export class DemandRecorder {
  private readonly closed: DemandSegment[] = [];
  private gpus = 0;
  private sinceMs: number;

  constructor(originMs: number) {
    this.sinceMs = originMs;
  }

  change(atMs: number, deltaGpus: number): void {
    if (atMs > this.sinceMs) {
      if (this.gpus > 0) this.closed.push({ fromMs: this.sinceMs, toMs: atMs, gpus: this.gpus });
      this.sinceMs = atMs;
    }
    this.gpus += deltaGpus;
  }

  /** Demand from the origin up to `atMs`, the open step included; nothing after it. */
  historyUntil(atMs: number): DemandSegment[] {
    const history = [...this.closed];
    if (this.gpus > 0 && atMs > this.sinceMs)
      history.push({ fromMs: this.sinceMs, toMs: atMs, gpus: this.gpus });
    return history;
  }
}

/** The concurrency of a set of leases over their whole span. */
export function concurrencyOf(leases: readonly TraceLease[], originMs: number): DemandSegment[] {
  const changes = leases.flatMap((lease) => [
    { atMs: lease.startMs, delta: lease.gpus },
    { atMs: lease.endMs, delta: -lease.gpus },
  ]);
  changes.sort((a, b) => a.atMs - b.atMs);
  const recorder = new DemandRecorder(originMs);
  for (const { atMs, delta } of changes) recorder.change(atMs, delta);
  return recorder.historyUntil(changes.at(-1)?.atMs ?? originMs);
}
