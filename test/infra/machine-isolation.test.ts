import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaseMachinePolicy, leaseMetricNamespace } from '../../shared/domain/tasks/lease-machine-access';
import { checkpointPrefix, taskLogStreams } from '../../shared/domain/tasks/log-streams';
import { ACCOUNT, decide, REGION, type Request, resolver } from './support/iam-simulation';
import { logicalIdOf, SYNTH_TIMEOUT_MS, type SynthesizedGpurent, synthesizeGpurent } from './support/synth';

/**
 * Attacks on tenant isolation, judged by an IAM policy evaluator
 * (@cloud-copilot/iam-simulate) against the synthesized template's own
 * statements: what a task on a lease's machine can reach with the instance
 * role (which every lease's machines share), and with its lease's
 * credentials (the lease machine role narrowed by the session policy the
 * control plane really builds, `leaseMachinePolicy`).
 */

let gpurent: SynthesizedGpurent;
let template: Template;
let iam: ReturnType<typeof resolver>;

beforeAll(() => {
  gpurent = synthesizeGpurent();
  template = gpurent.template();
  iam = resolver(template);
}, SYNTH_TIMEOUT_MS);

const LEASE_A = 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6';
const LEASE_B = 'lease_01jdz3n5x8k2m4p6q8r0s2t4zz';
const lease = {
  A: { tenantId: 'tenant-a', leaseId: LEASE_A },
  B: { tenantId: 'tenant-b', leaseId: LEASE_B },
} as const;

const names = () => ({
  bucket: iam.nameOf(logicalIdOf(gpurent.stack, gpurent.stack.tasks.checkpoints)),
  logGroup: iam.nameOf(logicalIdOf(gpurent.stack, gpurent.stack.tasks.taskOutput)),
});

/** What each lease's machine would ask for: its tenant's parameter and secret, its stream, prefix and namespace. */
function requestsOf(which: keyof typeof lease): Record<string, Request> {
  const { tenantId, leaseId } = lease[which];
  const { bucket, logGroup } = names();
  const prefix = checkpointPrefix(tenantId, leaseId);
  return {
    parameter: {
      action: 'ssm:GetParameter',
      resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/gpurent/${tenantId}/HF_TOKEN`,
    },
    secret: {
      action: 'secretsmanager:GetSecretValue',
      resource: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:gpurent/${tenantId}/db-AbCdEf`,
    },
    logStream: {
      action: 'logs:PutLogEvents',
      resource: `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${logGroup}:log-stream:${taskLogStreams(leaseId, 1).stdout}`,
    },
    checkpointWrite: { action: 's3:PutObject', resource: `arn:aws:s3:::${bucket}/${prefix}step-10/model.pt` },
    checkpointRead: { action: 's3:GetObject', resource: `arn:aws:s3:::${bucket}/${prefix}step-10/model.pt` },
    checkpointList: {
      action: 's3:ListBucket',
      resource: `arn:aws:s3:::${bucket}`,
      context: { 's3:prefix': prefix },
    },
    metrics: {
      action: 'cloudwatch:PutMetricData',
      resource: '*',
      context: { 'cloudwatch:namespace': leaseMetricNamespace(tenantId, leaseId) },
    },
    image: {
      action: 'ecr:BatchGetImage',
      resource: `arn:aws:ecr:${REGION}:${ACCOUNT}:repository/gpurent/${tenantId}/train`,
    },
  };
}

describe('the instance role every lease shares', () => {
  const instanceRoleId = () => logicalIdOf(gpurent.stack, gpurent.stack.fleet.instanceRole);
  const asInstance = (request: Request) =>
    decide(
      `arn:aws:sts::${ACCOUNT}:assumed-role/${instanceRoleId()}/i-0123456789abcdef0`,
      iam.identityPolicies(instanceRoleId()),
      request,
    );

  it('has no managed policy (AmazonSSMManagedInstanceCore reads every parameter): only statements here', () => {
    expect(iam.managedPolicies(instanceRoleId())).toEqual([]);
    expect(iam.identityPolicies(instanceRoleId()).length).toBeGreaterThan(0);
  });

  it.each(['A', 'B'] as const)(
    "reaches none of tenant %s's parameters, secrets, streams, checkpoints, metrics or images",
    async (which) => {
      for (const [what, request] of Object.entries(requestsOf(which))) {
        expect(await asInstance(request), what).not.toBe('Allowed');
      }
    },
  );

  it('reads no parameter at all, writes no log stream and puts no metric in any namespace', async () => {
    const { logGroup } = names();
    const denied: Request[] = [
      { action: 'ssm:GetParameter', resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/anything` },
      { action: 'ssm:GetParameters', resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/gpurent/x/y` },
      {
        action: 'ssm:GetParametersByPath',
        resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/gpurent`,
      },
      {
        action: 'logs:PutLogEvents',
        resource: `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${logGroup}:log-stream:cmd-1/i-0123/aws-runShellScript/stdout`,
      },
      {
        action: 'logs:CreateLogStream',
        resource: `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${logGroup}:log-stream:x`,
      },
      { action: 'cloudwatch:PutMetricData', resource: '*', context: { 'cloudwatch:namespace': 'CWAgent' } },
    ];
    for (const request of denied) expect(await asInstance(request), request.action).not.toBe('Allowed');
  });

  it('still lets the SSM agent register, take commands and open sessions', async () => {
    for (const action of [
      'ssm:UpdateInstanceInformation',
      'ec2messages:GetMessages',
      'ssmmessages:OpenDataChannel',
      'ssmmessages:CreateControlChannel',
    ]) {
      expect(await asInstance({ action, resource: '*' }), action).toBe('Allowed');
    }
  });
});

describe("a lease's machine credentials (the lease machine role ∩ the session policy the control plane builds)", () => {
  const roleId = () => logicalIdOf(gpurent.stack, gpurent.stack.tasks.leaseMachineRole);
  const asLease = (which: keyof typeof lease, request: Request) => {
    const { bucket, logGroup } = names();
    return decide(
      `arn:aws:sts::${ACCOUNT}:assumed-role/${roleId()}/gpurent-machine-${lease[which].leaseId}`,
      iam.identityPolicies(roleId()),
      request,
      {
        sessionPolicy: leaseMachinePolicy({
          ...lease[which],
          checkpointBucket: bucket,
          taskOutputLogGroup: logGroup,
        }),
      },
    );
  };

  it("allow tenant A's machine its own parameter, secret, stream, checkpoints, metric namespace and images", async () => {
    for (const [what, request] of Object.entries(requestsOf('A'))) {
      expect(await asLease('A', request), what).toBe('Allowed');
    }
  });

  it("deny tenant A's machine each of tenant B's", async () => {
    for (const [what, request] of Object.entries(requestsOf('B'))) {
      expect(await asLease('A', request), what).not.toBe('Allowed');
    }
  });

  it("deny a machine another lease's stream and namespace of its own tenant, and the namespaces readers trust", async () => {
    const sameTenant = { tenantId: 'tenant-a', leaseId: LEASE_B };
    const { logGroup } = names();
    const others: Request[] = [
      {
        action: 'logs:PutLogEvents',
        resource: `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${logGroup}:log-stream:${taskLogStreams(sameTenant.leaseId, 1).stdout}`,
      },
      {
        action: 'cloudwatch:PutMetricData',
        resource: '*',
        context: { 'cloudwatch:namespace': leaseMetricNamespace(sameTenant.tenantId, sameTenant.leaseId) },
      },
      { action: 'cloudwatch:PutMetricData', resource: '*', context: { 'cloudwatch:namespace': 'CWAgent' } },
      { action: 'cloudwatch:PutMetricData', resource: '*', context: { 'cloudwatch:namespace': 'AWS/EC2' } },
    ];
    for (const request of others) {
      expect(await asLease('A', request), JSON.stringify(request)).not.toBe('Allowed');
    }
  });

  it('are worth nothing without the session policy beyond what the role allows: no parameter outside /gpurent/', async () => {
    const outside: Request = {
      action: 'ssm:GetParameter',
      resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/aws/reference/secretsmanager/x`,
    };
    const role = `arn:aws:sts::${ACCOUNT}:assumed-role/${roleId()}/any`;
    expect(await decide(role, iam.identityPolicies(roleId()), outside)).not.toBe('Allowed');
  });
});

describe('who may assume the lease machine and session roles', () => {
  const functionRole = (fn: keyof SynthesizedGpurent['stack']['functions']) =>
    iam.arnOf(logicalIdOf(gpurent.stack, gpurent.stack.functions[fn].role));
  const assume = (roleId: string, principal: string) =>
    decide(
      principal,
      // The caller's own policy allows it: only the role's trust policy can refuse.
      [
        {
          name: 'any',
          policy: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: '*' }],
          },
        },
      ],
      { action: 'sts:AssumeRole', resource: iam.arnOf(roleId) },
      { resourcePolicy: iam.trustPolicy(roleId) },
    );

  it('names only the functions that assume each, by their roles, never the account', () => {
    for (const role of [gpurent.stack.tasks.leaseMachineRole, gpurent.stack.tasks.sessionRole]) {
      const trust = JSON.stringify(iam.trustPolicy(logicalIdOf(gpurent.stack, role)));
      expect(trust).not.toContain(':root');
      expect(trust).not.toMatch(/"AWS":"\d{12}"/);
    }
    const principals = (role: typeof gpurent.stack.tasks.sessionRole) =>
      (
        iam.trustPolicy(logicalIdOf(gpurent.stack, role)) as {
          Statement: { Principal: { AWS: string | string[] } }[];
        }
      ).Statement.flatMap((statement) => [statement.Principal.AWS].flat()).sort();
    // Exactly the functions whose own policies allow them to assume it.
    const granted = (role: typeof gpurent.stack.tasks.sessionRole) => {
      const arn = iam.arnOf(logicalIdOf(gpurent.stack, role));
      return (Object.keys(gpurent.stack.functions) as (keyof SynthesizedGpurent['stack']['functions'])[])
        .filter((fn) =>
          JSON.stringify(
            iam.identityPolicies(logicalIdOf(gpurent.stack, gpurent.stack.functions[fn].role)),
          ).includes(`"Action":"sts:AssumeRole","Effect":"Allow","Resource":"${arn}"`),
        )
        .map(functionRole)
        .sort();
    };
    expect(principals(gpurent.stack.tasks.leaseMachineRole)).toEqual(
      granted(gpurent.stack.tasks.leaseMachineRole),
    );
    expect(principals(gpurent.stack.tasks.leaseMachineRole).length).toBeGreaterThanOrEqual(3);
    expect(principals(gpurent.stack.tasks.sessionRole)).toEqual([functionRole('api')]);
    expect(granted(gpurent.stack.tasks.sessionRole)).toEqual([functionRole('api')]);
  });

  it('lets the lease worker assume the lease machine role, and another role of the account not, even with its own allow', async () => {
    const machineRole = logicalIdOf(gpurent.stack, gpurent.stack.tasks.leaseMachineRole);
    expect(await assume(machineRole, functionRole('leaseWorker'))).toBe('Allowed');
    expect(await assume(machineRole, functionRole('metering'))).not.toBe('Allowed');
    expect(await assume(machineRole, `arn:aws:iam::${ACCOUNT}:role/SomeoneElse`)).not.toBe('Allowed');
    const sessionRole = logicalIdOf(gpurent.stack, gpurent.stack.tasks.sessionRole);
    expect(await assume(sessionRole, functionRole('api'))).toBe('Allowed');
    expect(await assume(sessionRole, functionRole('leaseWorker'))).not.toBe('Allowed');
  });
});
