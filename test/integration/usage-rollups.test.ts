import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { scheduledEvent } from '../../local/runtime/schedules';
import { DynamoDbSpendCounters } from '../../shared/adapters/dynamodb-spend-counters';
import type { LeaseInstance } from '../../shared/domain/lease';
import { awsProbe } from '../support/aws';
import { type Harness, startHarness } from '../support/harness';
import { usageCharges } from '../support/usage-records';

let harness: Harness;
let meter: typeof import('../../functions/metering/handler').handler;

const TENANT = 'tenant-rollups';
const DAY1 = Date.parse('2026-11-10T08:00:00Z');
const DAY2 = Date.parse('2026-11-11T08:00:00Z');
const TICKS_PER_DAY = 30;

beforeAll(async () => {
  harness = await startHarness();
  meter = (await import('../../functions/metering/handler')).handler;
  const instances: LeaseInstance[] = [];
  for (const mode of ['on-demand', 'spot'] as const)
    for (const instanceType of ['g5.xlarge', 'p5.4xlarge'])
      for (const project of ['vision', undefined])
        for (let n = 0; n < 5; n += 1) {
          const id = `${mode}-${instanceType}-${project ?? 'none'}-${n}`;
          for (const launchedAtMs of [DAY1, DAY2]) {
            instances.push({
              tenantId: TENANT,
              leaseId: `lease-${id}`,
              instanceId: `i-${id}-${launchedAtMs}`,
              instanceType,
              mode,
              project,
              zone: 'us-east-1a',
              priceMicroUsdPerHour: 1_000_000 + n * 7_919,
              launchedAtMs,
              meteredUntilMs: launchedAtMs,
              billedSeconds: 0,
              billedMicroUsd: 0,
              meteringOpen: true,
              // The first of each five also pays its volume and a transfer of its data.
              ...(n === 0
                ? { volumeGb: 200, storageMicroUsdPerGbMonth: 80_000, transferMicroUsd: 20_000 + 1 }
                : {}),
            });
          }
        }
  await harness.stores.leases.recordInstances(instances);
  for (const start of [DAY1, DAY2]) {
    for (let minute = 1; minute <= TICKS_PER_DAY; minute += 1) {
      await meter(
        scheduledEvent('metering', start + minute * 60_000, 'us-east-1'),
        lambdaContext('metering', 60_000),
      );
    }
  }
}, 180_000);

/** Counts the items DynamoDB returns to a reader, as the usage route reads them. */
function countingReader() {
  const client = new DynamoDBClient({});
  let items = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      items += ((result.output as { Items?: unknown[] }).Items ?? []).length;
      return result;
    },
    { step: 'initialize', name: 'countItems' },
  );
  const reader = new DynamoDbSpendCounters(
    DynamoDBDocumentClient.from(client),
    harness.env.SPEND_TABLE_NAME ?? '',
  );
  return { reader, items: () => items };
}

const rows = async () =>
  (await usageCharges(harness.env.USAGE_TABLE_NAME ?? '')).filter((row) => row.tenantId === TENANT);

describe('usage from daily rollups', () => {
  it('reads one item per day, mode, instance type and project, however many ticks and instances', async () => {
    const raw = (await rows()).filter((row) => (row.dimension ?? 'compute') === 'compute');
    // Day 1: its 40 instances tick 30 times; day 2: those and 40 more.
    expect(raw).toHaveLength((40 + 80) * TICKS_PER_DAY);
    const counting = countingReader();
    const daily = await counting.reader.dailyUsage(TENANT, '2026-11-01', '2026-11-30');
    expect(daily).toHaveLength(2 * 2 * 2 * 2);
    expect(counting.items()).toBe(16);
    const leases = await counting.reader.leaseDailyUsage(TENANT, '2026-11-01', '2026-11-30');
    expect(leases).toHaveLength(2 * 40);
  });

  it.each(['mode', 'instanceType', 'project', 'day', 'lease', 'dimension'] as const)(
    'GET /v1/usage?groupBy=%s equals the sum of the raw rows, to the micro-dollar',
    async (groupBy) => {
      const raw = await rows();
      const keyOf: Record<typeof groupBy, (row: Record<string, unknown>) => string> = {
        mode: (row) => String(row.mode),
        instanceType: (row) => String(row.instanceType),
        project: (row) => String(row.project ?? '(none)'),
        day: (row) => new Date(Number(row.atMs) - 1).toISOString().slice(0, 10),
        lease: (row) => String(row.leaseId),
        dimension: (row) => String(row.dimension ?? 'compute'),
      };
      const expected = new Map<string, number>();
      for (const row of raw)
        expected.set(keyOf[groupBy](row), (expected.get(keyOf[groupBy](row)) ?? 0) + Number(row.microUsd));

      const response = await harness.call(TENANT, 'GET /v1/usage', {
        query: { from: '2026-11-01', to: '2026-12-01', groupBy },
      });
      expect(response.status).toBe(200);
      expect(response.body.from).toBe('2026-11-01T00:00:00.000Z');
      const groups = new Map(
        response.body.groups.map((g: { key: string; costMicroUsd: number }) => [g.key, g.costMicroUsd]),
      );
      expect(groups).toEqual(expected);
      if (groupBy === 'dimension')
        expect([...groups.keys()].sort()).toEqual(['compute', 'storage', 'transfer']);
      expect(response.body.costMicroUsd).toBe(raw.reduce((sum, row) => sum + Number(row.microUsd), 0));
    },
  );

  it('refuses a grouping it does not know', async () => {
    const response = await harness.call(TENANT, 'GET /v1/usage', { query: { groupBy: 'volume' } });
    expect(response.status).toBe(400);
  });

  it('widens a range to the whole days it touches, and says so', async () => {
    const response = await harness.call(TENANT, 'GET /v1/usage', {
      query: { from: '2026-11-10T12:00:00Z', to: '2026-11-10T13:00:00Z', groupBy: 'day' },
    });
    expect(response.body).toMatchObject({ from: '2026-11-10T00:00:00.000Z', to: '2026-11-11T00:00:00.000Z' });
    expect(response.body.groups.map((g: { key: string }) => g.key)).toEqual(['2026-11-10']);
  });

  it('keeps raw usage records for the export and audits, each with an expiry after its last charge', async () => {
    const records = (await awsProbe().scan(harness.env.USAGE_TABLE_NAME ?? '')).filter(
      (record) => record.tenantId === TENANT,
    );
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      const lastMs = Math.max(...(record.charges as { atMs: number }[]).map((charge) => charge.atMs));
      expect(Number(record.expiresAt)).toBe(Math.floor(lastMs / 1000) + 400 * 86_400);
    }
    // Fewer records than charges: a record holds every charge of its transaction.
    expect(records.length).toBeLessThan((await rows()).length);
  });
});
