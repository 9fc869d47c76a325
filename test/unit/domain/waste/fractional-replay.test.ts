import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import { costOfRun } from '../../../../shared/domain/billing';
import { replayOnFractions } from '../../../../shared/planning/waste/fractional-replay';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 2);
const REGION = 'us-east-1';
const price = (type: string) => priceCatalog.onDemandMicroPerHour(type, REGION);
const cost = (type: string, hours: number) =>
  costOfRun({ launchedAtMs: T0, priceMicroUsdPerHour: price(type) }, T0 + hours * HOUR);

describe('the fractional replay', () => {
  const tasks = [
    { id: 'eighth', gpus: 1, gpuShare: 0.1, startMs: T0, endMs: T0 + 2 * HOUR },
    { id: 'quarter', gpus: 1, gpuShare: 0.23, startMs: T0, endMs: T0 + 3 * HOUR },
    { id: 'half', gpus: 1, gpuShare: 0.46, startMs: T0, endMs: T0 + HOUR },
    { id: 'most', gpus: 1, gpuShare: 0.81, startMs: T0, endMs: T0 + HOUR },
    { id: 'whole', gpus: 2, gpuShare: 1, startMs: T0, endMs: T0 + HOUR },
  ];

  it('puts each share on the cheapest fractional type that holds it, the rest on a whole GPU', () => {
    const replay = replayOnFractions(tasks, priceCatalog, REGION, 'g6.xlarge');
    expect(replay.placements.map((p) => `${p.taskId}:${p.instanceType}`)).toEqual([
      'eighth:g6f.large',
      'quarter:g6f.2xlarge',
      'half:g6f.4xlarge',
      'most:g6.xlarge',
    ]);
    expect(replay).toMatchObject({
      sharingTasks: 4,
      onFractions: 3,
      byFraction: { 0.125: 1, 0.25: 1, 0.5: 1 },
    });
    expect(replay.wholeMicroUsd).toBe(cost('g6.xlarge', 2) + cost('g6.xlarge', 3) + 2 * cost('g6.xlarge', 1));
    expect(replay.fractionalMicroUsd).toBe(
      cost('g6f.large', 2) + cost('g6f.2xlarge', 3) + cost('g6f.4xlarge', 1) + cost('g6.xlarge', 1),
    );
    expect(replay.fractionalMicroUsd).toBeLessThan(replay.wholeMicroUsd);
  });

  it('keeps a task whole where the region sells no fraction (eu-west-1 has no g6f)', () => {
    const replay = replayOnFractions(tasks.slice(0, 2), priceCatalog, 'eu-west-1', 'g4dn.xlarge');
    expect(replay.placements.map((p) => p.instanceType)).toEqual(['g4dn.xlarge', 'g4dn.xlarge']);
    expect(replay.fractionalMicroUsd).toBe(replay.wholeMicroUsd);
  });
});
