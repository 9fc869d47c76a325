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

describe('dynamic references in task text', () => {
  const rule =
    'must not contain {{ssm:, {{ssm-secure: or {{resolve: references; name secrets under task.secrets instead';

  it('refuses {{ssm:, {{ssm-secure: and {{resolve: in the command, naming the argument', () => {
    expect(messages({ command: 'echo {{ssm:/gpurent/other/HF_TOKEN}}' })).toEqual([['command', rule]]);
    expect(messages({ command: ['sh', '-c', 'echo {{ ssm-secure:/x }}'] })).toEqual([['command.2', rule]]);
    expect(messages({ command: 'echo {{RESOLVE:secretsmanager:x}}' })).toEqual([['command', rule]]);
  });

  it('refuses them in an env value and in the workdir', () => {
    expect(messages({ command: 'true', env: { TOKEN: '{{ssm:/a}}' } })).toEqual([['env.TOKEN', rule]]);
    expect(messages({ command: 'true', workdir: '/{{resolve:ssm:/a}}' })).toContainEqual(['workdir', rule]);
  });

  it('keeps braces that are not references', () => {
    expect(messages({ command: 'echo {{name}} $HOME {{ssmx}}', env: { A: '{{x:y}}' } })).toEqual([]);
  });
});
