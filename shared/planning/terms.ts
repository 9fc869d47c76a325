import { RESERVATION_TERM_MS } from '../domain/reservations';
import type { DemandTrace } from './demand-trace';

/** Reservation terms run back to back from the trace's origin; the last one may outlast the trace. */
export function termStartsOf(trace: DemandTrace): number[] {
  const starts: number[] = [];
  for (let start = trace.originMs; start < trace.endMs || starts.length === 0; start += RESERVATION_TERM_MS) {
    starts.push(start);
  }
  return starts;
}
