import { describe, expect, it } from 'vitest';
import type { FleetState } from '../../../bench/support/fleet-simulation';
import {
  predictiveFloor,
  proportionalScaleOut,
  targetTracking,
} from '../../../bench/support/scaling-strategies';

const MINUTE = 60_000;

function state(values: number[], capacity: number, lastAction: FleetState['lastAction'] = null): FleetState {
  const nowMs = values.length * MINUTE;
  return {
    nowMs,
    capacity,
    lastAction,
    utilization: values.map((value, i) => ({ timestampMs: i * MINUTE, value })),
  };
}

describe('target tracking (the AWS baseline)', () => {
  const tracker = targetTracking({ targetPercent: 70, minCapacity: 1, maxCapacity: 20 });

  it('scales out proportionally after 3 datapoints above the target', () => {
    expect(tracker(state([90, 95, 100], 4))).toBe(6);
    expect(tracker(state([90, 60, 100], 4))).toBe(4);
    expect(tracker(state([71, 71, 71], 4))).toBe(5);
  });

  it('scales in only after 15 datapoints below 90% of the target, rounding up', () => {
    expect(tracker(state(Array(15).fill(20), 10))).toBe(3);
    expect(tracker(state(Array(14).fill(20), 10))).toBe(10);
    expect(tracker(state([...Array(14).fill(20), 64], 10))).toBe(10);
  });

  it('waits out its cooldowns, but a scale-in never holds a scale-out', () => {
    const justNow = (action: 'scale-out' | 'scale-in') => ({ action, atMs: 2 * MINUTE });
    expect(tracker(state([90, 90, 90], 4, justNow('scale-out')))).toBe(4);
    expect(tracker(state([90, 90, 90], 4, justNow('scale-in')))).toBe(6);
  });
});

describe('alternatives to the default rules', () => {
  it('proportional steps add what the load asks for, only when the base scales out', () => {
    const plusOne = (s: FleetState) => s.capacity + 1;
    expect(proportionalScaleOut(plusOne, 50, 20)(state([100, 100, 100], 4))).toBe(8);
    expect(proportionalScaleOut((s) => s.capacity, 50, 20)(state([100, 100, 100], 4))).toBe(4);
  });

  it('the predictive floor holds what the same time of day needed on past days, from the past only', () => {
    const day = 1_440;
    const requests = Array.from({ length: 3 * day }, (_, m) => (m % day === 600 ? 1_000 : 0));
    const floor = predictiveFloor((s) => s.capacity, requests, 100, {
      days: 1,
      quantile: 1,
      spreadMinutes: 0,
      targetPercent: 50,
      maxCapacity: 50,
    });
    const at = (minute: number) => ({ ...state([10], 1), nowMs: minute * MINUTE });
    expect(floor(at(day + 600))).toBe(20);
    expect(floor(at(day + 597))).toBe(20);
    expect(floor(at(day + 700))).toBe(1);
    expect(floor(at(600))).toBe(1);
  });
});
