import { Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { FLEET_TAG, MANAGED_TAG } from '../../shared/ports/compute';
import { acknowledgeWildcardResource } from './nag';

export type RemoteFleetRight =
  | 'launch'
  | 'terminate'
  | 'createLaunchTemplateVersion'
  | 'warmStop'
  | 'warmStart';

/**
 * Rights of a home-region function on the fleet of another GPU region, whose
 * resource ids it does not know at synth (they live in that region's fleet
 * stack): launch templates are matched by the fleet tag, everything a launch
 * creates or uses only with one of those launch templates, terminations only
 * of managed instances, and the instance role by its fixed name.
 */
export function grantRemoteFleet(
  grantee: IGrantable,
  scope: IConstruct,
  fleet: { readonly region: string; readonly fleetName: string; readonly instanceRoleName: string },
  rights: readonly RemoteFleetRight[],
): void {
  const stack = Stack.of(scope);
  // EC2 image ARNs carry no account (`arn:aws:ec2:<region>::image/*`): AMIs are shared across
  // accounts, so one with the account in it matches no image and every launch there is refused.
  const arn = (resource: string) =>
    stack.formatArn({
      service: 'ec2',
      region: fleet.region,
      ...(resource === 'image' ? { account: '' } : {}),
      resource,
      resourceName: '*',
    });
  const launchTemplates = arn('launch-template');
  const principal = grantee.grantPrincipal;
  const owner = Construct.isConstruct(principal) ? principal : undefined;
  const add = (statement: PolicyStatement, reasons: Record<string, string>) => {
    principal.addToPrincipalPolicy(statement);
    if (owner)
      for (const [resource, reason] of Object.entries(reasons))
        acknowledgeWildcardResource(owner, resource, reason);
  };
  const fleetTagged = { StringEquals: { [`aws:ResourceTag/${FLEET_TAG}`]: fleet.fleetName } };

  if (rights.includes('launch')) {
    add(
      new PolicyStatement({
        actions: ['ec2:RunInstances'],
        resources: [launchTemplates],
        conditions: fleetTagged,
      }),
      {
        [launchTemplates]: `RunInstances in ${fleet.region} only from launch templates tagged ${FLEET_TAG}=${fleet.fleetName}; their ids live in that region's fleet stack.`,
      },
    );
    const used = [
      'subnet',
      'security-group',
      'image',
      'instance',
      'volume',
      'network-interface',
      'spot-instances-request',
      'capacity-reservation',
    ];
    add(
      new PolicyStatement({
        actions: ['ec2:RunInstances'],
        resources: used.map(arn),
        conditions: { ArnLike: { 'ec2:LaunchTemplate': launchTemplates } },
      }),
      Object.fromEntries(
        used.map((resource) => [
          arn(resource),
          `RunInstances in ${fleet.region} creates or uses ${resource} resources whose ids are not known before the call; only with a launch template, which must carry the fleet tag.`,
        ]),
      ),
    );
    const created = ['instance', 'volume', 'network-interface', 'spot-instances-request'];
    add(
      new PolicyStatement({
        actions: ['ec2:CreateTags'],
        resources: created.map(arn),
        conditions: { StringEquals: { 'ec2:CreateAction': 'RunInstances' } },
      }),
      Object.fromEntries(
        created.map((resource) => [
          arn(resource),
          'ec2:CreateTags only while creating them (ec2:CreateAction = RunInstances).',
        ]),
      ),
    );
    principal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [
          stack.formatArn({
            service: 'iam',
            region: '',
            resource: 'role',
            resourceName: fleet.instanceRoleName,
          }),
        ],
        conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      }),
    );
  }
  const managedActions = {
    terminate: ['ec2:TerminateInstances'],
    warmStop: ['ec2:StopInstances'],
    warmStart: ['ec2:StartInstances', 'ec2:CreateTags', 'ec2:DeleteTags'],
  } as const;
  for (const right of ['terminate', 'warmStop', 'warmStart'] as const) {
    if (!rights.includes(right)) continue;
    const actions = managedActions[right];
    add(
      new PolicyStatement({
        actions: [...actions],
        resources: [arn('instance')],
        conditions: { StringEquals: { [`aws:ResourceTag/${MANAGED_TAG}`]: 'true' } },
      }),
      {
        [arn('instance')]:
          `${actions.map((action) => action.replace('ec2:', '')).join(', ')} in ${fleet.region} narrowed to instances tagged ${MANAGED_TAG}=true.`,
      },
    );
  }
  if (rights.includes('createLaunchTemplateVersion')) {
    add(
      new PolicyStatement({
        actions: ['ec2:CreateLaunchTemplateVersion'],
        resources: [launchTemplates],
        conditions: fleetTagged,
      }),
      {
        [launchTemplates]: `New image versions only on launch templates tagged ${FLEET_TAG}=${fleet.fleetName} in ${fleet.region}.`,
      },
    );
  }
}
