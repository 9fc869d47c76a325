import { Stack, type StackProps } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { EventBus as EventBusTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { EC2_EVENTS_RULE } from '../shared/resources';
import { GpuFleet } from './constructs/fleet';

export interface GpurentFleetStackProps extends StackProps {
  /** Where the control plane runs: EC2 events are forwarded to its default bus. */
  readonly homeRegion: string;
  readonly fleetName: string;
}

/**
 * The GPU fleet of one more region (VPC with subnets in several zones,
 * security group, instance role, launch template, all tagged with the fleet
 * name the control plane finds them by) and the rule that forwards the
 * region's EC2 instance events to the home region's default bus, where the
 * control plane's rule carries them to the interruption handler (EventBridge
 * delivers to SQS only within a region).
 */
export class GpurentFleetStack extends Stack {
  public readonly fleet: GpuFleet;

  constructor(scope: Construct, id: string, props: GpurentFleetStackProps) {
    super(scope, id, props);
    this.fleet = new GpuFleet(this, 'Fleet', {
      fleetName: props.fleetName,
      instanceRoleName: fleetInstanceRoleName(this.region),
    });
    const homeBus = EventBus.fromEventBusArn(
      this,
      'HomeDefaultBus',
      this.formatArn({
        service: 'events',
        region: props.homeRegion,
        resource: 'event-bus',
        resourceName: 'default',
      }),
    );
    new Rule(this, EC2_EVENTS_RULE.id, {
      description: `gpurent: EC2 instance events of ${this.region} to the control plane in ${props.homeRegion}`,
      eventPattern: {
        source: [...EC2_EVENTS_RULE.eventPattern.source],
        detailType: [...EC2_EVENTS_RULE.eventPattern['detail-type']],
      },
      targets: [new EventBusTarget(homeBus)],
    });
  }
}

/** The instance role of a region's fleet has a fixed name, so the home region's functions may pass it. */
export const fleetInstanceRoleName = (region: string) => `gpurent-gpu-instance-${region}`;
