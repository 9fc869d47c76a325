// Placeholder so the CDK app synthesizes; the real reconciler replaces this file.
import type { ScheduledEvent } from 'aws-lambda';

export const handler = async (_event: ScheduledEvent): Promise<void> => {};
