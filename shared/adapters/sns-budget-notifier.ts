import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { AuditSummaryMessage } from '../domain/audit/audit-summary';
import type { BudgetAlertMessage } from '../domain/budgets/alert-message';
import type { SpendAnomalyMessage } from '../domain/waste/anomaly-message';
import type { IdleAlertMessage } from '../domain/waste/idle-message';
import type { AuditNotifier } from '../ports/audits';
import type { BudgetNotifier } from '../ports/budgets';
import type { IdleNotifier } from '../ports/idle';
import type { AnomalyNotifier } from '../ports/spend-anomalies';

/**
 * Publishes to the budget alerts topic (budget alerts, audit summaries, idle notices, spend anomalies) with
 * message attributes subscribers can filter on.
 */
export class SnsBudgetNotifier implements BudgetNotifier, AuditNotifier, IdleNotifier, AnomalyNotifier {
  constructor(
    private readonly client: SNSClient,
    private readonly topicArn: string,
  ) {}

  async publish(
    message: BudgetAlertMessage | AuditSummaryMessage | IdleAlertMessage | SpendAnomalyMessage,
  ): Promise<void> {
    const attributes: Record<string, { DataType: string; StringValue: string }> = {};
    for (const [name, value] of Object.entries(message.attributes)) {
      if (value === undefined) continue;
      attributes[name] = {
        DataType: typeof value === 'number' ? 'Number' : 'String',
        StringValue: String(value),
      };
    }
    await this.client.send(
      new PublishCommand({
        TopicArn: this.topicArn,
        Subject: message.subject,
        Message: message.body,
        MessageAttributes: attributes,
      }),
    );
  }
}
