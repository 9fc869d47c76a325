import type { TaskRunner, TaskRunning, TaskTarget } from '../../../shared/ports/task-runner';
import type { FakeControlPlane } from './control-plane';

/**
 * SSM Run Command in memory: every SendCommand is recorded and gets the next
 * command id, every cancel is recorded; an ended invocation reads as a
 * success unless a test set its result.
 */
export class FakeTaskRunner implements TaskRunner {
  readonly sent: { target: TaskTarget; commandId: string; commands: readonly string[] }[] = [];
  readonly cancelled: { target: TaskTarget; commandId: string }[] = [];

  async send(target: TaskTarget, commands: readonly string[]): Promise<string> {
    const commandId = `cmd-${this.sent.length + 1}`;
    this.sent.push({ target, commandId, commands });
    return commandId;
  }

  async cancel(target: TaskTarget, commandId: string): Promise<boolean> {
    this.cancelled.push({ target, commandId });
    return true;
  }

  async result(): Promise<{ outcome: 'Success'; exitCode: number }> {
    return { outcome: 'Success', exitCode: 0 };
  }
}

/** The control plane with SSM for tasks, as the lease worker and the task-events handler get it. */
export function withTasks(plane: FakeControlPlane) {
  const runner = new FakeTaskRunner();
  const tasks: TaskRunning = { runner, checkpointBucket: 'gpurent-checkpoints' };
  return { ...plane, tasks, runner };
}
