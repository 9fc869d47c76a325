import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MachineInfo } from '../../../bench/support/machine';
import {
  mergeResults,
  ResultsFileError,
  readResultsFile,
  writeResultsFile,
} from '../../../bench/support/results';

const MACHINE: MachineInfo = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryGiB: 8,
  loadAverage1m: 0.5,
  node: 'v20.20.2',
  platform: 'linux-x64',
  date: '2026-01-21T00:00:00.000Z',
};

describe('mergeResults', () => {
  it('replaces the keys of the benchmarks that ran, keeps the others and describes the machine', () => {
    const existing = {
      machine: { cpuModel: 'older machine' },
      rentalMix: { savings: 0.3 },
      metering: { ticksPerSecond: 1 },
    };

    const merged = mergeResults(
      existing,
      [
        { key: 'metering', figures: { ticksPerSecond: 2 } },
        { key: 'autoscaling', figures: { gpuHours: 10 } },
      ],
      MACHINE,
    );

    expect(merged).toEqual({
      machine: MACHINE,
      rentalMix: { savings: 0.3 },
      metering: { ticksPerSecond: 2 },
      autoscaling: { gpuHours: 10 },
    });
    expect(existing.metering).toEqual({ ticksPerSecond: 1 });
  });
});

describe('results file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpurent-bench-'));

  it('reads a missing file as empty and round-trips what it writes', () => {
    const path = join(dir, 'results.json');
    expect(readResultsFile(path)).toEqual({});

    writeResultsFile(path, { metering: { ticks: 3 } });

    expect(readResultsFile(path)).toEqual({ metering: { ticks: 3 } });
    expect(readFileSync(path, 'utf8')).toBe('{\n  "metering": {\n    "ticks": 3\n  }\n}\n');
  });

  it('refuses to overwrite a file it cannot read, saying what to do', () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"metering": ');
    const list = join(dir, 'list.json');
    writeFileSync(list, '[1, 2]');

    expect(() => readResultsFile(broken)).toThrow(ResultsFileError);
    expect(() => readResultsFile(broken)).toThrow(/broken\.json is not valid JSON .*; fix or delete it/);
    expect(() => readResultsFile(list)).toThrow(/list\.json does not hold a JSON object/);
  });
});
