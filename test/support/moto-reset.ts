import { emulatorEndpoints } from './emulators';

/*
 * Each integration file starts on an empty moto. Files run one at a time on
 * each stream's emulators, and moto keeps every instance, rule and log group it
 * was given: filtered DescribeInstances walk all of them, and every earlier
 * file's EC2 events rules copied each event to every later file's queue, so late
 * files ran many times slower than alone. Every file makes its own resources
 * (useFreshResources, the local stack), so nothing it needs is lost.
 */
const response = await fetch(`${emulatorEndpoints().ec2}/moto-api/reset`, { method: 'POST' });
if (!response.ok) throw new Error(`moto did not reset: ${response.status} ${await response.text()}`);
