import { describe, expect, it } from 'vitest';
import { engineFromRuntimes, probeDockerEngine, removeContainer } from '../../../local/runtime/docker-engine';

describe('the local Docker engine probe', () => {
  it('sees GPUs only when the engine has the NVIDIA runtime', () => {
    expect(engineFromRuntimes('{"io.containerd.runc.v2":{"path":"runc"},"runc":{"path":"runc"}}')).toEqual({
      gpus: false,
    });
    expect(
      engineFromRuntimes('{"nvidia":{"path":"nvidia-container-runtime"},"runc":{"path":"runc"}}'),
    ).toEqual({
      gpus: true,
    });
    expect(engineFromRuntimes('')).toEqual({ gpus: false });
  });

  it('takes a client without a daemon for no engine, and asks docker info for the runtimes', async () => {
    const asked: string[][] = [];
    const noDaemon = await probeDockerEngine(async (file, args) => {
      asked.push([file, ...args]);
      throw new Error('Cannot connect to the Docker daemon at unix:///var/run/docker.sock');
    });
    expect(noDaemon).toBeUndefined();
    expect(asked).toEqual([['docker', 'info', '--format', '{{json .Runtimes}}']]);
    expect(await probeDockerEngine(async () => ({ stdout: '{"nvidia":{}}\n' }))).toEqual({ gpus: true });
    expect(await probeDockerEngine(async () => ({ stdout: 'not json' }))).toBeUndefined();
  });

  it('removes a killed attempt by its container name', async () => {
    const asked: string[][] = [];
    await removeContainer('gpurent-c1-i-1', async (file, args) => {
      asked.push([file, ...args]);
      return { stdout: '' };
    });
    expect(asked).toEqual([['docker', 'rm', '--force', 'gpurent-c1-i-1']]);
  });
});
