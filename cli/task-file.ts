import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { usageError } from './errors';

/**
 * A task file: the POST /v1/leases body (lease fields and its `task`) as
 * YAML, plus `params` (name → values) for a sweep. The API validates the body;
 * here only the shape the CLI itself reads is checked.
 */
export interface TaskFile {
  readonly lease: Record<string, unknown> & { readonly task: Record<string, unknown> };
  readonly params: readonly { readonly name: string; readonly values: readonly string[] }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export async function parseTaskFile(text: string, where: string): Promise<TaskFile> {
  // Loaded (a chunk of its own) only by `run task.yaml`, so that every other command starts without it.
  // yaml is CommonJS for Node: a chunk of the bundle exports its module.exports as `default` alone.
  const { parse } = (await import('yaml')).default;
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw usageError(`${where} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(document) || !isRecord(document.task)) {
    throw usageError(`${where} must hold a mapping with a task: {command: …} (and the lease's fields)`);
  }
  const { params = {}, ...lease } = document;
  if (!isRecord(params)) throw usageError(`${where}: params must map each name to a list of values`);
  return {
    lease: { ...lease, task: document.task },
    params: Object.entries(params).map(([name, values]) => {
      const list = Array.isArray(values) ? values : [values];
      if (list.length === 0 || list.some((v) => typeof v === 'object' || v === null || v === undefined)) {
        throw usageError(`${where}: params.${name} must be a value or a list of values`);
      }
      return { name, values: list.map(String) };
    }),
  };
}

export async function readTaskFile(path: string, cwd: string): Promise<TaskFile> {
  const full = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch {
    throw usageError(`cannot read the task file ${full}`);
  }
  return parseTaskFile(text, path);
}
