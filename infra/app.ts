/**
 * CDK app entry point (`npx cdk synth`, see cdk.json). Synthesizes offline: no account
 * lookups, no Docker (functions are bundled by the local esbuild).
 */
import { App } from 'aws-cdk-lib';
import { addGpurentStack } from './gpurent-stack';

addGpurentStack(new App());
