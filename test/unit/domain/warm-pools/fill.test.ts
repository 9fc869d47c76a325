import { describe, expect, it } from 'vitest';
import { planFill, WARM_INIT_TIMEOUT_MS } from '../../../../shared/domain/warm-pools/fill';
import type { WarmMachine, WarmMachineObservation } from '../../../../shared/domain/warm-pools/machine';

const NOW = 10 * 60 * 60_000;
const machine = (id: string, state: WarmMachine['state'], extra: Partial<WarmMachine> = {}): WarmMachine => ({
  pool: 'p',
  instanceId: id,
  region: 'us-east-1',
  zone: 'us-east-1a',
  instanceType: 'g5.xlarge',
  imageVersion: 'gpu:v2',
  state,
  launchedAtMs: NOW - 60_000,
  ...extra,
});
const stopped: WarmMachineObservation = { state: 'stopped', readySignal: true };
const ids = (machines: readonly WarmMachine[]) => machines.map((m) => m.instanceId);

describe('planFill', () => {
  it('launches up to size, counting machines still initialising', () => {
    const plan = planFill({
      size: 3,
      currentImage: 'gpu:v2',
      machines: [machine('a', 'ready'), machine('b', 'launching')],
      observed: new Map([
        ['a', stopped],
        ['b', { state: 'running', readySignal: false }],
      ]),
      nowMs: NOW,
    });
    expect(plan.launch).toBe(1);
    expect(plan.replace).toEqual([]);
  });

  it('stops machines that signalled ready and marks stopped ones ready', () => {
    const plan = planFill({
      size: 2,
      currentImage: 'gpu:v2',
      machines: [machine('a', 'launching'), machine('b', 'stopping')],
      observed: new Map([
        ['a', { state: 'running', readySignal: true }],
        ['b', stopped],
      ]),
      nowMs: NOW,
    });
    expect(ids(plan.stop)).toEqual(['a']);
    expect(ids(plan.markReady)).toEqual(['b']);
    expect(plan.launch).toBe(0);
  });

  it('replaces machines of an image version no longer current (a rollback too) and launches their successors', () => {
    const plan = planFill({
      size: 2,
      currentImage: 'gpu:v1',
      machines: [machine('a', 'ready'), machine('b', 'ready', { imageVersion: 'gpu:v1' })],
      observed: new Map([
        ['a', stopped],
        ['b', stopped],
      ]),
      nowMs: NOW,
    });
    expect(ids(plan.replace)).toEqual(['a']);
    expect(plan.launch).toBe(1);
  });

  it('forgets machines EC2 ended or no longer knows, and replaces them', () => {
    const plan = planFill({
      size: 2,
      currentImage: 'gpu:v2',
      machines: [machine('a', 'launching'), machine('b', 'ready')],
      observed: new Map([['a', { state: 'terminated', readySignal: false }]]),
      nowMs: NOW,
    });
    expect(ids(plan.forget)).toEqual(['a', 'b']);
    expect(plan.launch).toBe(2);
  });

  it('replaces a machine that never signalled ready within the init timeout', () => {
    const plan = planFill({
      size: 1,
      currentImage: 'gpu:v2',
      machines: [machine('a', 'launching', { launchedAtMs: NOW - WARM_INIT_TIMEOUT_MS - 1 })],
      observed: new Map([['a', { state: 'running', readySignal: false }]]),
      nowMs: NOW,
    });
    expect(ids(plan.replace)).toEqual(['a']);
    expect(plan.launch).toBe(1);
  });

  it('over size, ends the least ready machines first and keeps ready ones', () => {
    const plan = planFill({
      size: 1,
      currentImage: 'gpu:v2',
      machines: [machine('a', 'ready'), machine('b', 'launching'), machine('c', 'stopping')],
      observed: new Map([
        ['a', stopped],
        ['b', { state: 'running', readySignal: true }],
        ['c', { state: 'stopping', readySignal: true }],
      ]),
      nowMs: NOW,
    });
    expect(ids(plan.replace)).toEqual(['b', 'c']);
    expect(plan.stop).toEqual([]);
    expect(plan.launch).toBe(0);
  });

  it('launches nothing while the image has no current version', () => {
    const plan = planFill({
      size: 4,
      currentImage: undefined,
      machines: [],
      observed: new Map(),
      nowMs: NOW,
    });
    expect(plan.launch).toBe(0);
  });
});
