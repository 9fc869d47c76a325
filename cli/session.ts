import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CliError, usageError } from './errors';

export interface Session {
  readonly apiUrl: string;
  readonly token: string;
}

/** `$GPURENT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/gpurent`, else `~/.config/gpurent`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GPURENT_CONFIG_DIR) return env.GPURENT_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'gpurent');
}

const sessionFile = () => join(configDir(), 'config.json');

export async function saveSession(session: Session): Promise<string> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const file = sessionFile();
  // The token is a credential: readable by its owner only.
  await writeFile(file, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  return file;
}

export async function loadSession(): Promise<Session> {
  let text: string;
  try {
    text = await readFile(sessionFile(), 'utf8');
  } catch {
    throw usageError(
      'not logged in: run `gpurent login --api URL --token TOKEN` (or `gpurent login --local`)',
    );
  }
  const session = JSON.parse(text) as Partial<Session>;
  if (!session.apiUrl || !session.token) {
    throw usageError(`${sessionFile()} has no apiUrl or token: run \`gpurent login\` again`);
  }
  return { apiUrl: session.apiUrl, token: session.token };
}

const MANIFEST = join('.gpurent', 'local.json');

/**
 * The manifest `npm start` writes: `--manifest FILE`, else `$GPURENT_LOCAL_MANIFEST`,
 * else `.gpurent/local.json` in `cwd` or the nearest directory above it that has
 * one (anywhere inside the checkout).
 */
export function localManifestFile(cwd: string, given: string | undefined, env = process.env): string {
  const named = given ?? env.GPURENT_LOCAL_MANIFEST;
  if (named) return resolve(cwd, named);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, MANIFEST))) return join(dir, MANIFEST);
    if (dirname(dir) === dir) return resolve(cwd, MANIFEST);
  }
}

/** What `gpurent login --local` reads of the manifest `npm start` writes. */
export interface LocalManifest extends Session {
  /** The run's operator token: it also mints tokens of other tenants (`--tenant`). */
  readonly adminToken?: string;
}

/** The API URL and tokens of the stack `npm start` runs, from its manifest. */
export async function localManifest(file: string): Promise<LocalManifest> {
  try {
    const manifest = JSON.parse(await readFile(file, 'utf8')) as Partial<LocalManifest>;
    if (manifest.apiUrl && manifest.token) {
      const { apiUrl, token, adminToken } = manifest;
      return { apiUrl, token, ...(adminToken ? { adminToken } : {}) };
    }
  } catch {
    // fall through to the one-line error
  }
  throw new CliError(
    `no local stack manifest at ${file}: start one with \`npm start\` in the checkout, or name it with --manifest FILE (or $GPURENT_LOCAL_MANIFEST)`,
  );
}
