import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSpotTraces } from '../../../shared/adapters/spot-trace-files';
import { chooseRentalMode } from '../../../shared/domain/rental-mode';
import { replayPrices } from '../../../shared/planning/model';
import { simulatePolicy } from '../../../shared/planning/simulate';
import { SpotMarket } from '../../../shared/planning/spot-market';
import { FIXTURE_DATA_DIR, HOUR, lease, ORIGIN, traceOf } from './fixtures';

// The very module the provisioner imports, wrapped so the test can watch it and swap it.
vi.mock('../../../shared/domain/rental-mode', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../shared/domain/rental-mode')>();
  return { ...actual, chooseRentalMode: vi.fn(actual.chooseRentalMode) };
});

let market: SpotMarket;
beforeAll(async () => {
  market = new SpotMarket(await loadSpotTraces(FIXTURE_DATA_DIR), ORIGIN);
});

const trace = traceOf([
  lease('batch-1', 'batch', 1, 0, 30 * 60_000),
  lease('web-1', 'inference', 2, 0, 2 * HOUR),
]);
const replay = () => simulatePolicy({ trace, market, prices: replayPrices() });

// Back to the real policy (the implementation the mock was created with) and no recorded calls.
afterEach(() => vi.mocked(chooseRentalMode).mockReset());

describe('the replay decides modes with the product’s chooseRentalMode', () => {
  it('asks it once per lease, with the lease and the free reserved GPUs', () => {
    replay();
    expect(chooseRentalMode).toHaveBeenCalledTimes(2);
    expect(chooseRentalMode).toHaveBeenCalledWith({ workload: 'batch', gpus: 1, freeReservedGpus: 0 });
    expect(chooseRentalMode).toHaveBeenCalledWith({ workload: 'inference', gpus: 2, freeReservedGpus: 0 });
  });

  it('follows a changed policy: batch on-demand and inference on spot change the bill and the counters', () => {
    const before = replay();
    // The real policy: batch 30 min on spot at $1.00, inference 2 × 2 h on-demand at $3.06.
    expect(before.costMicroUsd).toEqual({ spot: 500_000, 'on-demand': 12_240_000, reserved: 0 });
    expect(before.inferenceOnSpot).toBe(0);

    vi.mocked(chooseRentalMode).mockImplementation(({ workload }) =>
      workload === 'batch'
        ? { mode: 'on-demand', fallback: null, reason: 'test: batch on-demand' }
        : { mode: 'spot', fallback: 'on-demand', reason: 'test: inference on spot' },
    );
    const after = replay();
    // Batch now 30 min × $3.06. Inference runs on us-east-1a at $1.00 until the reclaim at 1:00
    // is carried out at 1:02 (62 min), then planReclaim keeps it off spot: on-demand from 1:02
    // to 2:05 (63 min, the 5-minute restart included), 2 GPUs each time.
    expect(after.costMicroUsd).toEqual({
      'on-demand': 1_530_000 + 2 * 3_213_000,
      spot: 2 * 1_033_333,
      reserved: 0,
    });
    expect(after.inferenceOnSpot).toBe(1);
    expect(after.interruptions).toBe(1);
  });
});
