import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALIBABA_HEADER, ALIBABA_ORIGIN_MS } from '../../../planner/trace/alibaba';
import { parseTrace, readTrace } from '../../../planner/trace/read-trace';
import { TraceFormatError } from '../../../planner/trace/trace-format-error';
import { USAGE_EXPORT_HEADER, USAGE_EXPORT_HEADER_V1 } from '../../../shared/domain/usage-export';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/planner/${name}`, import.meta.url));
const EXPORT_HEADER = 'lease_id,workload,mode,instance_type,gpus,started_at,ended_at';

/** The TraceFormatError that parsing `text` throws. */
function formatError(text: string): TraceFormatError {
  try {
    parseTrace(text, 'bad.csv');
  } catch (error) {
    if (error instanceof TraceFormatError) return error;
    throw error;
  }
  throw new Error('expected a TraceFormatError');
}

describe('the Alibaba GPU pod list', () => {
  it('keeps scheduled pods with whole GPUs as leases and maps qos to workloads', async () => {
    const trace = await readTrace(fixture('alibaba-sample.csv'));
    expect(trace.format).toBe('alibaba-gpu-2023');
    expect(trace.originMs).toBe(Date.UTC(2023, 1, 15));
    expect(trace.leases.map((l) => [l.id, l.workload, l.gpus])).toEqual([
      ['openb-pod-0000', 'inference', 1],
      ['openb-pod-0001', 'inference', 1],
      ['openb-pod-0017', 'training', 8],
      ['openb-pod-0022', 'batch', 1],
      ['openb-pod-0129', 'training', 1],
    ]);
    const burstable = trace.leases.find((l) => l.id === 'openb-pod-0017');
    expect(burstable?.startMs).toBe(ALIBABA_ORIGIN_MS + 9_437_497_000);
    expect(burstable?.endMs).toBe(ALIBABA_ORIGIN_MS + 10_769_854_000);
    expect(trace.endMs).toBe(ALIBABA_ORIGIN_MS + 12_902_960_000);
    expect(trace.notes.join(' ')).toContain('5 of 7 rows; skipped 1 without GPUs and 1 never scheduled');
  });

  it.each([
    ['p,1,1,x,1000,,LS,Running,0,10,0', 'line 3: num_gpu "x": num_gpu must be a whole number'],
    ['p,1,1,1,1000,,LS,Running,0,10', 'line 3: expected 11 fields'],
    ['p,1,1,1,1000,,LS,Running,0,,5', 'line 3: deletion_time is empty for scheduled pod p'],
    ['p,1,1,1,1000,,LS,Running,0,4,5', 'line 3: deletion_time 4 is before scheduled_time 5'],
    ['p,1,1,1,1000,,,Running,0,10,5', 'line 3: qos "": qos is empty'],
    ['p,1,1,1,1000,,LS,Running,0,10,-5', 'line 3: scheduled_time "-5"'],
  ])('rejects %s with the line and the problem', (row, message) => {
    const text = `${ALIBABA_HEADER}\nok,1,1,1,1000,,LS,Running,0,10,0\n${row}\n`;
    const error = formatError(text);
    expect(error.line).toBe(3);
    expect(error.message).toContain(`bad.csv ${message}`);
  });
});

describe('the usage export', () => {
  it('reads leases and runs the ones without ended_at until the last timestamp in the file', async () => {
    const trace = await readTrace(fixture('usage-export.csv'));
    expect(trace.format).toBe('usage-export');
    expect(trace.originMs).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(trace.endMs).toBe(Date.parse('2026-01-31T00:00:00.000Z'));
    const running = trace.leases.find((l) => l.id === 'lease-d');
    expect(running).toEqual({
      id: 'lease-d',
      workload: 'inference',
      gpus: 1,
      startMs: Date.parse('2026-01-30T00:00:00.000Z'),
      endMs: Date.parse('2026-01-31T00:00:00.000Z'),
    });
    expect(trace.leases.map((l) => l.workload)).toEqual(['inference', 'training', 'batch', 'inference']);
    expect(trace.notes.join(' ')).toContain(
      '1 lease without ended_at still running: taken to run until 2026-01-31T00:00:00.000Z',
    );
  });

  it('reads the export with its project column as well as the older one without', () => {
    const rows = ['a,batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,2026-11-30T13:00:00.000Z'];
    const withProject = parseTrace(
      [
        USAGE_EXPORT_HEADER,
        `${rows[0]},vision`,
        'b,training,on-demand,g5.xlarge,2,2026-11-30T12:00:00.000Z,,',
      ].join('\n'),
      'new.csv',
    );
    const without = parseTrace([USAGE_EXPORT_HEADER_V1, ...rows].join('\n'), 'old.csv');
    expect(withProject.leases.map((l) => [l.id, l.gpus])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(without.leases.map((l) => l.id)).toEqual(['a']);
    expect(() => parseTrace([USAGE_EXPORT_HEADER, rows[0]].join('\n'), 'short.csv')).toThrow(
      'expected 8 fields',
    );
  });

  const good = 'a,batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,2026-11-30T13:00:00.000Z';
  it.each([
    [
      'b,batch,spot,p3.2xlarge,1,30/11/2026,',
      'line 3: started_at "30/11/2026": started_at must be an ISO-8601 UTC time',
    ],
    [
      'b,gaming,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,',
      'line 3: workload "gaming": workload must be one of',
    ],
    ['b,batch,cheap,p3.2xlarge,1,2026-11-30T12:00:00.000Z,', 'line 3: mode "cheap": mode must be one of'],
    ['b,batch,spot,p3.2xlarge,0,2026-11-30T12:00:00.000Z,', 'line 3: gpus "0": gpus must be at least 1'],
    [
      'b,batch,spot,p3.2xlarge,two,2026-11-30T12:00:00.000Z,',
      'line 3: gpus "two": gpus must be a whole number',
    ],
    [
      'b,batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,2026-11-30T11:00:00.000Z',
      'line 3: ended_at 2026-11-30T11:00:00.000Z is before started_at 2026-11-30T12:00:00.000Z',
    ],
    [
      'b,batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,soon',
      'line 3: ended_at "soon": ended_at must be empty',
    ],
    ['a,batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,', 'line 3: lease_id a repeats line 2'],
    [',batch,spot,p3.2xlarge,1,2026-11-30T12:00:00.000Z,', 'line 3: lease_id "": lease_id is empty'],
  ])('rejects %s with the line and the problem', (row, message) => {
    const error = formatError(`${EXPORT_HEADER}\n${good}\n${row}\n`);
    expect(error.line).toBe(3);
    expect(error.message).toContain(`bad.csv ${message}`);
  });

  it('counts lines as in the file, blank lines and CRLF included', () => {
    const error = formatError(
      `${EXPORT_HEADER}\r\n${good}\r\n\r\nb,batch,spot,p3.2xlarge,x,2026-11-30T12:00:00.000Z,\r\n`,
    );
    expect(error.line).toBe(4);
  });
});

describe('format detection', () => {
  it('names both known headers when it sees neither', () => {
    const error = formatError('id,start,end\n1,2,3\n');
    expect(error.line).toBe(1);
    expect(error.message).toContain('unknown header "id,start,end"');
    expect(error.message).toContain(EXPORT_HEADER);
    expect(error.message).toContain(ALIBABA_HEADER);
  });

  it('refuses a trace without any lease', () => {
    expect(formatError(`${EXPORT_HEADER}\n`).message).toBe(
      'bad.csv line 1: the trace holds no lease with at least one GPU',
    );
  });
});
