import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;

/**
 * The log lines a fresh process writes for one INFO and one WARN line of the
 * shared logger, after the entry's first import; the user's environment less
 * any Powertools setting, plus `extra`.
 */
function probeLines(extra: Record<string, string> = {}): { level: string; service: string }[] {
  const script = `
    await import('./local/runtime/powertools-env.ts');
    const { logger } = await import('./shared/lambda/observability.ts');
    logger.info('probe');
    logger.warn('probe');
  `;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('POWERTOOLS_')),
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...env, ...extra },
    encoding: 'utf8',
  });
  // Powertools writes WARN and above to stderr, the rest to stdout.
  const out = `${run.stdout}\n${run.stderr}`;
  return out
    .split('\n')
    .filter((line) => line.includes('"probe"'))
    .map((line) => JSON.parse(line));
}

describe("the local runtime's Powertools settings", () => {
  it('are the first thing `npm start` imports, before any module builds the shared logger', () => {
    const firstImport = readFileSync(`${ROOT}local/start.ts`, 'utf8').match(/^import .*$/m)?.[0];
    expect(firstImport).toBe("import './runtime/powertools-env';");
  });

  it('build the logger at WARN as service gpurent, unless the user set a level', () => {
    const quiet = probeLines();
    expect(quiet.map(({ level, service }) => [level, service])).toEqual([['WARN', 'gpurent']]);
    const chatty = probeLines({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    expect(chatty.map(({ level }) => level)).toEqual(['INFO', 'WARN']);
  });
});
