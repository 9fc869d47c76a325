import { describe, expect, it } from 'vitest';
import { taskSpecSchema } from '../../../shared/domain/tasks/spec';
import * as z from '../../../shared/zod';

const messages = (task: unknown) => {
  const result = z.safeParse(taskSpecSchema, task);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe("a task's env and secrets names", () => {
  it('a bad name is refused with the pattern names take, not "Invalid key in record"', () => {
    expect(messages({ command: 'true', env: { '1BAD': 'v' } })).toEqual([
      ['env.1BAD', 'names must match [A-Z_][A-Z0-9_]{0,127}'],
    ]);
    expect(messages({ command: 'true', secrets: { lower: '/gpurent/t/x' } })).toEqual([
      ['secrets.lower', 'names must match [A-Z_][A-Z0-9_]{0,127}'],
    ]);
  });

  it('keeps the other messages: a value of the wrong type, env that is not a mapping', () => {
    expect(messages({ command: 'true', env: { A: 1 } })).toEqual([
      ['env.A', 'Invalid input: expected string, received number'],
    ]);
    expect(messages({ command: 'true', env: ['A=1'] })).toEqual([
      ['env', 'Invalid input: expected record, received array'],
    ]);
  });
});
