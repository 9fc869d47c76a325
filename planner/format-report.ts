import { RENTAL_MODES, type RentalMode } from '../shared/domain/lease';
import { type MicroUsd, microToUsd } from '../shared/domain/money';
import { RESERVATION_TERM_MS } from '../shared/domain/reservations';
import type { DemandTrace } from '../shared/planning/demand-trace';
import type { Hindsight } from '../shared/planning/hindsight';
import { type RentalMixReport, totalOf } from '../shared/planning/report';
import type { PolicyOutcome } from '../shared/planning/simulate';
import { MS_PER_HOUR } from '../shared/planning/units';

export interface ReadableInput {
  readonly source: string;
  readonly allOnDemandMicroUsd: MicroUsd;
  readonly trace: DemandTrace;
  readonly policy: PolicyOutcome;
  readonly hindsight: Hindsight;
  readonly report: RentalMixReport;
}

/** The replay as a table for people: costs by mode against both yardsticks, terms, spot, assumptions. */
export function formatReport(input: ReadableInput): string {
  const { source, trace, policy, hindsight, report } = input;
  const allOnDemandMicro = input.allOnDemandMicroUsd;
  const usd = (micro: MicroUsd) => money(microToUsd(micro));
  const times = (micro: MicroUsd, base: MicroUsd) => (micro / base).toFixed(3);
  const costRows = (label: string, cost: Readonly<Record<RentalMode, MicroUsd>>) => {
    const total = totalOf(cost);
    return [
      [label, usd(total), times(total, allOnDemandMicro), times(total, hindsight.totalMicroUsd)],
      ...RENTAL_MODES.map((mode) => [`  ${mode}`, usd(cost[mode]), '', '']),
    ];
  };
  const committedGpuHours = policy.reservedTerms.reduce(
    (sum, term) => sum + (term.gpus * RESERVATION_TERM_MS) / MS_PER_HOUR,
    0,
  );
  const used =
    committedGpuHours > 0 ? ` (${Math.round((100 * policy.reservedBusyGpuHours) / committedGpuHours)}%)` : '';
  const lines = [
    `Rental-mix replay of ${source} (${trace.format})`,
    `${count(report.tasks)} tasks, ${money(report.gpuHours)} GPU-hours, ` +
      `${day(trace.originMs)} to ${day(trace.endMs)}`,
    '',
    table('lrrr', [
      ['', 'USD', 'x all on-demand', 'x hindsight'],
      ['All on-demand', usd(allOnDemandMicro), '1.000', times(allOnDemandMicro, hindsight.totalMicroUsd)],
      ...costRows('Policy', policy.costMicroUsd),
      ...costRows('Hindsight', hindsight.costMicroUsd),
    ]),
    '',
    table('lrrl', [
      ['Reserved GPUs per term', 'policy', 'hindsight', 'policy reason'],
      ...policy.reservedTerms.map((term, i) => [
        day(term.termStartMs),
        String(term.gpus),
        String(hindsight.reservedTerms[i]?.gpus ?? ''),
        term.reason,
      ]),
    ]),
    '',
    `Reserved GPU-hours carrying leases: ${money(policy.reservedBusyGpuHours)} of ${money(committedGpuHours)} committed${used}`,
    `Spot: ${count(policy.interruptions, 'interruption')}, ${count(policy.spotFallbacks, 'fallback')} to ` +
      `on-demand, ${count(policy.returnsToSpot, 'return')} to spot; inference leases on spot: ${policy.inferenceOnSpot}`,
    '',
    'Assumptions:',
    ...report.assumptions.map((line) => `  - ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Columns padded to a common width; `align` holds one letter per column, l(eft) or r(ight). */
function table(align: string, rows: readonly (readonly string[])[]): string {
  const widths = [...align].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const pad = (cell: string, column: number) =>
    align[column] === 'r' ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0);
  return rows.map((row) => row.map(pad).join('  ').trimEnd()).join('\n');
}

function money(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function count(value: number, noun?: string): string {
  const figure = value.toLocaleString('en-US');
  if (noun === undefined) return figure;
  return `${figure} ${noun}${value === 1 ? '' : 's'}`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
