import { describe, expect, it } from 'vitest';
import { judgeGpuHealth, summarizeSeries } from '../../../shared/domain/gpu-health';

const MINUTE = 60_000;
const NOW = 1_000 * MINUTE;

const judge = (overrides: Partial<Parameters<typeof judgeGpuHealth>[0]>) =>
  judgeGpuHealth({
    temperature: [{ timestampMs: NOW - MINUTE, value: 70 }],
    newestDatapointMs: NOW - MINUTE,
    launchedAtMs: NOW - 60 * MINUTE,
    nowMs: NOW,
    temperatureLimitC: 85,
    ...overrides,
  });

describe('GPU health', () => {
  it('is ok while reporting within the temperature limit', () => {
    expect(judge({})).toEqual({ status: 'ok', reason: 'reporting, within the temperature limit' });
  });

  it('is hot when the latest reading is above the limit, not an earlier one', () => {
    const hot = [
      { timestampMs: NOW - 2 * MINUTE, value: 70 },
      { timestampMs: NOW - MINUTE, value: 88.04 },
    ];
    expect(judge({ temperature: hot })).toEqual({ status: 'hot', reason: '88°C is above the 85°C limit' });
    expect(
      judge({ temperature: [...hot].reverse().map((d, i) => ({ ...d, value: i === 0 ? 70 : 90 })) }).status,
    ).toBe('ok');
  });

  it('is silent after five minutes without a datapoint, but gives a new GPU five minutes to start', () => {
    expect(judge({ newestDatapointMs: NOW - 5 * MINUTE, temperature: [] })).toEqual({
      status: 'silent',
      reason: 'no datapoint for 5 minutes',
    });
    expect(judge({ newestDatapointMs: undefined, temperature: [], launchedAtMs: NOW - 4 * MINUTE })).toEqual({
      status: 'ok',
      reason: 'starting: no datapoint yet, silent if none within 5 minutes of launch',
    });
    expect(
      judge({ newestDatapointMs: undefined, temperature: [], launchedAtMs: NOW - 6 * MINUTE }).status,
    ).toBe('silent');
  });
});

describe('series summary', () => {
  it('gives avg, nearest-rank p95 and max, or nulls for an empty series', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(summarizeSeries(values)).toEqual({ avg: 10.5, p95: 19, max: 20 });
    expect(summarizeSeries([42])).toEqual({ avg: 42, p95: 42, max: 42 });
    expect(summarizeSeries([])).toEqual({ avg: null, p95: null, max: null });
  });
});
