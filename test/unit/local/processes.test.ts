import { describe, expect, it } from 'vitest';
import { freePort, MissingToolError, requireTool, startProcess } from '../../../local/emulators/processes';

describe('emulator processes', () => {
  it('names the missing tool and how to get it', () => {
    expect(() =>
      requireTool('moto_server_that_is_not_there', ['--help'], 'pip install "moto[server]"'),
    ).toThrow(MissingToolError);
    expect(() =>
      requireTool('moto_server_that_is_not_there', ['--help'], 'pip install "moto[server]"'),
    ).toThrow('moto_server_that_is_not_there was not found on PATH. pip install "moto[server]"');
  });

  it('accepts a tool that is there', () => {
    expect(() => requireTool('node', ['--version'], 'install Node.js')).not.toThrow();
  });

  it('reports a process that exits before it listens, with what it printed', async () => {
    const port = await freePort();
    await expect(
      startProcess('broken', 'node', ['-e', 'console.error("no jar here"); process.exit(3)'], port),
    ).rejects.toThrow(/broken exited with 3: no jar here/);
  });

  it('starts a listening process and stops it', async () => {
    const port = await freePort();
    const server = `require('node:http').createServer((_, r) => r.end()).listen(${port}, '127.0.0.1')`;
    const started = await startProcess('tiny', 'node', ['-e', server], port);
    expect(started.port).toBe(port);
    await started.stop();
    const probe = await fetch(`http://127.0.0.1:${port}`).then(
      () => 'up',
      () => 'down',
    );
    expect(probe).toBe('down');
  });
});
