import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * @aws-sdk/client-ec2 describes all of EC2 in one module, dist-es/schemas/schemas_0.js
 * (about 1.3 MB). Its shapes carry computed keys such as `{ [_xN]: _BDM }` where
 * `const _xN = "xmlName"`; esbuild cannot prove a computed key free of side
 * effects, so it keeps about 550 KiB of shapes in every bundle that sends any EC2
 * command. Writing the constant into the key (`{ "xmlName": _BDM }`, the same
 * object) lets it drop the shapes no command uses (down to about 30 KiB). The
 * CDK construct runs the esbuild CLI, which takes no plugins, so the bundles use
 * a copy of the package with that one file rewritten, through esbuild's alias.
 */

const PACKAGE = '@aws-sdk/client-ec2';
const SCHEMAS = join('dist-es', 'schemas', 'schemas_0.js');
const STRING_CONSTANT = /^const (_\w+) = ("[^"\\\n]*");$/gm;
const COMPUTED_KEY = /\[(_\w+)\]:/g;

/** The schemas module with every computed key that names a string constant written as that string. */
export function inlineConstantKeys(source: string): string {
  const constants = new Map([...source.matchAll(STRING_CONSTANT)].map((m) => [m[1], m[2]]));
  return source.replace(COMPUTED_KEY, (key, name: string) => {
    const value = constants.get(name);
    return value === undefined ? key : `${value}:`;
  });
}

/**
 * The path of the rewritten copy of the installed client-ec2 (made once per
 * version under `<projectRoot>/.build/`, git-ignored), for esbuild's
 * `--alias:@aws-sdk/client-ec2=<path>`. Its own imports resolve from the
 * project's node_modules, as the original's do.
 */
export function treeShakableEc2Client(projectRoot: string): string {
  const source = join(projectRoot, 'node_modules', PACKAGE);
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  const target = join(projectRoot, '.build', `client-ec2-${version}`);
  if (existsSync(target)) return target;
  // Built beside the target and renamed into place, so a concurrent synth never sees half a copy.
  const staging = `${target}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(join(source, 'package.json'), join(staging, 'package.json'));
  cpSync(join(source, 'dist-es'), join(staging, 'dist-es'), { recursive: true });
  writeFileSync(join(staging, SCHEMAS), inlineConstantKeys(readFileSync(join(source, SCHEMAS), 'utf8')));
  try {
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  return target;
}
