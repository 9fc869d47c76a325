import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import { meterStoppedVolumes } from '../../../shared/usecases/fleet-storage';
import { FakeFleetStorageLedger } from '../../support/fakes/fleet-storage';

const T0 = Date.parse('2026-11-30T12:00:00.000Z');
const HOUR = 3_600_000;
const stopped = { stretchId: 'i-warm-1#stop', region: 'us-east-1', volumeGb: 200, stoppedAtMs: T0 };

describe("a warm pool's stopped volumes", () => {
  it('are metered to the fleet per second, once however often a tick repeats, up to the start', async () => {
    const deps = { fleetStorage: new FakeFleetStorageLedger(), catalog: priceCatalog };

    // An hour of 200 GiB at $0.08/GB-month: 200 × 3600 × 80,000 ÷ 2,592,000 = 22,222.2 µ$.
    expect(await meterStoppedVolumes(deps, [stopped], T0 + HOUR)).toBe(22_222);
    expect(await meterStoppedVolumes(deps, [stopped], T0 + HOUR)).toBe(0);
    // Started for a lease half an hour later: billed to the start, then nothing, whatever the ticks.
    const started = { ...stopped, endedAtMs: T0 + 1.5 * HOUR + 500 };
    expect(await meterStoppedVolumes(deps, [started], T0 + 2 * HOUR)).toBe(33_340 - 22_222);
    expect(await meterStoppedVolumes(deps, [started], T0 + 3 * HOUR)).toBe(0);
    // 5401 s in all: 200 × 5401 × 80,000 ÷ 2,592,000 = 33,339.51 µ$, rounded once.
    expect(await deps.fleetStorage.monthTotal('2026-11')).toBe(33_340);
  });
});
