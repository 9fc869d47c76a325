import type { ApiClient } from './api';
import { type CliIo, client, integerOption, leaseIdArgument } from './common';

export interface LogsPage {
  readonly events: readonly {
    readonly at: string;
    readonly stream: 'stdout' | 'stderr';
    readonly message: string;
  }[];
  readonly nextToken: string;
  readonly complete: boolean;
  readonly taskStatus: string;
  readonly exitCode?: number;
}

/** How often a follower asks for more output. */
export const FOLLOW_POLL_MS = 1000;

/**
 * Prints the task's output, stdout to `out` and stderr to `progress`, page by
 * page. Following, it asks again with each page's nextToken until the API says
 * the attempt is complete, or until `untilMs` (`run --timeout`); otherwise it
 * stops at the first page with nothing new.
 */
export async function printLogs(
  api: Pick<ApiClient, 'request'>,
  leaseId: string,
  options: { readonly follow: boolean; readonly attempt?: number | undefined; readonly untilMs?: number },
  io: CliIo,
): Promise<LogsPage> {
  let nextToken: string | undefined;
  for (;;) {
    const page = (
      await api.request<LogsPage>('GET', `v1/leases/${leaseId}/logs`, {
        query: { attempt: options.attempt?.toString(), nextToken },
      })
    ).body;
    for (const event of page.events) {
      const line = event.message.endsWith('\n') ? event.message : `${event.message}\n`;
      if (event.stream === 'stderr') io.progress(line);
      else io.out(line);
    }
    nextToken = page.nextToken;
    if (page.complete || (!options.follow && page.events.length === 0)) return page;
    if (options.untilMs !== undefined && Date.now() >= options.untilMs) return page;
    if (page.events.length === 0) await io.sleep(FOLLOW_POLL_MS);
  }
}

export interface LogsOptions {
  readonly follow?: boolean;
  readonly attempt?: string;
}

export async function logs(id: string, options: LogsOptions, io: CliIo): Promise<void> {
  const leaseId = leaseIdArgument(id);
  await printLogs(
    await client(),
    leaseId,
    { follow: options.follow ?? false, attempt: integerOption('--attempt', options.attempt) },
    io,
  );
}
