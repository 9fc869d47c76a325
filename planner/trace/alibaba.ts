import type { Workload } from '../../shared/domain/lease';
import type { DemandTrace, TraceLease } from '../../shared/planning/demand-trace';
import * as z from '../../shared/zod';
import { type CsvRow, parseRow } from './csv';
import { wholeNumber } from './fields';
import { TraceFormatError } from './trace-format-error';

export const ALIBABA_COLUMNS = [
  'name',
  'cpu_milli',
  'memory_mib',
  'num_gpu',
  'gpu_milli',
  'gpu_spec',
  'qos',
  'pod_phase',
  'creation_time',
  'deletion_time',
  'scheduled_time',
] as const;
export const ALIBABA_HEADER = ALIBABA_COLUMNS.join(',');

/**
 * The Alibaba trace counts seconds from an unpublished start. Time zero is placed
 * at the first probe of the V100 spot traces (2023-02-15), so demand and spot
 * capacity line up from the first second.
 */
export const ALIBABA_ORIGIN_MS = Date.UTC(2023, 1, 15);

const MS_PER_SECOND = 1000;

const optionalSecond = (what: string) => z.union([z.literal(''), wholeNumber(what)]);

const podRow = z.object({
  name: z.string().check(z.minLength(1, 'name is empty')),
  num_gpu: wholeNumber('num_gpu'),
  qos: z.string().check(z.minLength(1, 'qos is empty')),
  scheduled_time: optionalSecond('scheduled_time'),
  deletion_time: optionalSecond('deletion_time'),
});

/** LS pods serve latency-sensitive traffic, BE pods can be interrupted, the rest train. */
export function workloadOfQos(qos: string): Workload {
  if (qos === 'LS') return 'inference';
  if (qos === 'BE') return 'batch';
  return 'training';
}

/**
 * Pods that held at least one whole GPU and were scheduled become leases from
 * `scheduled_time` to `deletion_time`; CPU-only and never-scheduled pods are
 * counted and skipped.
 */
export function parseAlibabaRows(rows: readonly CsvRow[], source: string): DemandTrace {
  const leases: TraceLease[] = [];
  let cpuOnly = 0;
  let neverScheduled = 0;
  for (const row of rows) {
    const pod = parseRow(podRow, ALIBABA_COLUMNS, row, source);
    if (pod.num_gpu === 0) {
      cpuOnly += 1;
      continue;
    }
    if (pod.scheduled_time === '') {
      neverScheduled += 1;
      continue;
    }
    if (pod.deletion_time === '') {
      throw new TraceFormatError(source, row.line, `deletion_time is empty for scheduled pod ${pod.name}`);
    }
    if (pod.deletion_time < pod.scheduled_time) {
      throw new TraceFormatError(
        source,
        row.line,
        `deletion_time ${pod.deletion_time} is before scheduled_time ${pod.scheduled_time}`,
      );
    }
    leases.push({
      id: pod.name,
      workload: workloadOfQos(pod.qos),
      gpus: pod.num_gpu,
      startMs: ALIBABA_ORIGIN_MS + pod.scheduled_time * MS_PER_SECOND,
      endMs: ALIBABA_ORIGIN_MS + pod.deletion_time * MS_PER_SECOND,
    });
  }
  return {
    format: 'alibaba-gpu-2023',
    leases,
    originMs: ALIBABA_ORIGIN_MS,
    endMs: leases.reduce((last, lease) => Math.max(last, lease.endMs), ALIBABA_ORIGIN_MS),
    notes: [
      `Alibaba pods with num_gpu >= 1 and a scheduled_time are leases of num_gpu GPUs from scheduled_time to ` +
        `deletion_time (${leases.length} of ${rows.length} rows; skipped ${cpuOnly} without GPUs and ` +
        `${neverScheduled} never scheduled); gpu_milli sharing is ignored: a pod holds whole GPUs.`,
      'qos LS -> inference, BE -> batch, anything else (Burstable, Guaranteed) -> training.',
      `Trace second 0 is placed at ${new Date(ALIBABA_ORIGIN_MS).toISOString()}, the first spot-trace probe ` +
        '(the real start date of the Alibaba trace is not published).',
    ],
  };
}
