import { type CliIo, type OutputOptions, print } from './common';
import { usageError } from './errors';
import { localSession, saveSession } from './session';

export interface LoginOptions extends OutputOptions {
  readonly api?: string;
  readonly token?: string;
  readonly local?: boolean;
}

export async function login(options: LoginOptions, io: CliIo): Promise<void> {
  let session: { apiUrl: string; token: string };
  if (options.local) session = await localSession(io.cwd);
  else {
    if (!options.api || !options.token) throw usageError('give --api URL and --token TOKEN, or --local');
    if (!URL.canParse(options.api))
      throw usageError(
        `--api must be a URL such as https://abc.execute-api.eu-west-1.amazonaws.com, not "${options.api}"`,
      );
    session = { apiUrl: options.api, token: options.token };
  }
  const file = await saveSession(session);
  print(
    io,
    options,
    { apiUrl: session.apiUrl, configFile: file },
    () => `Logged in to ${session.apiUrl} (saved in ${file})\n`,
  );
}
