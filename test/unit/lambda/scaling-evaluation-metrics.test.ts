import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordScalingEvaluation } from '../../../shared/lambda/scaling-evaluation-metrics';
import type { EvaluationSummary } from '../../../shared/usecases/evaluate-scaling-groups';

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [key: string]: unknown;
}

/** The Embedded Metric Format documents Powertools writes to stdout, as CloudWatch Logs reads them. */
function captureEmf() {
  const lines: Emf[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) {
      if (line.includes('"_aws"')) lines.push(JSON.parse(line) as Emf);
    }
    return true;
  });
  return lines;
}

afterEach(() => vi.restoreAllMocks());

const summary: EvaluationSummary = {
  groups: 4,
  metricQueries: 9,
  outcomes: { acted: 3, unchanged: 1, 'claimed-elsewhere': 0, failed: 0 },
  launched: 2,
  released: 1,
  decisions: { 'scale-out': 2, 'scale-in': 1, converge: 0 },
  unhealthyGpus: 0,
  idle: { leasesJudged: 0, idleEpisodesOpened: 0, released: 0, idleMicroUsdRecorded: 0 },
  failures: [],
};

describe('scaling evaluator metrics', () => {
  it('emits ScalingDecisions per direction with the dimensions the dashboard searches, zeros included', () => {
    const emitted = captureEmf();
    const metrics = new Metrics({ namespace: 'gpurent', serviceName: 'gpurent' });
    recordScalingEvaluation(metrics, summary);
    metrics.publishStoredMetrics();

    const decisions = emitted.filter((doc) =>
      doc._aws.CloudWatchMetrics[0]?.Metrics.some((m) => m.Name === 'ScalingDecisions'),
    );
    expect(
      decisions.map((doc) => [
        doc.direction,
        doc.ScalingDecisions,
        doc.service,
        doc._aws.CloudWatchMetrics[0],
      ]),
    ).toEqual(
      [
        ['scale-out', 2],
        ['scale-in', 1],
        ['converge', 0],
      ].map(([direction, count]) => [
        direction,
        count,
        'gpurent',
        expect.objectContaining({ Namespace: 'gpurent', Dimensions: [['service', 'direction']] }),
      ]),
    );

    // The evaluator's other counts stay on the default dimension set, in one document.
    const rest = emitted.filter((doc) => !('direction' in doc));
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({
      service: 'gpurent',
      ScalingGroupsEvaluated: 4,
      ScalingMembersLaunched: 2,
      ScalingMembersReleased: 1,
      ScalingGroupFailures: 0,
    });
    expect(rest[0]?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service']]);
  });
});
