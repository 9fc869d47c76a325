import { usageError } from './errors';

/** One `--param name=v1,v2,…`: a name and the values a sweep takes it through. */
export interface SweepParam {
  readonly name: string;
  readonly values: readonly string[];
}

/** Names a sweep sets as environment variables (upper-cased), so they follow the task env pattern. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function parseParam(text: string): SweepParam {
  const equals = text.indexOf('=');
  const name = equals < 0 ? text : text.slice(0, equals);
  if (equals < 0 || !PARAM_NAME.test(name)) {
    throw usageError(`--param must be name=v1,v2,… with a name of letters, digits and _, not "${text}"`);
  }
  const values = text.slice(equals + 1).split(',');
  if (values.some((value) => value === ''))
    throw usageError(`--param ${name} has an empty value in "${text}"`);
  return { name, values };
}

/** The params in order, each name once (a repeated name is a usage error, not a silent override). */
export function parseParams(texts: readonly string[]): SweepParam[] {
  const params = texts.map(parseParam);
  const seen = new Set<string>();
  for (const param of params) {
    const key = param.name.toUpperCase();
    if (seen.has(key)) throw usageError(`--param ${param.name} is given twice`);
    seen.add(key);
  }
  return params;
}

/** The cross product: one assignment per run, the first param varying slowest. */
export function expandSweep(params: readonly SweepParam[]): Record<string, string>[] {
  return params.reduce<Record<string, string>[]>(
    (runs, param) => runs.flatMap((run) => param.values.map((value) => ({ ...run, [param.name]: value }))),
    [{}],
  );
}

/** `{name}` in each argument replaced by the run's value; other braces are left as they are. */
export function substitute(command: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return command.map((arg) =>
    arg.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => values[name] ?? all),
  );
}

/** The run's values as environment variables: the param name upper-cased. */
export const paramEnv = (values: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name.toUpperCase(), value]));

/** A label for one run: `lr=0.1 batch=32`. */
export const runLabel = (values: Readonly<Record<string, string>>) =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
