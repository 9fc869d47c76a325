import type { MicroUsd } from '../domain/money';
import type { Pool } from '../domain/placement';

/** The instance type the V100 spot traces probed: one V100 each. */
export const SPOT_TRACE_INSTANCE_TYPE = 'p3.2xlarge';

/** One zone's spot history, tick by tick. */
export interface SpotZone {
  readonly zone: string;
  readonly region: string;
  /** 1 where the probe found no spot capacity (the traces' own convention), 0 where it found some. */
  readonly unavailable: Uint8Array;
  readonly priceMicroUsdPerHour: Int32Array;
}

export interface SpotTraces {
  readonly instanceType: string;
  readonly tickMs: number;
  readonly ticks: number;
  readonly zones: readonly SpotZone[];
  /** Set when the zones' series were of different lengths: the longest, cut to `ticks`. */
  readonly cutFromTicks?: number;
}

/** The market was asked about a zone its traces do not hold. */
export class UnknownSpotZoneError extends Error {
  constructor(readonly zone: string) {
    super(`no spot trace for zone ${zone}`);
    this.name = 'UnknownSpotZoneError';
  }
}

interface ZoneState extends SpotZone {
  /** Ticks from each tick to the next one without capacity (0: none now), or -1 when capacity never goes. */
  readonly ticksToLoss: Int32Array;
}

/**
 * Spot capacity and prices over simulated time. Trace time t (ms since the
 * demand trace's origin) reads tick floor(t / tick) modulo the trace length:
 * the spot history repeats over a longer demand trace.
 */
export class SpotMarket {
  readonly zones: readonly string[];
  private readonly byZone: ReadonlyMap<string, ZoneState>;
  /** Per tick slot: the cheapest price among zones with capacity, or -1 when none has any. */
  private readonly cheapest: Int32Array;

  constructor(
    readonly traces: SpotTraces,
    readonly originMs: number,
  ) {
    this.zones = traces.zones.map((z) => z.zone);
    this.byZone = new Map(
      traces.zones.map((z) => [z.zone, { ...z, ticksToLoss: ticksToLoss(z.unavailable) }]),
    );
    this.cheapest = new Int32Array(traces.ticks).fill(-1);
    for (const zone of traces.zones) {
      for (let slot = 0; slot < traces.ticks; slot += 1) {
        const price = zone.priceMicroUsdPerHour[slot] ?? 0;
        const best = this.cheapest[slot] ?? -1;
        if (zone.unavailable[slot] === 0 && (best < 0 || price < best)) this.cheapest[slot] = price;
      }
    }
  }

  /** The tick counted from the origin (not wrapped). */
  tickAt(atMs: number): number {
    return Math.floor((atMs - this.originMs) / this.traces.tickMs);
  }

  tickStartMs(tick: number): number {
    return this.originMs + tick * this.traces.tickMs;
  }

  slotOf(tick: number): number {
    const { ticks } = this.traces;
    return ((tick % ticks) + ticks) % ticks;
  }

  isAvailable(zone: string, atMs: number): boolean {
    return this.zone(zone).unavailable[this.slotOf(this.tickAt(atMs))] === 0;
  }

  priceMicroUsdPerHour(zone: string, atMs: number): MicroUsd {
    return this.zone(zone).priceMicroUsdPerHour[this.slotOf(this.tickAt(atMs))] ?? 0;
  }

  /** The cheapest spot price of any zone with capacity during `tick`, or null when no zone has any. */
  cheapestAvailableMicroUsdPerHour(tick: number): MicroUsd | null {
    const price = this.cheapest[this.slotOf(tick)] ?? -1;
    return price < 0 ? null : price;
  }

  /** When spot capacity in `zone` next goes away at or after `atMs` (`atMs` itself if it is gone now). */
  nextLossMs(zone: string, atMs: number): number {
    const tick = this.tickAt(atMs);
    const ahead = this.zone(zone).ticksToLoss[this.slotOf(tick)] ?? -1;
    if (ahead < 0) return Number.POSITIVE_INFINITY;
    return ahead === 0 ? atMs : this.tickStartMs(tick + ahead);
  }

  /** Every zone as a spot pool at `atMs`; `failedAtMs` holds the caller's recent capacity failures by zone. */
  pools(atMs: number, failedAtMs: ReadonlyMap<string, number>): Pool[] {
    return this.traces.zones.map((z) => ({
      region: z.region,
      zone: z.zone,
      instanceType: this.traces.instanceType,
      mode: 'spot',
      priceMicroUsdPerHour: this.priceMicroUsdPerHour(z.zone, atMs),
      available: this.isAvailable(z.zone, atMs),
      lastCapacityFailureAtMs: failedAtMs.get(z.zone),
    }));
  }

  private zone(zone: string): ZoneState {
    const state = this.byZone.get(zone);
    if (!state) throw new UnknownSpotZoneError(zone);
    return state;
  }
}

/** Distance in ticks from each slot to the next slot without capacity, going round the cyclic trace. */
function ticksToLoss(unavailable: Uint8Array): Int32Array {
  const n = unavailable.length;
  const result = new Int32Array(n).fill(-1);
  let next = -1;
  // Two passes backwards over the doubled trace: the first finds the wrap-around successors.
  for (let i = 2 * n - 1; i >= 0; i -= 1) {
    if (unavailable[i % n] === 1) next = i;
    if (i < n && next >= 0) result[i] = next - i;
  }
  return result;
}
