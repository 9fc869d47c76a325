/** One call a fake received, in order: what a test asserts a use case asked of a port. */
export interface RecordedCall<Method extends string = string> {
  readonly method: Method;
  readonly args: readonly unknown[];
}

/**
 * Per-call error injection and a call log, as Karpenter's fake EC2 API keeps
 * them (`NextError`, `Called...Input`): a queued error is thrown by the next
 * call of its method, once per queued copy, before the call has any effect;
 * `after` errors are thrown once the call has had its effect (a worker that
 * died, or a response lost, after AWS acted).
 */
export class Faults<Method extends string> {
  readonly calls: RecordedCall<Method>[] = [];
  private readonly before = new Map<Method, Error[]>();
  private readonly after = new Map<Method, Error[]>();
  private readonly racers = new Map<Method, (() => unknown)[]>();

  /** The next `times` calls of `method` throw `error` and do nothing. */
  failNext(method: Method, error: Error, times = 1): void {
    this.before.set(method, [...(this.before.get(method) ?? []), ...Array(times).fill(error)]);
  }

  /** The next call of `method` takes effect, then throws `error`. */
  crashAfterNext(method: Method, error: Error = new CrashError(method)): void {
    this.after.set(method, [...(this.after.get(method) ?? []), error]);
  }

  /**
   * Another writer acts just before the next call of `method` (a concurrent
   * worker that got there first); `action` runs synchronously, so it may call
   * the fakes' own methods, whose bodies never wait.
   */
  interleave(method: Method, action: () => unknown): void {
    this.racers.set(method, [...(this.racers.get(method) ?? []), action]);
  }

  /** Records the call, lets a queued racer act, and throws a queued error, if any. */
  enter(method: Method, args: readonly unknown[]): void {
    this.calls.push({ method, args });
    this.racers.get(method)?.shift()?.();
    const error = this.before.get(method)?.shift();
    if (error) throw error;
  }

  /** Throws a queued after-effect error, if any. */
  leave(method: Method): void {
    const error = this.after.get(method)?.shift();
    if (error) throw error;
  }

  /** The arguments of every call of `method`, in order. */
  callsOf(method: Method): (readonly unknown[])[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.args);
  }
}

/** The process died (or the response was lost) after the call took effect. */
export class CrashError extends Error {
  constructor(readonly method: string) {
    super(`crashed after ${method} took effect`);
    this.name = 'CrashError';
  }
}

/** A copy as a store returns it: no shared references, no undefined attributes (DynamoDB drops them). */
export function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
