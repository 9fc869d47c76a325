import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest, slowest first (seconds in the last
 * fresh-clone CI run, one stream). A fresh clone has no vitest results cache, so
 * vitest starts the largest files first; these are small files that drive long
 * scenarios, and one of them started last would leave the other stream idle.
 */
const SLOWEST_FIRST = [
  'test/integration/fault-injection.test.ts', // 91 s
  'test/integration/deploy-rehearsal.test.ts', // 48 s
  'test/integration/cli.test.ts', // 45 s
  'test/integration/scaling-evaluator-many-groups.test.ts', // 44 s
  'test/integration/readme-examples.test.ts', // 32 s
  'test/integration/prism-contract.test.ts', // 25 s
  'test/integration/usage-rollups.test.ts', // 19 s
];

/** vitest's order, except that within a project the files above start first, in that order. */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(relative(root, spec.moduleId));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const at = (spec: TestSpecification) => position.get(spec) ?? 0;
    return [...sorted].sort((a, b) =>
      a.project.name === b.project.name ? rank(a) - rank(b) || at(a) - at(b) : at(a) - at(b),
    );
  }
}
