import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The planner's engine lives in shared/planning/ so that the Lambdas and the
 * CLI replay with the same code; planner/ is the CLI and the trace readers on
 * top of it. Code that deploys (shared/, infra/, functions/) must never reach
 * back into planner/, and the engine itself stays as pure as shared/domain/.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(dir, path))
    .sort();
}

/** Every module a file imports (static, type-only, re-exported or dynamic), relative ones as repository paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName }) =>
    fileName.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), fileName)) : fileName,
  );
}

const intoPlanner = (file: string) =>
  importsOf(file)
    .filter((target) => target === 'planner' || target.startsWith('planner/'))
    .map((target) => `${file} -> ${target}`);

describe('the planner boundary', () => {
  const deployed = ['shared', 'infra', 'functions'].flatMap(typeScriptFiles);

  it('sees the imports it checks: bench/ reaches the planner through its CLI modules', () => {
    expect(deployed.length).toBeGreaterThan(100);
    expect(intoPlanner('bench/rental-mix.ts')).toEqual([
      'bench/rental-mix.ts -> planner/paths',
      'bench/rental-mix.ts -> planner/replay-trace',
    ]);
  });

  it('nothing under shared/, infra/ or functions/ imports from planner/', () => {
    expect(deployed.flatMap(intoPlanner)).toEqual([]);
  });

  it('shared/planning/ imports only itself, shared/domain/ and the price catalog: no I/O, no node: modules', () => {
    const allowed = /^shared\/(planning|domain|catalog)(\/|$)/;
    const planning = typeScriptFiles('shared/planning');
    expect(planning.length).toBeGreaterThan(0);
    const outside = planning.flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('shared/planning/ reads nothing from the process', () => {
    const readers = typeScriptFiles('shared/planning').filter((file) =>
      /\bprocess\.|\bimport\.meta\b/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(readers).toEqual([]);
  });
});
