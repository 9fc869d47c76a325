import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOfBilledSeconds, type InstanceRun } from '../../../../shared/domain/billing';
import {
  EMPTY_IDLE_CHECKPOINT,
  idleChargeUpTo,
  idleGpusByMinute,
  rollUpIdle,
} from '../../../../shared/domain/waste/idle-ledger';
import type { GpuSeries } from '../../../../shared/domain/waste/idle-window';

const MINUTE = 60_000;
const at = (hhmm: string) => Date.parse(`2026-11-20T${hhmm}Z`);
const gpu = (gpuIndex: number) => ({ instanceId: 'i-1', gpuIndex });

describe('the waste ledger', () => {
  it('charges exactly the billed seconds below the line, to the micro-dollar (hand-computed)', () => {
    // A 4-GPU instance launched at 10:00:30.250, 4.601601 $/h, a spot price change to 5 $/h
    // from 10:03:30.250 (second 180), billed 270 s (to 10:05:00.250). Second k belongs to the
    // minute holding 10:00:30.250 + k s:
    //   10:00  k 0-29    all 4 GPUs at 0 %            4 × 30 = 120 GPU-s at the first price
    //   10:01  k 30-89   no samples (never idle)       0
    //   10:02  k 90-149  GPUs 0-2 at 1 %, GPU 3 at 50 % 3 × 60 = 180 at the first price
    //   10:03  k 150-209 all 4 at 0 %                 4 × 30 = 120 at the first price, 120 at 5 $/h
    //   10:04  k 210-269 GPU 0 silent, 1-3 at 2 %      3 × 60 = 180 at 5 $/h
    // 720 GPU-s; each GPU a quarter of the price:
    // (420 × 4,601,601 + 300 × 5,000,000) / (3600 × 4) = 3,432,672,420 / 14,400 = 238,380.03 → 238,380 µ$.
    const run: InstanceRun = {
      launchedAtMs: at('10:00:30.250'),
      priceMicroUsdPerHour: 4_601_601,
      priceChanges: [
        { fromMs: at('10:03:30.250'), priceMicroUsdPerHour: 5_000_000, source: 'ec2-spot-price-history' },
      ],
    };
    const samples = (index: number, minutes: Record<string, number>): GpuSeries => ({
      gpu: gpu(index),
      samples: Object.entries(minutes).map(([hhmm, percent]) => ({ minuteMs: at(`${hhmm}:00`), percent })),
    });
    const series = [
      samples(0, { '10:00': 0, '10:02': 1, '10:03': 0 }),
      samples(1, { '10:00': 0, '10:02': 1, '10:03': 0, '10:04': 2 }),
      samples(2, { '10:00': 0, '10:02': 1, '10:03': 0, '10:04': 2 }),
      samples(3, { '10:00': 0, '10:02': 50, '10:03': 0, '10:04': 2 }),
    ];
    const charge = idleChargeUpTo({
      run,
      gpusPerInstance: 4,
      checkpoint: EMPTY_IDLE_CHECKPOINT,
      billedSeconds: 270,
      idleGpus: idleGpusByMinute(series, 5),
    });
    expect(charge.days).toEqual([{ day: '2026-11-20', idleGpuSeconds: 720, idleMicroUsd: 238_380 }]);
    expect(charge.checkpoint).toEqual({
      billedSeconds: 270,
      idleIntegral: 3_432_672_420,
      idleMicroUsd: 238_380,
    });
  });

  it('counts a fractional GPU its share: an idle g6f.large minute is 7.5 GPU-seconds', () => {
    const run = { launchedAtMs: at('10:00:00'), priceMicroUsdPerHour: 202_000 };
    const charge = idleChargeUpTo({
      run,
      gpusPerInstance: 0.125,
      checkpoint: EMPTY_IDLE_CHECKPOINT,
      billedSeconds: 60,
      idleGpus: new Map([[at('10:00:00'), 1]]),
    });
    expect(charge.days).toEqual([
      { day: '2026-11-20', idleGpuSeconds: 7.5, idleMicroUsd: costOfBilledSeconds(run, 60) },
    ]);
  });

  const scenario = fc.record({
    launchOffsetMs: fc.integer({ min: 0, max: 3 * MINUTE }),
    price: fc.integer({ min: 1, max: 98_320_000 }),
    gpus: fc.constantFrom(1, 2, 4, 8),
    minutes: fc.integer({ min: 1, max: 180 }),
    idleShare: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer(),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 180 * 60 }), { maxLength: 8 }),
  });

  it('any slicing of the billed seconds into metering runs gives the same idle cost, never above the bill', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        // Starts an hour before midnight so that the days split too.
        const run = { launchedAtMs: at('23:00:00') + s.launchOffsetMs, priceMicroUsdPerHour: s.price };
        const billed = s.minutes * 60;
        const idleGpus = new Map<number, number>();
        let r = s.seed;
        const firstMinute = Math.floor(run.launchedAtMs / MINUTE) * MINUTE;
        for (let m = 0; m <= s.minutes; m++) {
          r = (r * 1_103_515_245 + 12_345) % 2 ** 31;
          if (r / 2 ** 31 < s.idleShare) idleGpus.set(firstMinute + m * MINUTE, 1 + (r % s.gpus));
        }
        const input = { run, gpusPerInstance: s.gpus, idleGpus };
        const whole = idleChargeUpTo({ ...input, checkpoint: EMPTY_IDLE_CHECKPOINT, billedSeconds: billed });
        let checkpoint = EMPTY_IDLE_CHECKPOINT;
        let sliced = 0;
        for (const cut of [...s.cuts.filter((c) => c < billed).sort((a, b) => a - b), billed]) {
          const step = idleChargeUpTo({ ...input, checkpoint, billedSeconds: cut });
          sliced += step.days.reduce((sum, d) => sum + d.idleMicroUsd, 0);
          checkpoint = step.checkpoint;
        }
        expect(checkpoint).toEqual(whole.checkpoint);
        expect(sliced).toBe(whole.checkpoint.idleMicroUsd);
        expect(whole.checkpoint.idleMicroUsd).toBeLessThanOrEqual(costOfBilledSeconds(run, billed));
      }),
    );
  });

  it('a fully idle instance costs its whole bill as idle time', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const run = { launchedAtMs: at('10:00:00') + s.launchOffsetMs, priceMicroUsdPerHour: s.price };
        const idleGpus = new Map<number, number>();
        const first = Math.floor(run.launchedAtMs / MINUTE) * MINUTE;
        for (let m = 0; m <= s.minutes; m++) idleGpus.set(first + m * MINUTE, s.gpus);
        const charge = idleChargeUpTo({
          run,
          gpusPerInstance: s.gpus,
          idleGpus,
          checkpoint: EMPTY_IDLE_CHECKPOINT,
          billedSeconds: s.minutes * 60,
        });
        expect(charge.checkpoint.idleMicroUsd).toBe(costOfBilledSeconds(run, s.minutes * 60));
      }),
    );
  });

  it('rolls rows up by tenant, project and lease per day, each level the sum of its parts', () => {
    const rollups = rollUpIdle([
      { tenantId: 't', project: 'ml', leaseId: 'a', day: '2026-11-20', idleGpuSeconds: 60, idleMicroUsd: 10 },
      { tenantId: 't', project: 'ml', leaseId: 'b', day: '2026-11-20', idleGpuSeconds: 30, idleMicroUsd: 7 },
      { tenantId: 't', leaseId: 'c', day: '2026-11-20', idleGpuSeconds: 5, idleMicroUsd: 1 },
    ]);
    expect(rollups.get('t|2026-11-20#TENANT')).toEqual({ idleGpuSeconds: 95, idleMicroUsd: 18 });
    expect(rollups.get('t|2026-11-20#PROJECT#ml')).toEqual({ idleGpuSeconds: 90, idleMicroUsd: 17 });
    expect(rollups.get('t|2026-11-20#PROJECT#-')).toEqual({ idleGpuSeconds: 5, idleMicroUsd: 1 });
    expect(rollups.get('t|2026-11-20#LEASE#b')).toEqual({ idleGpuSeconds: 30, idleMicroUsd: 7 });
  });
});
