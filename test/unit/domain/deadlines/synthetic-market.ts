import type { DeadlineAction, DeadlinePolicy } from '../../../../shared/domain/deadlines/policy-input';
import type { DeadlineMarket, DeadlineZone } from '../../../../shared/planning/deadlines/market';

/** Synthetic spot worlds for the deadline tests: nothing here comes from the real traces. */
export const TICK_MS = 60_000;
export const OD_PRICE = 3_000_000;

export interface ZoneSketch {
  readonly zone: string;
  readonly region: string;
  /** One character per tick: '.' capacity, 'x' none. */
  readonly capacity: string;
  /** µ$/h per tick; a single number for a flat price. */
  readonly prices: number | readonly number[];
}

export function zoneOf(sketch: ZoneSketch): DeadlineZone {
  const ticks = sketch.capacity.length;
  return {
    zone: sketch.zone,
    region: sketch.region,
    unavailable: Uint8Array.from(sketch.capacity, (c) => (c === 'x' ? 1 : 0)),
    priceMicroUsdPerHour: Int32Array.from({ length: ticks }, (_, i) =>
      typeof sketch.prices === 'number' ? sketch.prices : (sketch.prices[i] as number),
    ),
  };
}

export function marketOf(
  zones: readonly ZoneSketch[],
  options: { onDemand?: Record<string, number>; transferPerGb?: number; signalWindowTicks?: number } = {},
): DeadlineMarket {
  const regions = [...new Set(zones.map((z) => z.region))];
  const onDemand = options.onDemand ?? Object.fromEntries(regions.map((r) => [r, OD_PRICE]));
  return {
    tickMs: TICK_MS,
    ticks: zones[0]?.capacity.length ?? 0,
    zones: zones.map(zoneOf),
    onDemand: Object.entries(onDemand).map(([region, priceMicroUsdPerHour]) => ({
      region,
      priceMicroUsdPerHour,
    })),
    transferCosts: { transferMicroUsdPerGb: {}, defaultTransferMicroUsdPerGb: options.transferPerGb ?? 0 },
    signalWindowTicks: options.signalWindowTicks ?? 60,
  };
}

/** A policy that plays a fixed script, one action a tick (the brute force's schedules). */
export function scripted(actions: readonly DeadlineAction[]): DeadlinePolicy {
  return (input) => {
    const tick = Math.round((input.nowMs - input.job.submittedAtMs) / input.tickMs);
    return { action: actions[tick] ?? { kind: 'wait' }, reason: 'scripted', slackMs: 0 };
  };
}

/** Every action a schedule can take in the market at any tick. */
export function actionsOf(market: DeadlineMarket): DeadlineAction[] {
  return [
    { kind: 'wait' },
    ...market.onDemand.map((o) => ({ kind: 'on-demand' as const, region: o.region })),
    ...market.zones.map((z) => ({ kind: 'spot' as const, zone: z.zone, region: z.region })),
  ];
}
