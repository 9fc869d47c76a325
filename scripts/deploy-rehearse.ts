import { MOTO_UNSUPPORTED_RESOURCE_TYPES, rehearseDeploy } from '../local/deploy-rehearsal';
import { startMoto } from '../local/emulators/moto';
import { freePort, requireTool } from '../local/emulators/processes';

/** `npm run deploy:rehearse`: the stack deployed into moto's CloudFormation on a private moto_server. */
requireTool('moto_server', ['--help'], 'Install moto with its server: pip install "moto[server]".');
const port = await freePort();
const moto = await startMoto(port);
try {
  const result = await rehearseDeploy(`http://127.0.0.1:${port}`);
  console.log(`Stack: ${result.stackStatus}${result.statusReason ? ` (${result.statusReason})` : ''}`);
  console.log('Created by moto:');
  for (const [type, count] of Object.entries(result.created).sort()) console.log(`  ${type} × ${count}`);
  console.log('Not created (moto cannot):');
  for (const type of result.notCreated) {
    console.log(`  ${type}: ${MOTO_UNSUPPORTED_RESOURCE_TYPES[type] ?? 'NEW: not in the known list'}`);
  }
  process.exitCode = result.stackStatus === 'CREATE_COMPLETE' ? 0 : 1;
} finally {
  await moto.stop();
}
