import { ApiClient } from './api';
import { type CliIo, type OutputOptions, print } from './common';
import { CliError, UnreachableApiError, usageError } from './errors';
import { localManifestFile, localSession, type Session, saveSession } from './session';

export interface LoginOptions extends OutputOptions {
  readonly api?: string;
  readonly token?: string;
  readonly local?: boolean;
  readonly manifest?: string;
}

/** The session to save, from the flags or the local stack's manifest, and what to say if it does not work. */
async function sessionOf(
  options: LoginOptions,
  io: CliIo,
): Promise<{ session: Session; unreachable: string }> {
  if (options.local || options.manifest) {
    const file = localManifestFile(io.cwd, options.manifest);
    const session = await localSession(file);
    return {
      session,
      unreachable: `the local stack of ${file} does not answer at ${session.apiUrl}: it has stopped; start it with \`npm start\`, then log in again`,
    };
  }
  if (!options.api || !options.token) throw usageError('give --api URL and --token TOKEN, or --local');
  if (!URL.canParse(options.api))
    throw usageError(
      `--api must be a URL such as https://abc.execute-api.eu-west-1.amazonaws.com, not "${options.api}"`,
    );
  return {
    session: { apiUrl: options.api, token: options.token },
    unreachable: `cannot reach the gpurent API at ${options.api}: check the URL (the ApiUrl stack output)`,
  };
}

/** Saves the session once the API has accepted its token on a cheap authenticated route. */
export async function login(options: LoginOptions, io: CliIo): Promise<void> {
  const { session, unreachable } = await sessionOf(options, io);
  try {
    await new ApiClient(session).request('GET', 'v1/settings');
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      `not logged in: ${error instanceof UnreachableApiError ? unreachable : error.message}`,
    );
  }
  const file = await saveSession(session);
  print(
    io,
    options,
    { apiUrl: session.apiUrl, configFile: file },
    () => `Logged in to ${session.apiUrl} (saved in ${file})\n`,
  );
}
