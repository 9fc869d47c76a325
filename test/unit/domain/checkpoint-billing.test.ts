import { describe, expect, it } from 'vitest';
import { storagePrices } from '../../../shared/catalog/storage';
import {
  BYTES_PER_S3_GB,
  CHECKPOINT_MEASURE_EVERY_MS,
  checkpointChargeAt,
  checkpointMeasurementDue,
  costOfByteMs,
} from '../../../shared/domain/checkpoint-billing';
import type { LeaseInstance } from '../../../shared/domain/lease';

const GIB = BYTES_PER_S3_GB;
const HOUR_MS = 3_600_000;
/** S3 Standard in us-east-1: $0.023 per GB-month. */
const US_EAST_1 = 23_000;

const carrier = (overrides: Partial<LeaseInstance> = {}): LeaseInstance => ({
  tenantId: 't',
  leaseId: 'lease_x',
  instanceId: 'i-1',
  instanceType: 'g5.xlarge',
  mode: 'on-demand',
  zone: 'us-east-1a',
  priceMicroUsdPerHour: 1_006_000,
  launchedAtMs: 0,
  meteredUntilMs: 0,
  billedSeconds: 0,
  billedMicroUsd: 0,
  meteringOpen: true,
  checkpointMicroUsdPerGbMonth: US_EAST_1,
  ...overrides,
});

/** The instance after a charge: its checkpoint state stored, metered up to `atMs`. */
const after = (instance: LeaseInstance, atMs: number) => {
  const charge = checkpointChargeAt(instance, atMs, {});
  return { charge, next: { ...instance, ...charge?.state, meteredUntilMs: atMs } };
};

describe('checkpoint storage billing', () => {
  it('prices S3 Standard from the table: $0.023 per GB-month in us-east-1, the dearest where unlisted', () => {
    expect(storagePrices.s3StandardMicroPerGbMonth('us-east-1')).toBe(US_EAST_1);
    expect(storagePrices.s3StandardMicroPerGbMonth('eu-central-1')).toBe(24_500);
    expect(storagePrices.s3StandardMicroPerGbMonth('me-south-1')).toBe(40_500);
  });

  it('costs byte-milliseconds half up to the micro-dollar, a GB being 2^30 bytes and a month 30 days', () => {
    // 1 GiB for a 30-day month is the price itself.
    expect(costOfByteMs(BigInt(GIB) * 2_592_000_000n, US_EAST_1)).toBe(23_000);
    // 1 GiB for an hour: 23,000 x 3,600 / 2,592,000 = 31.94 -> 32.
    expect(costOfByteMs(BigInt(GIB) * BigInt(HOUR_MS), US_EAST_1)).toBe(32);
    // Half a month of 1 GiB at 1 micro-dollar: exactly 0.5 rounds up, a millisecond less down.
    expect(costOfByteMs(BigInt(GIB) * 1_296_000_000n, 1)).toBe(1);
    expect(costOfByteMs(BigInt(GIB) * 1_296_000_000n - 1n, 1)).toBe(0);
  });

  it('charges the bytes last measured per millisecond, cumulatively: three 20-minute ticks of 1 GiB pay 11 + 10 + 11', () => {
    let instance = carrier({ checkpointBytes: GIB, checkpointMeasuredAtMs: 0 });
    const paid: number[] = [];
    for (const atMs of [20, 40, 60].map((minutes) => minutes * 60_000)) {
      const step = after(instance, atMs);
      paid.push(step.charge?.microUsd ?? 0);
      instance = step.next;
    }
    // Cumulative 10.648, 21.296, 31.944 µ$, each rounded once: 11, 21, 32.
    expect(paid).toEqual([11, 10, 11]);
    expect(instance.checkpointBilledMicroUsd).toBe(32);
    expect(instance.checkpointByteMs).toBe((BigInt(GIB) * BigInt(HOUR_MS)).toString());
  });

  it('bills a new measurement from its instant on, never before it', () => {
    const measured = checkpointChargeAt(carrier({ meteredUntilMs: 0 }), HOUR_MS, {
      measurement: { bytes: 2 * GIB, atMs: HOUR_MS },
    });
    expect(measured).toMatchObject({
      microUsd: 0,
      state: { checkpointBytes: 2 * GIB, checkpointMeasuredAtMs: HOUR_MS },
    });
    const next = { ...carrier(), ...measured?.state, meteredUntilMs: HOUR_MS };
    // 2 GiB for an hour: 63.89 -> 64.
    expect(checkpointChargeAt(next, 2 * HOUR_MS, {})?.microUsd).toBe(64);
  });

  it('adds the retained bytes for the retention period once, at the close: 8 MiB for 30 days is 179.6875 -> 180', () => {
    const instance = carrier({ checkpointBytes: 8 * 2 ** 20, meteredUntilMs: HOUR_MS });
    const close = checkpointChargeAt(instance, HOUR_MS, { retentionMs: 30 * 86_400_000 });
    expect(close?.microUsd).toBe(180);
    expect(close?.seconds).toBe(0);
  });

  it('owes nothing for an instance that does not carry checkpoints, or no bytes and no measurement', () => {
    expect(
      checkpointChargeAt(carrier({ checkpointMicroUsdPerGbMonth: undefined }), HOUR_MS, {}),
    ).toBeUndefined();
    expect(checkpointChargeAt(carrier(), HOUR_MS, {})).toBeUndefined();
  });

  it(`measures a carrier at its first tick, then at most once per ${CHECKPOINT_MEASURE_EVERY_MS / 60_000} minutes`, () => {
    expect(checkpointMeasurementDue(carrier(), 60_000)).toBe(true);
    const measured = carrier({ checkpointMeasuredAtMs: 60_000 });
    expect(checkpointMeasurementDue(measured, 60_000 + CHECKPOINT_MEASURE_EVERY_MS - 1)).toBe(false);
    expect(checkpointMeasurementDue(measured, 60_000 + CHECKPOINT_MEASURE_EVERY_MS)).toBe(true);
    expect(checkpointMeasurementDue(carrier({ checkpointMicroUsdPerGbMonth: undefined }), 60_000)).toBe(
      false,
    );
  });
});
