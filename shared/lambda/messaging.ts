import { EventBridgePublisher } from '../adapters/eventbridge-publisher';
import { SnsBudgetNotifier } from '../adapters/sns-budget-notifier';
import { SqsDeadLetteredCommands } from '../adapters/sqs-dead-lettered-commands';
import { SqsLeaseCommandQueue } from '../adapters/sqs-lease-command-queue';
import { SqsMeteringWorkQueue } from '../adapters/sqs-metering-work-queue';
import { SqsWarmPoolFillRequests } from '../adapters/sqs-warm-pool-fill';
import { nonEmpty } from '../config';
import { EVENT_BUS, QUEUES, TOPICS } from '../resources';
import { eventBridgeClient, snsClient, sqsClient } from './clients';
import { portFactory } from './port-factory';

/** Sends lease commands to the lease worker. */
export const leaseCommandQueue = () =>
  portFactory({
    env: { [QUEUES.leaseCommands.envVar]: nonEmpty },
    reaches: [{ kind: 'queue', queue: 'leaseCommands' }],
    create: (env, clients) => new SqsLeaseCommandQueue(sqsClient(clients), env.LEASE_COMMANDS_QUEUE_URL),
  });

/** Reads back (and removes) the lease commands their queue dead-lettered: the reconciler settles their leases. */
export const leaseCommandDeadLetters = () =>
  portFactory({
    env: { [QUEUES.leaseCommands.deadLetterEnvVar]: nonEmpty },
    reaches: [{ kind: 'deadLetters', queue: 'leaseCommands' }],
    create: (env, clients) => new SqsDeadLetteredCommands(sqsClient(clients), env.LEASE_COMMANDS_DLQ_URL),
  });

/** Hands the share of a metering run that did not fit to the queue that feeds metering again. */
export const meteringWorkQueue = () =>
  portFactory({
    env: { [QUEUES.meteringWork.envVar]: nonEmpty },
    reaches: [{ kind: 'queue', queue: 'meteringWork' }],
    create: (env, clients) => new SqsMeteringWorkQueue(sqsClient(clients), env.METERING_WORK_QUEUE_URL),
  });

/** Asks the warm-pool filler to top a pool up after a lease took one of its machines. */
export const warmPoolFillRequests = () =>
  portFactory({
    env: { [QUEUES.warmPoolFill.envVar]: nonEmpty },
    reaches: [{ kind: 'queue', queue: 'warmPoolFill' }],
    create: (env, clients) => new SqsWarmPoolFillRequests(sqsClient(clients), env.WARM_POOL_FILL_QUEUE_URL),
  });

/** Domain events onto the gpurent bus. */
export const domainEventPublisher = () =>
  portFactory({
    env: { [EVENT_BUS.envVar]: nonEmpty },
    reaches: [{ kind: 'eventBus' }],
    create: (env, clients) => new EventBridgePublisher(eventBridgeClient(clients), env.EVENT_BUS_NAME),
  });

/** Budget alerts, audit summaries and idle notices to the tenants' alerts topic. */
export const budgetNotifier = () =>
  portFactory({
    env: { [TOPICS.budgetAlerts.envVar]: nonEmpty },
    reaches: [{ kind: 'topic', topic: 'budgetAlerts' }],
    create: (env, clients) => new SnsBudgetNotifier(snsClient(clients), env.BUDGET_ALERTS_TOPIC_ARN),
  });
