/** Exit codes of the gpurent command: 0 done, 1 refused or failed, 2 usage error, 130 stopped by Ctrl-C (128 + SIGINT). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** A failure shown as one line (never a stack trace) with the exit code it means. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);

/** Nothing answered at the API URL (wrong URL, no network, or a stopped local stack). */
export class UnreachableApiError extends CliError {
  constructor(readonly apiUrl: string) {
    super(`cannot reach the gpurent API at ${apiUrl}: check the URL (gpurent login)`);
    this.name = 'UnreachableApiError';
  }
}
