import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SYNTH_TIMEOUT_MS, type SynthesizedGpurent, synthesizeGpurent } from './support/synth';

/**
 * cdk-nag 3 is a policy-validation plugin: its findings go to the validation report of
 * the cloud assembly (and fail synthesis on errors), not to construct annotations. So
 * this file checks the plugin's own report and a direct run of the rule pack, and uses
 * Annotations only for what still lands there (CDK's own warnings and errors).
 */

let gpurent: SynthesizedGpurent;

beforeAll(() => {
  gpurent = synthesizeGpurent();
}, SYNTH_TIMEOUT_MS);

const describeFindings = (pack: AwsSolutionsChecks, scope: IConstruct): string[] =>
  pack
    .validateScope(scope)
    .violations.flatMap((violation) =>
      violation.violatingResources.map(
        (resource) => `${violation.severity} ${violation.ruleName} at ${resource.constructPath}`,
      ),
    );

interface Acknowledgement {
  readonly id: string;
  readonly reason: string;
  readonly path: string;
}

function acknowledgementsUnder(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          id: id.replace(/^annotation::/i, ''),
          reason,
          path: construct.node.path,
        })),
      )
      // Ours only: CDK acknowledges some of its own CloudFormation-Validate rules.
      .filter((acknowledgement) => acknowledgement.id.startsWith('AwsSolutions-')),
  );
}

describe('cdk-nag AwsSolutions', () => {
  it('lets the app synthesize with the AwsSolutions pack registered', () => {
    expect(gpurent.synthError).toBeUndefined();
    expect(gpurent.assembly).toBeDefined();
  });

  it('reports no unsuppressed AwsSolutions error or warning', () => {
    expect(describeFindings(new AwsSolutionsChecks(undefined, { verbose: true }), gpurent.app)).toEqual([]);
  });

  it('left no AwsSolutions violation in the validation report written by synth', () => {
    const reportFile = join(gpurent.assembly?.directory ?? '', 'validation-report.json');
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      pluginReports: { pluginName?: string; summary?: { pluginName?: string }; violations?: unknown[] }[];
    };
    const nagReports = report.pluginReports.filter((pluginReport) =>
      JSON.stringify(pluginReport).includes('AwsSolutions'),
    );
    expect(nagReports.flatMap((pluginReport) => pluginReport.violations ?? [])).toEqual([]);
  });

  it('has no CDK error or warning annotation', () => {
    const annotations = Annotations.fromStack(gpurent.stack);
    annotations.hasNoError('*', Match.anyValue());
    annotations.hasNoWarning('*', Match.anyValue());
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-'))).toEqual([]);
  });

  it('finds violations when there are some (the pack is live in this setup)', () => {
    const app = new App();
    const stack = new Stack(app, 'Canary');
    new Queue(stack, 'PlainQueue');
    const findings = describeFindings(new AwsSolutionsChecks(), app);
    expect(findings).toEqual(
      expect.arrayContaining([
        'error AwsSolutions-SQS3 at Canary/PlainQueue/Resource',
        'error AwsSolutions-SQS4 at Canary/PlainQueue/Resource',
      ]),
    );
  });
});

describe('cdk-nag acknowledgements', () => {
  it('are specific: on resources, never stack-wide, IAM4/IAM5 always per finding', () => {
    const acknowledgements = acknowledgementsUnder(gpurent.app);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { id, path } of acknowledgements) {
      expect(path.split('/').length, `${id} acknowledged on ${path}`).toBeGreaterThan(1);
      if (/^AwsSolutions-IAM[45]/.test(id)) {
        expect(id, `${id} on ${path}`).toMatch(/^AwsSolutions-IAM[45]\[(Resource|Action|Policy)::.+\]$/);
      }
    }
  });

  it('each carry a reason', () => {
    for (const { id, reason, path } of acknowledgementsUnder(gpurent.app)) {
      expect(reason.length, `reason of ${id} on ${path}`).toBeGreaterThanOrEqual(40);
    }
  });

  it('each match a real finding (no stale suppressions)', () => {
    // The same pack with acknowledgements ignored shows what each one suppresses.
    const pack = new AwsSolutionsChecks();
    Object.defineProperty(pack, 'isAcknowledged', { value: () => false });
    const raw = pack.validateScope(gpurent.app).violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => ({
        id: violation.ruleName,
        path: resource.constructPath,
      })),
    );
    for (const { id, path } of acknowledgementsUnder(gpurent.app)) {
      const used = raw.some(
        (finding) => finding.id === id && (finding.path === path || finding.path?.startsWith(`${path}/`)),
      );
      expect(used, `${id} acknowledged on ${path} matches no finding`).toBe(true);
    }
    expect(raw.length).toBeGreaterThan(0);
  });
});
