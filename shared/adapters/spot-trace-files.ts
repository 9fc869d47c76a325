import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { usdToMicro } from '../domain/money';
import { SPOT_TRACE_INSTANCE_TYPE, type SpotTraces, type SpotZone } from '../planning/spot-market';
import type { SpotTraceSource } from '../ports/audits';
import * as z from '../zod';

/** Where the V100 spot traces sit under a data directory. */
export const AVAILABILITY_DIR = 'spot-availability-aws-v100';
export const PRICES_FILE = join('spot-prices-aws-v100', 'v100_spot_prices.json');

/** A spot trace file that is missing, unreadable or not what the planner expects. */
export class SpotDataError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'SpotDataError';
  }
}

const availabilityFile = z.object({
  metadata: z.object({ gap_seconds: z.number().check(z.positive()) }),
  data: z.array(z.union([z.literal(0), z.literal(1)])),
});
const pricesFile = z.record(z.string(), z.array(z.number().check(z.nonnegative())));

/** A JSON file of the reference data read and checked against `schema`; any failure is a `SpotDataError` naming the file. */
export async function readJson<T>(path: string, schema: z.core.$ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new SpotDataError(path, error instanceof Error ? error.message : String(error));
  }
  const parsed = z.safeParse(schema, raw);
  if (!parsed.success) throw new SpotDataError(path, z.prettifyError(parsed.error));
  return parsed.data;
}

/**
 * Loads the V100 (`p3.2xlarge`) spot traces of `dataDir`: one availability file
 * per zone, named `<zone>_v100_1.json`, and the price series under the same key.
 * All zones must be probed at one interval; series of different lengths (zones
 * collected over different spans) are cut to the shortest, so that every tick
 * replayed has every zone's record, and `cutFromTicks` says so.
 */
export async function loadSpotTraces(dataDir: string): Promise<SpotTraces> {
  const dir = join(dataDir, AVAILABILITY_DIR);
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  if (names.length === 0) throw new SpotDataError(dir, 'no spot availability traces');
  const pricesPath = join(dataDir, PRICES_FILE);
  const prices = await readJson(pricesPath, pricesFile);
  const read = [];
  for (const name of names) {
    const path = join(dir, name);
    const trace = await readJson(path, availabilityFile);
    const key = name.replace(/\.json$/, '');
    const series = prices[key];
    if (!series) throw new SpotDataError(pricesPath, `no price series "${key}" for ${name}`);
    const gapSeconds = (read[0]?.trace ?? trace).metadata.gap_seconds;
    if (trace.metadata.gap_seconds !== gapSeconds) {
      throw new SpotDataError(
        path,
        `probed every ${trace.metadata.gap_seconds} s, the other zones every ${gapSeconds} s`,
      );
    }
    read.push({ key, path, trace, series });
  }
  const lengths = read.flatMap(({ trace, series }) => [trace.data.length, series.length]);
  const ticks = Math.min(...lengths);
  const longest = Math.max(...lengths);
  if (ticks === 0) {
    const empty = read.find(({ trace, series }) => trace.data.length === 0 || series.length === 0);
    throw new SpotDataError(empty?.path ?? dir, 'an availability or price series with no ticks');
  }
  const zones = read.map(({ key, trace, series }): SpotZone => {
    const zone = key.split('_')[0] ?? key;
    return {
      zone,
      region: zone.replace(/[a-z]$/, ''),
      unavailable: Uint8Array.from(trace.data.slice(0, ticks)),
      priceMicroUsdPerHour: Int32Array.from(series.slice(0, ticks), usdToMicro),
    };
  });
  const tickMs = (read[0]?.trace.metadata.gap_seconds ?? 0) * 1000;
  return {
    instanceType: SPOT_TRACE_INSTANCE_TYPE,
    tickMs,
    ticks,
    zones,
    ...(longest > ticks ? { cutFromTicks: longest } : {}),
  };
}

/**
 * The V100 spot traces from a data directory, read and validated on first use
 * and kept for the life of the container.
 */
export class SpotTraceFiles implements SpotTraceSource {
  private traces: Promise<SpotTraces> | undefined;

  constructor(private readonly dataDir: string) {}

  load(): Promise<SpotTraces> {
    this.traces ??= loadSpotTraces(this.dataDir).catch((error: unknown) => {
      this.traces = undefined;
      throw error;
    });
    return this.traces;
  }
}
