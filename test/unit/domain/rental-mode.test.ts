import { describe, expect, it } from 'vitest';
import { chooseRentalMode } from '../../../shared/domain/rental-mode';

describe('chooseRentalMode', () => {
  it('puts training on reserved while the commitment has room for the whole lease', () => {
    expect(chooseRentalMode({ workload: 'training', gpus: 4, freeReservedGpus: 4 })).toMatchObject({
      mode: 'reserved',
      fallback: 'on-demand',
    });
    expect(chooseRentalMode({ workload: 'training', gpus: 4, freeReservedGpus: 3 })).toMatchObject({
      mode: 'on-demand',
      fallback: null,
    });
  });

  it('puts inference on reserved when it fits, else on-demand, and never on spot', () => {
    expect(chooseRentalMode({ workload: 'inference', gpus: 1, freeReservedGpus: 1 }).mode).toBe('reserved');
    const full = chooseRentalMode({ workload: 'inference', gpus: 1, freeReservedGpus: 0 });
    expect(full).toMatchObject({ mode: 'on-demand', fallback: null });
    expect(full.reason).toContain('must not be interrupted');
  });

  it('declines a spot request for inference and says so', () => {
    const decision = chooseRentalMode({
      workload: 'inference',
      gpus: 1,
      requestedMode: 'spot',
      freeReservedGpus: 0,
    });
    expect(decision.mode).toBe('on-demand');
    expect(decision.fallback).not.toBe('spot');
    expect(decision.reason).toContain('spot request declined');
  });

  it('sends batch to spot with on-demand as the fallback, even when reserved GPUs are free', () => {
    expect(chooseRentalMode({ workload: 'batch', gpus: 1, freeReservedGpus: 10 })).toMatchObject({
      mode: 'spot',
      fallback: 'on-demand',
    });
  });

  it('honours requested modes where it can', () => {
    expect(
      chooseRentalMode({ workload: 'batch', gpus: 1, requestedMode: 'on-demand', freeReservedGpus: 0 }).mode,
    ).toBe('on-demand');
    expect(
      chooseRentalMode({ workload: 'training', gpus: 1, requestedMode: 'spot', freeReservedGpus: 5 }).mode,
    ).toBe('spot');
    expect(
      chooseRentalMode({ workload: 'batch', gpus: 2, requestedMode: 'reserved', freeReservedGpus: 1 }),
    ).toMatchObject({
      mode: 'on-demand',
      reason: 'requested reserved; no free reserved GPUs',
    });
  });
});
