import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import type { LeaseInstance } from '../../shared/domain/lease';
import { checkpointPrefix } from '../../shared/domain/tasks/log-streams';
import { newLeaseId } from '../../shared/ids';
import type { TickSummary } from '../../shared/usecases/metering';
import { storesOf, useFreshResources } from '../support/function-env';
import { usageCharges } from '../support/usage-records';

/*
 * A task lease's checkpoints in moto's S3, billed by the real metering handler
 * into DynamoDB Local: measured at a tick, charged per millisecond while the
 * lease runs, and the retention period charged once when it ends.
 */
let env: Record<string, string>;
let handler: typeof import('../../functions/metering/handler').handler;
let stores: Awaited<ReturnType<typeof storesOf>>;

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler } = await import('../../functions/metering/handler'));
  stores = await storesOf(env);
});

const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
const MIB = 2 ** 20;
const tick = async (atMs: number) =>
  (await handler(
    scheduledEvent('metering', atMs, 'us-east-1'),
    lambdaContext('metering', 60_000),
  )) as TickSummary;

async function taskLeaseCarrier(): Promise<LeaseInstance> {
  const leaseId = newLeaseId(Date.now());
  const instance: LeaseInstance = {
    tenantId: 'tenant-ckpt',
    leaseId,
    instanceId: `i-${leaseId.slice(-12)}`,
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    zone: 'us-east-1a',
    priceMicroUsdPerHour: 1_006_000,
    launchedAtMs: T0,
    meteredUntilMs: T0,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
    // As provisioning records the instance of a task lease: S3 Standard in us-east-1, $0.023/GB-month.
    checkpointMicroUsdPerGbMonth: 23_000,
  };
  await stores.leases.recordInstances([instance]);
  return instance;
}

/** What the task's `aws s3 sync` leaves under the lease's prefix: 5 MiB + 3 MiB. */
async function writeCheckpoint(instance: LeaseInstance): Promise<void> {
  const s3 = new S3Client({ forcePathStyle: true });
  const prefix = checkpointPrefix(instance.tenantId, instance.leaseId);
  for (const [name, size] of [
    ['model.pt', 5 * MIB],
    ['optimizer.pt', 3 * MIB],
  ] as const) {
    await s3.send(
      new PutObjectCommand({
        Bucket: env.CHECKPOINT_BUCKET_NAME,
        Key: `${prefix}${name}`,
        Body: Buffer.alloc(size, 1),
      }),
    );
  }
  s3.destroy();
}

const current = async ({ tenantId, leaseId, instanceId }: LeaseInstance) =>
  (await stores.leases.instancesByRef([{ tenantId, leaseId, instanceId }]))[0];
const checkpointLines = async (instance: LeaseInstance) =>
  (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter(
    (row) => row.instanceId === instance.instanceId && row.part === 'checkpoints',
  );

describe('checkpoint storage on moto S3 and DynamoDB Local', () => {
  it('charges 8 MiB for 15 days of running and 30 days of retention: 270 micro-dollars, once', async () => {
    const instance = await taskLeaseCarrier();
    await writeCheckpoint(instance);

    const first = await tick(T0 + MINUTE);
    expect(first.checkpointsMeasured).toBeGreaterThanOrEqual(1);
    expect(await current(instance)).toMatchObject({
      checkpointBytes: 8 * MIB,
      checkpointMeasuredAtMs: T0 + MINUTE,
      checkpointBilledMicroUsd: 0,
    });

    // The release closes the bill 15 days after the measurement (the lease worker's path: no listing).
    const { closeInstanceBill } = await import('../../shared/usecases/metering');
    const endedAtMs = T0 + MINUTE + 15 * DAY;
    const latest = (await current(instance)) as LeaseInstance;
    await closeInstanceBill(stores, latest, endedAtMs, () => current(instance));
    // Redelivered: the release again, and a late tick at the end.
    await closeInstanceBill(stores, latest, endedAtMs, () => current(instance));
    await tick(endedAtMs);

    // 8/1024 GiB x (15 + 30) days / 30 days x 23,000 µ$ = 269.53125 -> 270.
    const closed = await current(instance);
    expect(closed).toMatchObject({ meteringOpen: false, checkpointBilledMicroUsd: 270 });
    const lines = await checkpointLines(instance);
    expect(lines.reduce((sum, line) => sum + Number(line.microUsd), 0)).toBe(270);
    expect(lines.every((line) => line.dimension === 'storage')).toBe(true);
  });

  it('lists a carrier at most once per five minutes', async () => {
    const instance = await taskLeaseCarrier();
    const measuredAt = async () => (await current(instance))?.checkpointMeasuredAtMs;
    await tick(T0 + 2 * MINUTE);
    expect(await measuredAt()).toBe(T0 + 2 * MINUTE);
    await tick(T0 + 6 * MINUTE);
    expect(await measuredAt()).toBe(T0 + 2 * MINUTE);
    await tick(T0 + 7 * MINUTE);
    expect(await measuredAt()).toBe(T0 + 7 * MINUTE);
  });
});
