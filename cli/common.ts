import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatUsdForPeople, formatUsdPerHourForPeople, usdToMicro } from '../shared/domain/money';
import { LEASE_ID_PATTERN } from '../shared/ids';
import { ApiClient, type ApiResponse } from './api';
import { CliError, usageError } from './errors';
import { loadSession } from './session';

/** Where a command writes: the result to `out`, progress to `progress` (stderr). */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly progress: (text: string) => void;
  /**
   * Progress goes to a terminal, where a waiting line is rewritten in place
   * each poll; elsewhere (a log, CI) it is a new line when what it says changes.
   */
  readonly terminal?: boolean;
  readonly cwd: string;
  /**
   * What Ctrl-C prints before the command exits (130): `run` says that its
   * leases go on and how to follow or end them. Absent where nothing listens.
   */
  readonly onInterrupt?: (notice: string) => void;
  /** Waits between polls (`lease create --wait`). */
  readonly sleep: (ms: number) => Promise<void>;
}

export interface OutputOptions {
  readonly json?: boolean;
}

/** The fields a command's flags set, and only those: nothing over a file's or a stored value where a flag is not given. */
export const givenFields = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

export const client = async () => new ApiClient(await loadSession());
/** One request with the saved session; the answer's body. */
export const callApi = async <Body>(
  method: string,
  path: string,
  options?: Parameters<ApiClient['request']>[2],
): Promise<Body> => (await (await client()).request<Body>(method, path, options)).body;
export const print = (io: CliIo, options: OutputOptions, body: unknown, human: () => string) =>
  io.out(options.json ? `${JSON.stringify(body, null, 2)}\n` : human());

/** What a PUT answered: created (201) or updated, then the object. */
export function printPut<Body>(
  io: CliIo,
  options: OutputOptions,
  kind: string,
  name: string,
  result: ApiResponse<Body>,
  detailsOf: (body: Body) => string,
): void {
  print(
    io,
    options,
    result.body,
    () => `${result.status === 201 ? 'Created' : 'Updated'} ${kind} ${name}\n${detailsOf(result.body)}`,
  );
}

export function leaseIdArgument(id: string): string {
  if (!LEASE_ID_PATTERN.test(id)) {
    throw usageError(`"${id}" is not a lease id (lease_ followed by 26 characters; see gpurent lease ls)`);
  }
  return id;
}

/** A whole-number option from `min` to `max` (the domain's limits), or undefined when the option is absent. */
export function integerOption(
  name: string,
  value: string | undefined,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw usageError(`${name} must be a whole number of at least ${min}, not "${value}"`);
  if (number > max) throw usageError(`${name} must be at most ${max}, not ${value}`);
  return number;
}

/** A non-negative number option (prices, sizes), or undefined when the option is absent. */
export function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0)
    throw usageError(`${name} must be a number of at least 0, such as 2.5, not "${value}"`);
  return number;
}

/** USD from the API (a JSON number, exact to the micro-dollar) by the one rule for people (money.ts). */
export const usdForPeople = (usd: number) => formatUsdForPeople(usdToMicro(usd));
export const usdPerHourForPeople = (usd: number) => formatUsdPerHourForPeople(usdToMicro(usd));

/** Writes `text` to `name` (relative to where the user typed the command); the file's full path. */
export async function writeOutput(io: CliIo, name: string, text: string): Promise<string> {
  const file = resolve(io.cwd, name);
  try {
    await writeFile(file, text);
  } catch {
    throw new CliError(`cannot write ${file}: check the directory exists and is writable`);
  }
  return file;
}
