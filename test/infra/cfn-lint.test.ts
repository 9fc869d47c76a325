import { beforeAll, describe, expect, it } from 'vitest';
import { cfnLint, renderMatch } from './support/cfn-lint';
import { SYNTH_TIMEOUT_MS, synthesizeGpurent } from './support/synth';

let result: ReturnType<typeof cfnLint>;

beforeAll(() => {
  const { template } = synthesizeGpurent();
  result = cfnLint(template().toJSON(), 'us-east-1');
}, SYNTH_TIMEOUT_MS);

describe('cfn-lint on the synthesized template', () => {
  it('reports no errors', () => {
    expect(result.matches.filter((match) => match.Level === 'Error').map(renderMatch)).toEqual([]);
  });

  it('reports nothing else either, and exits 0', () => {
    expect(result.matches.map(renderMatch)).toEqual([]);
    expect(result.status, result.stderr).toBe(0);
  });
});
