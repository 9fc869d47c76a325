import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import openApiDocument from '../../../docs/openapi.json';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;

interface Example {
  readonly line: number;
  readonly method: string;
  readonly template: string;
  readonly body: string;
}

/** The document's path templates as patterns over concrete paths. */
const templates = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** Every curl command of the README that sends a JSON body, with the operation it calls. */
function readmeExamples(): Example[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const examples: Example[] = [];
  lines.forEach((text, index) => {
    if (!/^\$ curl /.test(text)) return;
    let command = text;
    for (let next = index + 1; command.trimEnd().endsWith('\\') && next < lines.length; next++) {
      command = `${command.trimEnd().slice(0, -1)} ${lines[next]}`;
    }
    const body = command.match(/ -d '([^']*)'/)?.[1];
    if (body === undefined) return;
    const method = command.match(/ -X (\w+)/)?.[1] ?? 'POST';
    const path = command.match(/\$API(\/v1\/[^\s?"]*)/)?.[1] ?? '';
    const template = templates.find((t) => t.pattern.test(path))?.template ?? `unknown path ${path}`;
    examples.push({ line: index + 1, method: method.toLowerCase(), template, body });
  });
  return examples;
}

describe("the README's JSON request examples", () => {
  it("type-check against a client generated with openapi-typescript's default options", async () => {
    const examples = readmeExamples();
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(JSON.stringify(openApiDocument))));
    const checks = examples.map(
      (example) =>
        `// README.md line ${example.line}\nexport const line${example.line}: Body<'${example.template}', '${example.method}'> = ${example.body};`,
    );
    writeFileSync(
      join(dir, 'examples.ts'),
      [
        "import type { paths } from './api';",
        "type Body<P extends keyof paths, M extends keyof paths[P]> = NonNullable<paths[P][M] extends { requestBody?: infer R } ? R : never> extends { content: { 'application/json': infer B } } ? B : never;",
        ...checks,
        // The check bites: a body the document refuses must not type-check (else tsc reports the directive unused).
        '// @ts-expect-error monthlyLimitUsd is a number',
        "export const refused: Body<'/v1/budgets/{name}', 'put'> = { monthlyLimitUsd: 'ten' };",
        '',
      ].join('\n'),
    );
    const typeErrors = await run(
      join(root, 'node_modules/.bin/tsc'),
      [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        'examples.ts',
      ],
      { cwd: dir },
    ).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(typeErrors).toBe('');
  }, 120_000);
});
