// First: Powertools reads its settings when the modules below first build its logger.
import './runtime/powertools-env';
import { join } from 'node:path';
import type { DockerEngine } from './runtime/docker-engine';
import { gpuLoadModelFromEnv } from './runtime/gpu-load-simulator';
import { startLocalStack, writeLocalManifest } from './stack';
import { localWarmPoolName, warmPoolFromEnv } from './warm-pool';

// The SDK's notice about Node 20 support says nothing a local user can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const MANIFEST = join(process.cwd(), '.gpurent', 'local.json');

function taskRuntime(docker: DockerEngine | undefined): string {
  if (docker === undefined)
    return 'child processes of this machine, image not used (no Docker engine reachable)';
  return `in their image on this machine's Docker engine (${docker.gpus ? 'with' : 'without'} GPUs); without an image, child processes`;
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
  const gpuLoad = gpuLoadModelFromEnv(process.env, Date.now());
  const warmPool = warmPoolFromEnv(process.env);
  console.log('Starting DynamoDB Local, fauxqs and moto_server…');
  const stack = await startLocalStack({ port, gpuLoad, warmPool, printAlerts: (text) => console.log(text) });
  await writeLocalManifest(MANIFEST, stack);
  console.log(`
gpurent is running locally.
  API:      ${stack.apiUrl}   (OpenAPI: ${stack.apiUrl}/v1/openapi.json)
  Token:    ${stack.token}
  Manifest: ${MANIFEST} (endpoints for the aws CLI: --endpoint-url)

Try:
  curl -s -X POST ${stack.apiUrl}/v1/leases -H "Authorization: Bearer $TOKEN" \\
       -H "Idempotency-Key: $(uuidgen || date +%s%N)" -H 'content-type: application/json' \\
       -d '{"workload":"training","gpus":1}'
(TOKEN is in the manifest: TOKEN=$(node -p "require('./.gpurent/local.json').token"))
Two tenants, one per terminal (each its own CLI config):
  GPURENT_CONFIG_DIR=.gpurent/acme npx gpurent login --local --tenant acme
Set a tiny budget and budget alerts print here as the topic delivers them:
  curl -s -X PUT ${stack.apiUrl}/v1/budgets/demo -H "Authorization: Bearer $TOKEN" \\
       -H 'content-type: application/json' -d '{"monthlyLimitUsd":0.01}'
Metering and the scaling evaluator run every minute, budgets are judged right after metering;
simulated GPU load: ${gpuLoad.kind} (GPURENT_GPU_LOAD=idle|steady|azure).
Tasks: ${taskRuntime(stack.tasks.docker)}.
Warm pool: ${warmPool ? `${localWarmPoolName(warmPool)}, ${warmPool.size} stopped ${warmPool.instanceType} (filled every minute; on-demand leases of that type start warm)` : 'none (GPURENT_WARM_POOL=g5.xlarge:2 keeps two)'}. Ctrl-C stops everything.`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`gpurent could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
