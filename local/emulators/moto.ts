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

/** moto_server on a loopback port. */
export function startMoto(port: number): Promise<ManagedProcess> {
  return startProcess('moto_server', 'moto_server', ['-H', '127.0.0.1', '-p', String(port)], port, {
    env: { MOTO_AMIS_PATH: AMIS },
  });
}
