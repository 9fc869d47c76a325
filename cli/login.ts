import { TENANT_ID, TENANT_ID_RULE } from '../shared/ids';
import { ApiClient } from './api';
import { type CliIo, type OutputOptions, print } from './common';
import { CliError, UnreachableApiError, usageError } from './errors';
import { type LocalManifest, localManifest, localManifestFile, type Session, saveSession } from './session';

export interface LoginOptions extends OutputOptions {
  readonly api?: string;
  readonly token?: string;
  readonly local?: boolean;
  readonly manifest?: string;
  readonly tenant?: string;
}

/** Where the session comes from, and what to say if it does not answer. */
interface SessionSource {
  session(): Promise<Session>;
  readonly unreachable: string;
}

/**
 * A token of any tenant, minted by the local stack's gateway with the run's
 * admin token (local/runtime/token-minting.ts says why this lives there and
 * why AWS has no such route).
 */
async function tenantSession(manifest: LocalManifest, file: string, tenant: string): Promise<Session> {
  if (!manifest.adminToken)
    throw new CliError(
      `${file} has no adminToken to mint a token with: restart the stack with \`npm start\``,
    );
  const minted = await new ApiClient({ apiUrl: manifest.apiUrl, token: manifest.adminToken }).request<{
    token: string;
  }>('POST', 'local/tokens', { body: { tenant } });
  return { apiUrl: manifest.apiUrl, token: minted.body.token };
}

/** The session to save, from the flags or the local stack's manifest. */
async function sourceOf(options: LoginOptions, io: CliIo): Promise<SessionSource> {
  if (options.local || options.manifest) {
    const { tenant } = options;
    if (tenant !== undefined && !TENANT_ID.test(tenant))
      throw usageError(`--tenant ${TENANT_ID_RULE}, not ${JSON.stringify(tenant)}`);
    const file = localManifestFile(io.cwd, options.manifest);
    const manifest = await localManifest(file);
    return {
      session: async () => (tenant === undefined ? manifest : tenantSession(manifest, file, tenant)),
      unreachable: `the local stack of ${file} does not answer at ${manifest.apiUrl}: it has stopped; start it with \`npm start\`, then log in again`,
    };
  }
  if (options.tenant !== undefined)
    throw usageError(
      '--tenant works with --local only: the local stack mints tokens of any tenant; in AWS the user pool sets the tenant of each user',
    );
  if (!options.api || !options.token) throw usageError('give --api URL and --token TOKEN, or --local');
  if (!URL.canParse(options.api))
    throw usageError(
      `--api must be a URL such as https://abc.execute-api.eu-west-1.amazonaws.com, not "${options.api}"`,
    );
  const session = { apiUrl: options.api, token: options.token };
  return {
    session: async () => session,
    unreachable: `cannot reach the gpurent API at ${options.api}: check the URL (the ApiUrl stack output)`,
  };
}

/** Saves the session once the API has accepted its token on a cheap authenticated route. */
export async function login(options: LoginOptions, io: CliIo): Promise<void> {
  const source = await sourceOf(options, io);
  let session: Session;
  try {
    session = await source.session();
    await new ApiClient(session).request('GET', 'v1/settings');
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      `not logged in: ${error instanceof UnreachableApiError ? source.unreachable : error.message}`,
    );
  }
  const { apiUrl, token } = session;
  const file = await saveSession({ apiUrl, token });
  print(
    io,
    options,
    { apiUrl, configFile: file, ...(options.tenant ? { tenant: options.tenant } : {}) },
    () =>
      `Logged in to ${apiUrl}${options.tenant ? ` as tenant ${options.tenant}` : ''} (saved in ${file})\n`,
  );
}
