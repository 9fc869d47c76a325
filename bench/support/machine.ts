import os from 'node:os';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  /** Load average when the run started; the bench machines are shared, so timings depend on it. */
  readonly loadAverage1m: number;
  readonly node: string;
  readonly platform: string;
  readonly date: string;
}

export function describeMachine(now: Date = new Date()): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverage1m: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: now.toISOString(),
  };
}
