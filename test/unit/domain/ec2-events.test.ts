import { describe, expect, it } from 'vitest';
import { ec2EventSchema } from '../../../shared/domain/ec2-events';

// Shapes as AWS documents them for EventBridge (EC2 spot interruption notices, state-change events).
const envelope = {
  version: '0',
  id: '12345678-1234-1234-1234-123456789012',
  source: 'aws.ec2',
  account: '123456789012',
  time: '2026-11-30T12:00:00Z',
  region: 'us-west-2',
  resources: ['arn:aws:ec2:us-west-2:123456789012:instance/i-1234567890abcdef0'],
};

describe('EC2 events', () => {
  it.each([
    [
      'EC2 Spot Instance Interruption Warning',
      { 'instance-id': 'i-1234567890abcdef0', 'instance-action': 'terminate' },
    ],
    ['EC2 Instance Rebalance Recommendation', { 'instance-id': 'i-1234567890abcdef0' }],
    ['EC2 Instance State-change Notification', { 'instance-id': 'i-1234567890abcdef0', state: 'terminated' }],
  ])('reads %s', (detailType, detail) => {
    const parsed = ec2EventSchema.parse({ ...envelope, 'detail-type': detailType, detail });
    expect(parsed['detail-type']).toBe(detailType);
    expect(parsed.detail['instance-id']).toBe('i-1234567890abcdef0');
  });

  it.each([
    [
      'another source',
      {
        ...envelope,
        source: 'aws.s3',
        'detail-type': 'EC2 Instance Rebalance Recommendation',
        detail: { 'instance-id': 'i-1' },
      },
    ],
    [
      'another detail type',
      { ...envelope, 'detail-type': 'EC2 Fleet Error', detail: { 'instance-id': 'i-1' } },
    ],
    [
      'a state change without a state',
      {
        ...envelope,
        'detail-type': 'EC2 Instance State-change Notification',
        detail: { 'instance-id': 'i-1' },
      },
    ],
    ['no instance id', { ...envelope, 'detail-type': 'EC2 Spot Instance Interruption Warning', detail: {} }],
  ])('refuses %s', (_case, event) => {
    expect(ec2EventSchema.safeParse(event).success).toBe(false);
  });
});
