import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManagedProcess, startProcess } from './processes';

/**
 * moto's own default AMI list (its resources/amis.json), without the ~1,100
 * per-region "latest" AMIs moto adds when no list is given. moto ignores
 * MaxResults and serializes every image on each DescribeImages, which took
 * seconds per call and is made once per region by every fleet bootstrap; the
 * images this list keeps, and their order, are the ones callers picked before.
 */
const AMIS = fileURLToPath(new URL('./moto-amis.json', import.meta.url));

/**
 * moto_server's module path with our start-up shim first (sitecustomize.py
 * there says what it fixes), keeping any PYTHONPATH already set.
 */
function motoPythonPath(): string {
  const startup = fileURLToPath(new URL('./moto-startup', import.meta.url));
  return [startup, process.env.PYTHONPATH].filter(Boolean).join(delimiter);
}

/** moto_server on a loopback port, as every local stack and test runs it. */
export function startMoto(port: number): Promise<ManagedProcess> {
  return startProcess('moto_server', 'moto_server', ['-H', '127.0.0.1', '-p', String(port)], port, {
    env: { PYTHONPATH: motoPythonPath(), MOTO_AMIS_PATH: AMIS },
  });
}
