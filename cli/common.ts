import { LEASE_ID_PATTERN } from '../shared/ids';
import { ApiClient, type ApiResponse } from './api';
import { usageError } from './errors';
import { loadSession } from './session';

/** Where a command writes: the result to `out`, progress to `progress` (stderr). */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly progress: (text: string) => void;
  readonly cwd: string;
  /** Waits between polls (`lease create --wait`). */
  readonly sleep: (ms: number) => Promise<void>;
}

export interface OutputOptions {
  readonly json?: boolean;
}

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

/** A whole-number option of at least `min`, or undefined when the option is absent. */
export function integerOption(name: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw usageError(`${name} must be a whole number of at least ${min}, not "${value}"`);
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

/** Exact micro-dollars as USD with every digit. */
export const usd = (microUsd: number) => `$${(microUsd / 1_000_000).toFixed(6)}`;
