import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnResource, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { PROJECT_ROOT } from '../../../infra/constructs/gpurent-function';
import { addGpurentStack, type GpurentStack } from '../../../infra/gpurent-stack';

/** Time for one synthesis with bundling on a busy machine (hooks default to 10 s). */
export const SYNTH_TIMEOUT_MS = 240_000;

/** The context of cdk.json (feature flags), so tests synthesize what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

export interface SynthesizedGpurent {
  readonly app: App;
  readonly stack: GpurentStack;
  /** Undefined when synthesis threw (the error is in `synthError`). */
  readonly assembly?: CloudAssembly;
  readonly synthError?: unknown;
  /** Lazily built from the synthesized stack. */
  template(): Template;
}

const synthesized = new Map<string, SynthesizedGpurent>();

/**
 * Builds the gpurent app exactly like infra/app.ts (cdk.json context, cdk-nag plugin)
 * and synthesizes it, once per context in the infra worker: vitest.config.ts runs the
 * infra files in one worker without isolation, so the files that read the same app
 * share one synthesis, and CDK's asset cache bundles each function once for them all.
 * Tests only read the app, its stack and its template. Call it in `beforeAll`.
 *
 * `bundle: false` leaves the functions' code unbundled (CDK's `aws:cdk:bundling-stacks`
 * context, as `cdk synth --exclusively` uses): for the files that check what another
 * context changes in the templates. Bundling does not read the context, and the
 * default synth bundles every function; CDK's asset cache is per app output
 * directory, so each further context bundled all of them again (about 60% of a
 * synth's CPU: deploy-context 79 s → 32 s of CPU).
 */
export function synthesizeGpurent(
  context: Record<string, unknown> = {},
  { bundle = true }: { bundle?: boolean } = {},
): SynthesizedGpurent {
  const key = JSON.stringify({ context, bundle });
  let result = synthesized.get(key);
  if (result === undefined) {
    result = synthesizeOnce(bundle ? context : { ...context, 'aws:cdk:bundling-stacks': [] });
    synthesized.set(key, result);
  }
  return result;
}

function synthesizeOnce(context: Record<string, unknown>): SynthesizedGpurent {
  const app = new App({ context: { ...cdkJsonContext(), region: 'us-east-1', ...context } });
  const stack = addGpurentStack(app);
  let assembly: CloudAssembly | undefined;
  let synthError: unknown;
  try {
    assembly = app.synth();
  } catch (error) {
    synthError = error;
  }
  let template: Template | undefined;
  return {
    app,
    stack,
    assembly,
    synthError,
    template: () => {
      if (synthError) throw synthError;
      template ??= Template.fromStack(stack);
      return template;
    },
  };
}

/** The logical id CloudFormation knows a construct's resource by. */
export function logicalIdOf(stack: Stack, construct: IConstruct): string {
  const resource = construct.node.defaultChild as CfnResource | undefined;
  return stack.resolve(stack.getLogicalId(resource ?? (construct as CfnResource))) as string;
}
