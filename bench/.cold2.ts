import { spawnSync } from 'node:child_process';
import { FUNCTION_ENV } from './support/cold-load';

const LAMBDA = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'x',
  AWS_SECRET_ACCESS_KEY: 'x',
  AWS_LAMBDA_FUNCTION_NAME: 'api',
  POWERTOOLS_SERVICE_NAME: 'api',
  POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
};
const times: number[] = [];
for (let i = 0; i < 7; i++) {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    process.argv[2] === 'prof' && i === 0
      ? ['--cpu-prof', '--cpu-prof-dir=/tmp/coldprof', '--cpu-prof-interval', '100', '/tmp/coldapi/index.mjs']
      : ['/tmp/coldapi/index.mjs'],
    { env: { PATH: process.env.PATH, ...LAMBDA, ...FUNCTION_ENV } },
  );
  times.push(performance.now() - t);
  if (r.status !== 0) console.log(String(r.stderr).slice(0, 500));
}
const bare = [];
for (let i = 0; i < 7; i++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  bare.push(performance.now() - t);
}
const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(
  'api',
  med(times).toFixed(1),
  'bare',
  med(bare).toFixed(1),
  'ratio',
  (med(times) / med(bare)).toFixed(2),
);
