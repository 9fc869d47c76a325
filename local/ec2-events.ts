import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EC2_EVENT_TYPES } from '../shared/domain/ec2-events';

type Ec2EventType = (typeof EC2_EVENT_TYPES)[keyof typeof EC2_EVENT_TYPES];

/**
 * Puts an AWS-shaped EC2 instance event on the default bus of `region` (moto's,
 * locally), where the same rule as in AWS carries it to the ec2Events queue and
 * the interruption handler. `atMs` dates the event (default: now).
 */
export async function putEc2Event(
  endpoint: string,
  region: string,
  detailType: Ec2EventType,
  detail: { 'instance-id': string } & Record<string, string>,
  atMs = Date.now(),
): Promise<void> {
  const events = new EventBridgeClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const result = await events.send(
      new PutEventsCommand({
        Entries: [
          {
            Source: 'aws.ec2',
            DetailType: detailType,
            Time: new Date(atMs),
            Resources: [`arn:aws:ec2:${region}:123456789012:instance/${detail['instance-id']}`],
            Detail: JSON.stringify(detail),
          },
        ],
      }),
    );
    if (result.FailedEntryCount)
      throw new Error(`EventBridge refused the event: ${JSON.stringify(result.Entries)}`);
  } finally {
    events.destroy();
  }
}

/** The two-minute warning AWS gives before it takes a spot instance back. */
export const putSpotWarning = (endpoint: string, region: string, instanceId: string, atMs?: number) =>
  putEc2Event(
    endpoint,
    region,
    EC2_EVENT_TYPES.spotWarning,
    { 'instance-id': instanceId, 'instance-action': 'terminate' },
    atMs,
  );
