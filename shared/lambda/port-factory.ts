import { readConfig } from '../config';
import type { LogGroupName, QueueName, TableName, TopicName } from '../resources';
import type * as z from '../zod';
import { Clients } from './clients';

export type TableAccess = 'read' | 'readWrite';

/** What a function does with EC2; each maps to the few actions it needs (infra/constructs/function-wiring.ts). */
export type Ec2Capability =
  | 'fleet'
  | 'launch'
  | 'instances'
  | 'terminate'
  | 'imageVersions'
  | 'spotPrices'
  /** StopInstances of managed instances (the warm-pool filler). */
  | 'warmStop'
  /** Retag a managed warm machine to a lease and StartInstances it (the lease worker). */
  | 'warmStart';

/**
 * An AWS resource a port reaches. The CDK stack derives each function's
 * grants and environment variables from these, so what a function may touch
 * is what its handler builds.
 */
export type Reach =
  | { readonly kind: 'table'; readonly table: TableName; readonly access: TableAccess }
  | { readonly kind: 'queue'; readonly queue: QueueName }
  /** Receiving and deleting the messages of a queue's dead-letter queue. */
  | { readonly kind: 'deadLetters'; readonly queue: QueueName }
  | { readonly kind: 'topic'; readonly topic: TopicName }
  | { readonly kind: 'eventBus' }
  | { readonly kind: 'ec2'; readonly capabilities: readonly Ec2Capability[] }
  /** The GPU regions list (no grant: EC2 reaches are granted in every GPU region). */
  | { readonly kind: 'gpuRegions' }
  | { readonly kind: 'leaseExpiry'; readonly access: 'arm' | 'cancel' }
  | { readonly kind: 'gpuMetrics' }
  /** SSM Run Command on the fleet's instances (send, cancel, read results), output to the task log group. */
  | { readonly kind: 'tasks' }
  /** Reading a log group's events. */
  | { readonly kind: 'logGroup'; readonly logGroup: LogGroupName; readonly access: 'read' }
  /** Assuming the lease session role (SESSION_ROLE in shared/resources.ts). */
  | { readonly kind: 'sessionRole' }
  /** Assuming the lease machine role (LEASE_MACHINE_ROLE in shared/resources.ts). */
  | { readonly kind: 'leaseMachineRole' }
  /** Listing the checkpoint bucket (s3:ListBucket only): the sizes of leases' checkpoints, for billing. */
  | { readonly kind: 'checkpointBucket'; readonly access: 'list' }
  /** The V100 spot traces bundled into the function package. */
  | { readonly kind: 'spotTraces' }
  /** Reading the account's EC2 vCPU quotas for GPU instances (servicequotas:GetServiceQuota) in every GPU region. */
  | { readonly kind: 'serviceQuotas' };

type Shape = z.core.$ZodLooseShape;
export type EnvOf<S extends Shape> = z.infer<z.ZodMiniObject<S>>;

/** How one port is built: the variables it reads (its own only), what it reaches, and the build. */
export interface PortFactory<S extends Shape, Port> {
  readonly env: S;
  readonly reaches: readonly Reach[];
  readonly create: (env: EnvOf<S>, clients: Clients) => Port;
}

/** Marked free of side effects, so a bundle drops the factories its function's wiring does not name (and their SDK clients). */
/* @__NO_SIDE_EFFECTS__ */
export function portFactory<S extends Shape, Port>(factory: PortFactory<S, Port>): PortFactory<S, Port> {
  return factory;
}

/** A function's wiring: one factory per port its handler uses, by the name its use cases know it by. */
// biome-ignore lint/suspicious/noExplicitAny: any factory; each keeps its own types in Ports<W>
export type Wiring = Readonly<Record<string, PortFactory<any, unknown>>>;

export type Ports<W extends Wiring> = { readonly [K in keyof W]: ReturnType<W[K]['create']> };

/** The union of the wiring's factories' schemas: the function's whole configuration. */
export function wiringEnv(wiring: Wiring): Shape {
  return Object.assign({}, ...Object.values(wiring).map((factory) => factory.env));
}

/** Every resource the wiring's factories reach. */
export function wiringReaches(wiring: Wiring): Reach[] {
  return Object.values(wiring).flatMap((factory) => factory.reaches);
}

/**
 * Reads the wiring's configuration once (failing fast, naming every bad
 * variable) and builds each port, one client per service between them.
 */
export function buildPorts<W extends Wiring>(
  wiring: W,
  env: NodeJS.ProcessEnv = process.env,
  clients: Clients = new Clients(),
): Ports<W> {
  const config = readConfig(wiringEnv(wiring), env);
  return Object.fromEntries(
    Object.entries(wiring).map(([name, factory]) => [name, factory.create(config, clients)]),
  ) as Ports<W>;
}
