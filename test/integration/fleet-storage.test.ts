import { beforeAll, describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { buildPorts } from '../../shared/lambda/port-factory';
import { fleetStorageLedger } from '../../shared/lambda/stores';
import type { FleetStorageLedger } from '../../shared/ports/fleet-storage';
import { meterStoppedVolumes } from '../../shared/usecases/fleet-storage';
import { useFreshResources } from '../support/function-env';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-20T12:00:00.000Z');

let first: FleetStorageLedger;
let second: FleetStorageLedger;

beforeAll(async () => {
  const env = await useFreshResources();
  // Two writers, each with its own client (the filler's run and the lease worker's close): DynamoDB settles races.
  first = buildPorts({ ledger: fleetStorageLedger('readWrite') }, env).ledger;
  second = buildPorts({ ledger: fleetStorageLedger('readWrite') }, env).ledger;
});

const stretch = (stretchId: string, endedAtMs?: number) => ({
  stretchId,
  region: 'us-east-1',
  volumeGb: 200,
  stoppedAtMs: T0,
  ...(endedAtMs === undefined ? {} : { endedAtMs }),
});

describe('the fleet storage ledger on DynamoDB Local', () => {
  it('meters a stopped stretch once however the runs repeat or race, and totals the month', async () => {
    const filler = { fleetStorage: first, catalog: priceCatalog };
    const worker = { fleetStorage: second, catalog: priceCatalog };
    // An hour of 200 GiB at $0.08/GB-month: 200 × 3600 × 80,000 ÷ 2,592,000 = 22,222.2 µ$.
    expect(await meterStoppedVolumes(filler, [stretch('i-a#1')], T0 + HOUR)).toBe(22_222);
    expect(await meterStoppedVolumes(filler, [stretch('i-a#1')], T0 + HOUR)).toBe(0);
    // The claim at 2 h closes it, from both writers at once: one of them bills the second hour.
    const closed = stretch('i-a#1', T0 + 2 * HOUR);
    const raced = await Promise.all([
      meterStoppedVolumes(filler, [closed], T0 + 3 * HOUR),
      meterStoppedVolumes(worker, [closed], T0 + 2 * HOUR),
    ]);
    // 7200 s: 200 × 7200 × 80,000 ÷ 2,592,000 = 44,444.4 µ$, less the 22,222 billed.
    expect(raced.sort((a, b) => a - b)).toEqual([0, 22_222]);
    expect(await meterStoppedVolumes(worker, [closed], T0 + 5 * HOUR)).toBe(0);
    expect(await first.monthTotal('2026-11')).toBe(44_444);
    expect(await second.monthTotal('2026-12')).toBe(0);
  });
});
