import type { RentalMode } from '../../../shared/domain/lease';
import type { MicroUsd } from '../../../shared/domain/money';
import { spotPriceKey } from '../../../shared/domain/pools';
import {
  CapacityUnavailableError,
  type Compute,
  type ComputeInstance,
  ComputeThrottledError,
  type FleetRegion,
  type InstanceRef,
  type LaunchRequest,
  type WarmLaunchRequest,
} from '../../../shared/ports/compute';
import type { FakeClock } from './clock';
import { Faults } from './faults';

type Method = keyof Compute;

/** An offering EC2 has no capacity for: `zone` and `region` absent match every zone, every region. */
export interface Offering {
  readonly mode: RentalMode;
  readonly instanceType: string;
  readonly zone?: string;
  readonly region?: string;
}

interface FakeInstance extends ComputeInstance {
  readonly managed: boolean;
}

const LIVE = new Set(['pending', 'running', 'stopping', 'stopped']);

/**
 * EC2 across the fleet's regions, in memory, as Ec2Compute presents it: launches
 * tag instances with their lease and tenant, the client token is honoured (a
 * repeated token returns the instances it launched, as AWS does), and only
 * live instances are listed. A token reused with other parameters is EC2's
 * IdempotentParameterMismatch (moto ignores tokens, so only this fake shows it). Knobs: capacity refusals per offering
 * (`insufficientCapacity`), throttling (`throttle`: the ComputeThrottledError
 * Ec2Compute raises once its retries are spent), any error before a call
 * (`faults.failNext`) or after it took effect (`faults.crashAfterNext`), and
 * EC2 ending instances on its own (`reclaim`, `forget`).
 */
export class FakeCompute implements Compute {
  readonly faults = new Faults<Method>();
  private readonly instances = new Map<string, FakeInstance>();
  private readonly byToken = new Map<string, { request: string; instanceIds: string[] }>();
  private readonly refusals: { offering: Offering; code: string; times: number }[] = [];
  private readonly spot = new Map<string, Map<string, MicroUsd>>();
  private readonly templateVersions = new Map<string, number>();
  private nextId = 1;

  constructor(
    private readonly clock: FakeClock,
    private readonly regions: readonly FleetRegion[],
  ) {}

  /** Launches of `offering` are refused with `code`, `times` times (every time by default). */
  insufficientCapacity(offering: Offering, code = 'InsufficientInstanceCapacity', times = Infinity): void {
    this.refusals.push({ offering, code, times });
  }

  /** The next `times` calls of `method` fail as Ec2Compute fails once EC2 throttled every retry. */
  throttle(method: Method, times = 1): void {
    this.faults.failNext(method, new ComputeThrottledError('RequestLimitExceeded', 5), times);
  }

  setSpotPrice(region: string, zone: string, instanceType: string, microUsdPerHour: MicroUsd): void {
    const prices = this.spot.get(region) ?? new Map<string, MicroUsd>();
    prices.set(spotPriceKey(zone, instanceType), microUsdPerHour);
    this.spot.set(region, prices);
  }

  /** A managed instance no lease launched through the port (a stray, an orphan, a lost launch's survivor). */
  addInstance(instance: Omit<ComputeInstance, 'instanceId' | 'state'> & { state?: string }): ComputeInstance {
    const created: FakeInstance = {
      ...instance,
      instanceId: this.newId(),
      state: instance.state ?? 'running',
      managed: true,
    };
    this.instances.set(created.instanceId, created);
    return this.view(created);
  }

  /** EC2 ends the instance on its own (spot reclaim, a console terminate): terminated at `atMs`. */
  reclaim(instanceId: string, atMs = this.clock.now()): void {
    const instance = this.instances.get(instanceId);
    if (instance) this.instances.set(instanceId, { ...instance, state: 'terminated', endedAtMs: atMs });
  }

  /** EC2 no longer knows the instance at all (terminated long ago). */
  forget(instanceId: string): void {
    this.instances.delete(instanceId);
  }

  /** Every instance EC2 knows, in any state. */
  all(): ComputeInstance[] {
    return [...this.instances.values()].map((i) => this.view(i));
  }

  live(): ComputeInstance[] {
    return this.all().filter((i) => LIVE.has(i.state ?? ''));
  }

  async fleet(): Promise<FleetRegion[]> {
    this.faults.enter('fleet', []);
    return this.regions.map((r) => ({ region: r.region, zones: [...r.zones] }));
  }

  async launch(request: LaunchRequest): Promise<ComputeInstance[]> {
    this.faults.enter('launch', [request]);
    const repeated = this.byToken.get(request.clientToken);
    if (repeated) {
      // AWS answers a repeated token with the first launch's instances, or refuses other parameters.
      if (repeated.request !== launchShape(request)) throw idempotentParameterMismatch(request.clientToken);
      return repeated.instanceIds.flatMap((id) => this.find(id));
    }
    const zones = this.regions.find((r) => r.region === request.region)?.zones ?? [];
    if (!zones.includes(request.zone)) {
      throw new CapacityUnavailableError(request.mode, request.instanceType, 'NoFleetInZone', request.zone);
    }
    const refusal = this.refusals.find((r) => r.times > 0 && matches(r.offering, request));
    if (refusal) {
      refusal.times -= 1;
      throw new CapacityUnavailableError(request.mode, request.instanceType, refusal.code, request.zone);
    }
    const launched = Array.from(
      { length: request.count },
      (): FakeInstance => ({
        instanceId: this.newId(),
        region: request.region,
        zone: request.zone,
        instanceType: request.instanceType,
        mode: request.mode,
        launchedAtMs: this.clock.now(),
        leaseId: request.leaseId,
        tenantId: request.tenantId,
        commitmentId: request.commitmentId,
        state: 'running',
        managed: true,
      }),
    );
    for (const instance of launched) this.instances.set(instance.instanceId, instance);
    this.byToken.set(request.clientToken, {
      request: launchShape(request),
      instanceIds: launched.map((i) => i.instanceId),
    });
    this.faults.leave('launch');
    return launched.map((i) => this.view(i));
  }

  async instancesOfLease(leaseId: string): Promise<ComputeInstance[]> {
    this.faults.enter('instancesOfLease', [leaseId]);
    return this.live().filter((i) => i.leaseId === leaseId);
  }

  async findInstance(instanceId: string, regions: readonly string[]): Promise<ComputeInstance | undefined> {
    this.faults.enter('findInstance', [instanceId, regions]);
    const instance = this.instances.get(instanceId);
    return instance && regions.includes(instance.region) ? this.view(instance) : undefined;
  }

  async managedInstances(): Promise<ComputeInstance[]> {
    this.faults.enter('managedInstances', []);
    return [...this.instances.values()]
      .filter((i) => i.managed && LIVE.has(i.state ?? ''))
      .map((i) => this.view(i));
  }

  async terminate(instances: readonly InstanceRef[]): Promise<void> {
    this.faults.enter('terminate', [instances]);
    for (const { instanceId, region } of instances) {
      const instance = this.instances.get(instanceId);
      // Already gone is the state wanted (Ec2Compute swallows NotFound).
      if (!instance || instance.region !== region || !LIVE.has(instance.state ?? '')) continue;
      this.instances.set(instanceId, { ...instance, state: 'shutting-down', endedAtMs: this.clock.now() });
    }
    this.faults.leave('terminate');
  }

  /** The image version each warm machine was launched from (its user data's). */
  private readonly warmImages = new Map<string, string>();

  async launchWarm(request: WarmLaunchRequest): Promise<ComputeInstance[]> {
    const launched = await this.launch({
      ...request,
      tenantId: '',
      leaseId: '',
      mode: 'on-demand',
    });
    for (const instance of launched) {
      const found = this.instances.get(instance.instanceId) as FakeInstance;
      const { leaseId: _lease, tenantId: _tenant, ...warm } = found;
      this.instances.set(instance.instanceId, { ...warm, warmPool: request.pool });
      this.warmImages.set(instance.instanceId, request.imageVersion);
    }
    return launched.flatMap((instance) => this.find(instance.instanceId));
  }

  /**
   * The instance's user data tags it ready (agent, drivers, pre-pulled images in
   * place) with the image version it was launched from, or `imageVersion`.
   */
  signalReady(instanceId: string, imageVersion = this.warmImages.get(instanceId)): void {
    const instance = this.instances.get(instanceId);
    if (instance) this.instances.set(instanceId, { ...instance, warmReadyImage: imageVersion });
  }

  async stop(instances: readonly InstanceRef[]): Promise<void> {
    this.faults.enter('stop', [instances]);
    for (const { instanceId } of instances) {
      const instance = this.instances.get(instanceId);
      if (instance && LIVE.has(instance.state ?? ''))
        this.instances.set(instanceId, { ...instance, state: 'stopped' });
    }
  }

  async startForLease(
    ref: InstanceRef,
    owner: { readonly tenantId: string; readonly leaseId: string },
  ): Promise<void> {
    this.faults.enter('startForLease', [ref, owner]);
    const instance = this.instances.get(ref.instanceId);
    if (!instance || !LIVE.has(instance.state ?? ''))
      throw new Error(`IncorrectInstanceState: ${ref.instanceId}`);
    const { warmPool: _pool, ...rest } = instance;
    // EC2 sets LaunchTime to the start of the latest run.
    this.instances.set(ref.instanceId, {
      ...rest,
      ...owner,
      mode: 'on-demand',
      state: 'running',
      launchedAtMs: this.clock.now(),
    });
    this.faults.leave('startForLease');
  }

  async createLaunchTemplateVersion(region: string, amiId: string, description: string): Promise<string> {
    this.faults.enter('createLaunchTemplateVersion', [region, amiId, description]);
    if (!this.regions.some((r) => r.region === region)) {
      throw new Error(`No gpurent fleet launch template in ${region}`);
    }
    const version = (this.templateVersions.get(region) ?? 1) + 1;
    this.templateVersions.set(region, version);
    return String(version);
  }

  async spotPrices(region: string, instanceTypes: readonly string[]): Promise<Map<string, MicroUsd>> {
    this.faults.enter('spotPrices', [region, instanceTypes]);
    const published = this.spot.get(region) ?? new Map<string, MicroUsd>();
    return new Map([...published].filter(([key]) => instanceTypes.some((type) => key.endsWith(`/${type}`))));
  }

  private find(instanceId: string): ComputeInstance[] {
    const instance = this.instances.get(instanceId);
    return instance ? [this.view(instance)] : [];
  }

  private view({ managed: _managed, ...instance }: FakeInstance): ComputeInstance {
    return { ...instance };
  }

  private newId(): string {
    const id = `i-${String(this.nextId).padStart(17, '0')}`;
    this.nextId += 1;
    return id;
  }
}

/** What RunInstances compares when a client token comes again. */
const launchShape = (r: LaunchRequest) =>
  JSON.stringify([r.region, r.zone, r.instanceType, r.mode, r.count, r.launchTemplateVersion ?? '']);

/** EC2's answer to a client token reused with other parameters (not a capacity error: Ec2Compute passes it on). */
function idempotentParameterMismatch(token: string): Error {
  const error = new Error(`Client token ${token} was used with different parameters`);
  error.name = 'IdempotentParameterMismatch';
  return error;
}

function matches(offering: Offering, request: LaunchRequest): boolean {
  return (
    offering.mode === request.mode &&
    offering.instanceType === request.instanceType &&
    (offering.zone === undefined || offering.zone === request.zone) &&
    (offering.region === undefined || offering.region === request.region)
  );
}
