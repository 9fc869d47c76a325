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
): Promise<{ readonly last: LogsPage; readonly printed: number }> {
  let nextToken: string | undefined;
  let printed = 0;
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
    printed += page.events.length;
    nextToken = page.nextToken;
    if (page.complete || (!options.follow && page.events.length === 0)) return { last: page, printed };
    if (options.untilMs !== undefined && Date.now() >= options.untilMs) return { last: page, printed };
    if (page.events.length === 0) await io.sleep(FOLLOW_POLL_MS);
  }
}

export interface LogsOptions {
  readonly follow?: boolean;
  readonly attempt?: string;
}

export async function logs(id: string, options: LogsOptions, io: CliIo): Promise<void> {
  const leaseId = leaseIdArgument(id);
  const { last, printed } = await printLogs(
    await client(),
    leaseId,
    { follow: options.follow ?? false, attempt: integerOption('--attempt', options.attempt) },
    io,
  );
  // Nothing at all is not "no output": say why, on stderr, so a script reading stdout is unchanged.
  if (printed === 0) io.progress(`${noOutputLine(leaseId, last)}\n`);
}

/** Why a task's output is empty: it ended printing nothing, it has not started, or it has not printed yet. */
export function noOutputLine(leaseId: string, page: Pick<LogsPage, 'complete' | 'taskStatus'>): string {
  if (page.complete)
    return `${leaseId}: no output: the attempt ended (${page.taskStatus}) without printing any`;
  const next =
    page.taskStatus === 'WAITING' || page.taskStatus === 'STARTING'
      ? `gpurent lease show ${leaseId} says where the lease stands`
      : `gpurent logs -f ${leaseId} follows it`;
  return `${leaseId}: no output yet: the task is ${page.taskStatus}; ${next}`;
}
