import { EventBus } from 'aws-cdk-lib/aws-events';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { EVENT_BUS, type EventBusDefinition } from '../../shared/resources';
import type { EventBusBinding } from './gpurent-function';

export interface GpurentEventsProps {
  /**
   * The bus to create; integrators subscribe to it by name.
   * @default EVENT_BUS from shared/resources.ts (named `gpurent`)
   */
  readonly definition?: EventBusDefinition;
}

/**
 * The custom EventBridge bus for gpurent domain events (lease requested / running /
 * interrupted / ended, usage charged, budget threshold crossed). Integrators add
 * their own rules on it; gpurent functions only put events.
 */
export class GpurentEvents extends Construct {
  public readonly eventBus: EventBus;
  public readonly definition: EventBusDefinition;

  constructor(scope: Construct, id: string, props: GpurentEventsProps = {}) {
    super(scope, id);
    this.definition = props.definition ?? EVENT_BUS;
    this.eventBus = new EventBus(this, this.definition.id, {
      eventBusName: this.definition.name,
      description: 'gpurent domain events (leases, usage, budgets)',
    });
  }

  public get eventBusName(): string {
    return this.eventBus.eventBusName;
  }

  /** The bus and the environment variable functions read its name from. */
  public get binding(): EventBusBinding {
    return { eventBus: this.eventBus, envVar: this.definition.envVar };
  }

  /** Grants events:PutEvents on this bus only. */
  public grantPutEventsTo(grantee: IGrantable) {
    return this.eventBus.grantPutEventsTo(grantee);
  }
}
