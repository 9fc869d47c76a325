import type { LeaseInstance } from './lease';
import type { MicroUsd } from './money';
import { SECONDS_PER_STORAGE_MONTH } from './money';

/** S3 bills a GB of 2^30 bytes ("GB" on the S3 pricing page is binary). */
export const BYTES_PER_S3_GB = 2 ** 30;
const MS_PER_STORAGE_MONTH = BigInt(SECONDS_PER_STORAGE_MONTH) * 1000n;

/**
 * How often a lease's checkpoint prefix is measured (one paginated
 * ListObjectsV2, 1,000 keys a page): at most once per lease per five minutes,
 * on the metering tick that finds the last measurement that old. Between
 * measurements the last one is billed: at one minute ticks a checkpoint's
 * growth reaches the bill at most five minutes late, and a fleet of 1,000 task
 * leases costs 200 LIST requests a minute, not 1,000 (about $0.0010 a minute at
 * $0.005 per 1,000).
 */
export const CHECKPOINT_MEASURE_EVERY_MS = 5 * 60_000;

/** A lease's checkpoint bytes as listed at an instant. */
export interface CheckpointMeasurement {
  readonly bytes: number;
  readonly atMs: number;
}

/** The checkpoint part of an instance's metering checkpoint, as stored on its record. */
export interface CheckpointBillingState {
  /** Bytes as last measured, billed from then on until the next measurement. */
  readonly checkpointBytes: number;
  readonly checkpointMeasuredAtMs?: number | undefined;
  /** Byte-milliseconds charged so far (a decimal string: they outgrow 2^53 at a terabyte-hour). */
  readonly checkpointByteMs: string;
  readonly checkpointBilledMicroUsd: MicroUsd;
}

export interface CheckpointCharge {
  /** Seconds of storage the charge adds (0 for a retention charge alone). */
  readonly seconds: number;
  readonly microUsd: MicroUsd;
  readonly state: CheckpointBillingState;
}

/** Byte-milliseconds at a GB-month price, half up to the micro-dollar: one product, one rounding. */
export function costOfByteMs(byteMs: bigint, microPerGbMonth: MicroUsd): MicroUsd {
  const divisor = BigInt(BYTES_PER_S3_GB) * MS_PER_STORAGE_MONTH;
  return Number((byteMs * BigInt(microPerGbMonth) * 2n + divisor) / (2n * divisor));
}

const stateOf = (instance: LeaseInstance): CheckpointBillingState => ({
  checkpointBytes: instance.checkpointBytes ?? 0,
  checkpointMeasuredAtMs: instance.checkpointMeasuredAtMs,
  checkpointByteMs: instance.checkpointByteMs ?? '0',
  checkpointBilledMicroUsd: instance.checkpointBilledMicroUsd ?? 0,
});

/** True when the instance carries its lease's checkpoints and their last measurement is due again. */
export function checkpointMeasurementDue(instance: LeaseInstance, atMs: number): boolean {
  if (instance.checkpointMicroUsdPerGbMonth === undefined) return false;
  const last = instance.checkpointMeasuredAtMs;
  return last === undefined || atMs - last >= CHECKPOINT_MEASURE_EVERY_MS;
}

/**
 * What the lease's checkpoints owe on the instance that carries them, from its
 * last charge (`meteredUntilMs`) to `untilMs`, at the bytes last measured: the
 * cumulative byte-milliseconds are costed once and differenced against what was
 * charged, so the ticks add up to the cost of the whole stretch. A fresh
 * `measurement` applies from this charge on. A charge that `ends` the
 * carrier's bill adds the bytes last known for `retentionMs`, the time the
 * bucket's lifecycle rule keeps them after the lease: charged once, because
 * the closing charge is (its checkpoint condition). Undefined when the
 * instance does not carry checkpoints or nothing is owed.
 */
export function checkpointChargeAt(
  instance: LeaseInstance,
  untilMs: number,
  options: { readonly measurement?: CheckpointMeasurement; readonly retentionMs?: number },
): CheckpointCharge | undefined {
  const price = instance.checkpointMicroUsdPerGbMonth;
  if (price === undefined) return undefined;
  const before = stateOf(instance);
  const fromMs = instance.meteredUntilMs;
  const stretchMs = Math.max(0, untilMs - fromMs);
  const { measurement, retentionMs } = options;
  const bytesAfter = measurement?.bytes ?? before.checkpointBytes;
  const byteMs =
    BigInt(before.checkpointByteMs) +
    BigInt(before.checkpointBytes) * BigInt(stretchMs) +
    BigInt(bytesAfter) * BigInt(retentionMs ?? 0);
  const billed = costOfByteMs(byteMs, price);
  const state: CheckpointBillingState = {
    checkpointBytes: bytesAfter,
    checkpointMeasuredAtMs: measurement?.atMs ?? before.checkpointMeasuredAtMs,
    checkpointByteMs: byteMs.toString(),
    checkpointBilledMicroUsd: billed,
  };
  if (byteMs === BigInt(before.checkpointByteMs) && !measurement) return undefined;
  return {
    seconds: before.checkpointBytes > 0 ? Math.floor(stretchMs / 1000) : 0,
    microUsd: billed - before.checkpointBilledMicroUsd,
    state,
  };
}
