import {
  type CloudWatchLogsClient,
  CreateLogStreamCommand,
  PutLogEventsCommand,
  ResourceAlreadyExistsException,
} from '@aws-sdk/client-cloudwatch-logs';

/** Where one output of a command goes, and the chunks its process has written so far (appended to as it runs). */
export interface ShippedOutput {
  readonly logStreamName: string;
  readonly chunks: readonly string[];
}

export interface OutputShipper {
  /**
   * Sends what was written since the last call: whole lines only while the
   * command runs (a line cut mid-write waits for its end), everything once
   * `final` (the process has exited). Calls queue one behind the other, so
   * lines reach their stream once and in order.
   */
  ship(final: boolean): Promise<void>;
}

/**
 * Streams a command's output to CloudWatch Logs as it is written, as the SSM
 * agent does with CloudWatch output on: `gpurent run` and `gpurent logs
 * --follow` show a long task's lines while it runs, not all at its end. Each
 * stream is created at its first line, as SSM does: a reader before that finds
 * no stream and nothing to read.
 */
export function outputShipper(
  logs: CloudWatchLogsClient,
  logGroupName: string,
  outputs: readonly ShippedOutput[],
): OutputShipper {
  // Each output with how far it has been sent: its chunks taken, and a line cut mid-write kept for the next call.
  const streams = outputs.map((output) => ({ output, shippedChunks: 0, partialLine: '', created: false }));
  let queue: Promise<void> = Promise.resolve();

  async function shipOne(at: (typeof streams)[number], final: boolean) {
    const { output } = at;
    const written = output.chunks.length;
    const text = at.partialLine + output.chunks.slice(at.shippedChunks, written).join('');
    const cut = final ? text.length : text.lastIndexOf('\n') + 1;
    const lines = text.slice(0, cut).replace(/\n$/, '');
    // What is taken is only marked shipped once sent: a failed send is tried again at the next call.
    const taken = () => {
      at.shippedChunks = written;
      at.partialLine = text.slice(cut);
    };
    if (cut === 0) return taken();
    if (!at.created) {
      try {
        await logs.send(new CreateLogStreamCommand({ logGroupName, logStreamName: output.logStreamName }));
      } catch (error) {
        if (!(error instanceof ResourceAlreadyExistsException)) throw error;
      }
      at.created = true;
    }
    const timestamp = Date.now();
    await logs.send(
      new PutLogEventsCommand({
        logGroupName,
        logStreamName: output.logStreamName,
        logEvents: lines.split('\n').map((message) => ({ timestamp, message })),
      }),
    );
    taken();
  }

  return {
    ship(final) {
      const next = queue.then(async () => {
        for (const stream of streams) await shipOne(stream, final);
      });
      // A failed send is reported to this caller; the next call still runs.
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
