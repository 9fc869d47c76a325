import { costOfRun } from '../../shared/domain/billing';
import type { MicroUsd } from '../../shared/domain/money';
import type { Datapoint, LastScalingAction } from '../../shared/domain/scaling';

const MINUTE_MS = 60_000;

export interface FleetState {
  readonly nowMs: number;
  /** GPUs launched and not terminated, booting ones included. */
  readonly capacity: number;
  /** Fleet-average GPU utilization per minute so far, stamped at the minute's start, oldest first. */
  readonly utilization: readonly Datapoint[];
  readonly lastAction: LastScalingAction | null;
}

/** A scaling strategy: the fleet size it wants after looking at the state. */
export type Scaler = (state: FleetState) => number;

export interface SimulationOptions {
  readonly requestsPerMinute: readonly number[];
  readonly requestsPerGpuMinute: number;
  readonly initialCapacity: number;
  /** Launched GPUs serve only after this long (launch, boot, model load); they are billed meanwhile. */
  readonly bootMinutes: number;
  readonly priceMicroUsdPerHour: MicroUsd;
}

export interface SimulationOutcome {
  readonly gpuHours: number;
  readonly costMicroUsd: MicroUsd;
  /** Minutes whose demand exceeded the serving GPUs' capacity (utilization over 100%). */
  readonly sloMissMinutes: number;
  readonly scaleOutActions: number;
  readonly scaleInActions: number;
  readonly peakCapacity: number;
  readonly meanUtilizationPercent: number;
}

interface Instance {
  readonly launchedAtMs: number;
  readonly readyAtMs: number;
  endedAtMs: number | null;
}

/**
 * Minute-by-minute replay of an inference fleet under a load trace. Each minute
 * the ready GPUs serve the minute's requests and report their average
 * utilization (capped at 100%, as nvidia-smi does); then the scaler picks the
 * fleet size, launches start booting and removals stop billing at once
 * (booting GPUs go first, since they serve nothing yet). Cost is billed per
 * instance run through the domain's billing rules.
 */
export function simulateFleet(options: SimulationOptions, scaler: Scaler): SimulationOutcome {
  const launch = (atMs: number, bootMs: number): Instance => ({
    launchedAtMs: atMs,
    readyAtMs: atMs + bootMs,
    endedAtMs: null,
  });
  const instances: Instance[] = Array.from({ length: options.initialCapacity }, () => launch(0, 0));
  let live = [...instances];
  const utilization: Datapoint[] = [];
  let lastAction: LastScalingAction | null = null;
  let sloMissMinutes = 0;
  let scaleOutActions = 0;
  let scaleInActions = 0;
  let peakCapacity = live.length;
  let utilizationSum = 0;

  options.requestsPerMinute.forEach((requests, minute) => {
    const startMs = minute * MINUTE_MS;
    const ready = live.filter((i) => i.readyAtMs <= startMs).length;
    const demandPercent =
      ready === 0 ? Number.POSITIVE_INFINITY : (requests / (ready * options.requestsPerGpuMinute)) * 100;
    if (demandPercent > 100) sloMissMinutes++;
    const value = Math.min(100, demandPercent);
    utilizationSum += value;
    utilization.push({ timestampMs: startMs, value });

    const nowMs = startMs + MINUTE_MS;
    const wanted = scaler({ nowMs, capacity: live.length, utilization, lastAction });
    if (wanted > live.length) {
      const added = Array.from({ length: wanted - live.length }, () =>
        launch(nowMs, options.bootMinutes * MINUTE_MS),
      );
      instances.push(...added);
      live.push(...added);
      scaleOutActions++;
      lastAction = { action: 'scale-out', atMs: nowMs };
    } else if (wanted < live.length) {
      const byReadiness = [...live].sort((a, b) => b.readyAtMs - a.readyAtMs);
      for (const removed of byReadiness.slice(0, live.length - wanted)) removed.endedAtMs = nowMs;
      live = live.filter((i) => i.endedAtMs === null);
      scaleInActions++;
      lastAction = { action: 'scale-in', atMs: nowMs };
    }
    peakCapacity = Math.max(peakCapacity, live.length);
  });

  const endMs = options.requestsPerMinute.length * MINUTE_MS;
  let costMicroUsd = 0;
  let gpuMs = 0;
  for (const instance of instances) {
    const endedAtMs = instance.endedAtMs ?? endMs;
    costMicroUsd += costOfRun(
      { launchedAtMs: instance.launchedAtMs, priceMicroUsdPerHour: options.priceMicroUsdPerHour },
      endedAtMs,
    );
    gpuMs += endedAtMs - instance.launchedAtMs;
  }
  return {
    gpuHours: gpuMs / 3_600_000,
    costMicroUsd,
    sloMissMinutes,
    scaleOutActions,
    scaleInActions,
    peakCapacity,
    meanUtilizationPercent: utilizationSum / options.requestsPerMinute.length,
  };
}
