import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack, writeLocalManifest } from '../../local/stack';
import { buildCli } from '../../scripts/build-cli';
import { runCommand } from '../support/cli';
import { emulatorEndpoints } from '../support/emulators';
import { brokenContinuations, type ConsoleBlock, consoleBlocks } from '../support/readme-examples';

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
/** What the quick start's banner prints; users take the URL from it, the test from its own stack. */
const README_API = 'http://127.0.0.1:3000';

let blocks: ConsoleBlock[];
let stack: LocalStack;
let work: string;
let bundle: string;

beforeAll(async () => {
  blocks = consoleBlocks(await readFile(join(CHECKOUT, 'README.md'), 'utf8'));
  // One level below the checkout, as dist/ is: simulate's default --data resolves the same.
  bundle = mkdtempSync(join(CHECKOUT, '.readme-test-'));
  const { bin } = await buildCli(bundle);
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `readme${Date.now()}`,
  });
  work = mkdtempSync(join(tmpdir(), 'gpurent-readme-'));
  await writeLocalManifest(join(work, '.gpurent/local.json'), stack);
  // `gpurent` (and `npx gpurent`, as the README says to run it in the checkout) is the bundle under test.
  writeFileSync(join(bundle, 'gpurent'), `#!/bin/sh\nexec node ${JSON.stringify(bin)} "$@"\n`, {
    mode: 0o755,
  });
});

afterAll(async () => {
  await stack?.stop();
  if (bundle) rmSync(bundle, { recursive: true, force: true });
  rmSync(join(CHECKOUT, 'usage.csv'), { force: true });
});

const SEPARATOR = '@@readme-example@@';

/**
 * One bash script of every runnable block, in README order (later examples use
 * the variables earlier ones set), each command after a separator line on
 * stdout and stderr so a failure can be traced to its command.
 */
function script(runnable: readonly ConsoleBlock[], commands: readonly string[]): string {
  const lines = ['set -e -o pipefail'];
  for (const block of runnable) {
    if (block.inCheckout) lines.push(`cd ${JSON.stringify(CHECKOUT)}`);
    for (const command of block.commands) {
      const n = commands.length;
      (commands as string[]).push(command);
      lines.push(`echo ${SEPARATOR}${n}; echo ${SEPARATOR}${n} >&2`);
      lines.push(command.replaceAll(README_API, stack.apiUrl).replaceAll('npx gpurent', 'gpurent'));
    }
    if (block.inCheckout) lines.push(`cd ${JSON.stringify(work)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Each command's output, by the separators. */
function outputs(text: string): Map<number, string> {
  const byCommand = new Map<number, string>();
  for (const part of text.split(SEPARATOR).slice(1)) {
    const [n, ...rest] = part.split('\n');
    byCommand.set(Number(n), rest.join('\n'));
  }
  return byCommand;
}

describe('the README examples', () => {
  it('every console block is run, or skipped with a reason in its marker', () => {
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) {
      expect(block.commands.length, `README.md:${block.line}`).toBeGreaterThan(0);
      if (block.skip !== undefined) expect(block.skip.trim().length).toBeGreaterThan(10);
    }
    expect(blocks.filter((b) => b.skip === undefined).length).toBeGreaterThan(3);
  });

  it('skipped examples are still shell that parses, with no comment after a continuation', async () => {
    for (const block of blocks) {
      for (const command of block.commands) {
        expect(brokenContinuations(command), `README.md:${block.line}: ${command}`).toEqual([]);
        // `<account>`-style placeholders stand for a word the reader fills in.
        const filled = command.replace(/<[a-z][\w ]*>/gi, 'PLACEHOLDER');
        const parsed = await runCommand('bash', ['-n', '-c', filled], { cwd: work, env: process.env });
        expect(parsed.code, `README.md:${block.line}: ${command}\n${parsed.stderr}`).toBe(0);
      }
    }
  });

  // Some thirty commands, three planner replays among them: longer than one API test.
  it('every other example runs against a local stack and gets no error back', {
    timeout: 300_000,
  }, async () => {
    const commands: string[] = [];
    const runnable = blocks.filter((b) => b.skip === undefined);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'INIT_CWD'),
    );
    const result = await runCommand('bash', ['-c', script(runnable, commands)], {
      cwd: work,
      env: { ...env, PATH: `${bundle}:${process.env.PATH}`, GPURENT_CONFIG_DIR: join(work, 'config') },
    });
    const stdout = outputs(result.stdout);
    const stderr = outputs(result.stderr);
    const last = Math.max(...stderr.keys());
    expect(
      result.code,
      `the README example \`${commands[last]}\` failed (exit ${result.code}):\n${stderr.get(last)}${stdout.get(last)}`,
    ).toBe(0);
    expect(last).toBe(commands.length - 1);
    for (const [n, command] of commands.entries()) {
      expect(stdout.get(n), command).not.toMatch(/"error":\s*\{/);
    }
  });
});
