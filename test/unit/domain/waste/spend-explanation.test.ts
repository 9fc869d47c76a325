import { describe, expect, it } from 'vitest';
import {
  emptyAnomalyState,
  type LeaseSpend,
  observeSpend,
  type SpendAnomalyAlert,
  type SpendAnomalyState,
} from '../../../../shared/domain/waste/spend-anomaly';
import {
  advanceExplanation,
  EMPTY_EXPLANATION,
  type ExplanationState,
  explainExcess,
  startPrecedent,
} from '../../../../shared/domain/waste/spend-explanation';

const USD = 1_000_000;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
/** 2026-11-02, a Monday. */
const START = Date.UTC(2026, 10, 2);

const lease = (leaseId: string, startedAtMs: number, usdPerHour: number): LeaseSpend => ({
  leaseId,
  startedAtMs,
  hourlyMicroUsd: usdPerHour * USD,
});

/** Five $1/h leases running since the start: a flat $5/h tenant. */
const steady = [1, 2, 3, 4, 5].map((i) => lease(`steady-${i}`, START, 1));

const withPeaks = (byDay: readonly number[], explained: readonly string[] = []): ExplanationState => ({
  ...EMPTY_EXPLANATION,
  dayStartMs: START + 14 * DAY,
  byDay,
  explained,
});

describe("the tenant's largest job", () => {
  it('is the dearest lease it started in the days kept, once a week of days exists', () => {
    const days = [0, 8, 0, 3, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0].map((usd) => usd * USD);
    expect(startPrecedent(withPeaks(days))).toBe(16 * USD);
    expect(startPrecedent(withPeaks(days.slice(0, 6)))).toBeNull();
  });

  it("keeps each day's dearest lease started, and turns the day", () => {
    const at = (minutes: number) => START + DAY + minutes * MINUTE;
    const job = [lease('a', at(10), 4), lease('b', at(50), 2)];
    let state = advanceExplanation(EMPTY_EXPLANATION, at(55), [...steady, ...job]).state;
    // a ($4/h) and b ($2/h) started within the hour before 00:55; the steady ones a day before.
    expect(state.dayPeak).toBe(4 * USD);
    state = advanceExplanation(state, at(1445), steady).state;
    expect(state.byDay).toEqual([4 * USD]);
    expect(state.dayPeak).toBe(0);
  });
});

describe('explaining an excess by the leases behind it', () => {
  // $5/h steady, line $11.50/h, the tenant's largest lease of fourteen days $8/h.
  const line = 11.5 * USD;
  const history = withPeaks([8, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0].map((usd) => usd * USD));
  const now = START + 14 * DAY + 12 * 60 * MINUTE;

  it('explains a new job of a size the tenant starts anyway', () => {
    const running = [...steady, lease('job', now - 2 * MINUTE, 8)];
    const explained = explainExcess(history, now, running, 13 * USD, line);
    expect(explained?.state.explained).toEqual(['job']);
    expect(explained?.explainedMicroUsdPerHour).toBe(8 * USD);
  });

  it('explains a lease larger than any the tenant ran while it alone stays under the line', () => {
    // $9/h is over the largest lease ($8/h) but under the line ($11.50/h): a new size, not a runaway.
    const running = [...steady, lease('bigger', now - MINUTE, 9)];
    expect(explainExcess(history, now, running, 14 * USD, line)?.state.explained).toEqual(['bigger']);
    // Exactly the line is still plausible; a cent an hour more is not.
    const atLine = [lease('old', START, 5), lease('at-line', now - MINUTE, 11.5)];
    expect(explainExcess(history, now, atLine, 16.5 * USD, 11.5 * USD)?.explainedMicroUsdPerHour).toBe(line);
    const overLine = [lease('old', START, 5), lease('over-line', now - MINUTE, 11.51)];
    expect(explainExcess(history, now, overLine, 16.51 * USD, 11.5 * USD)).toBeNull();
  });

  it('does not explain a lease dearer than both the largest job and the line, nor an excess one new lease does not account for', () => {
    // $12/h alone is over the line: the rate less it is back under, but no such lease was ever run.
    expect(
      explainExcess(history, now, [...steady, lease('big', now - MINUTE, 12)], 17 * USD, line),
    ).toBeNull();
    const twoJobs = [...steady, lease('job-1', now - 2 * MINUTE, 8), lease('job-2', now - MINUTE, 8)];
    expect(explainExcess(history, now, twoJobs, 21 * USD, line)).toBeNull();
    // $8/h started, but the rate is $20/h: without the job $12/h, still over the line.
    const grown = [lease('old', START, 12), lease('job', now - MINUTE, 8)];
    expect(explainExcess(history, now, grown, 20 * USD, line)).toBeNull();
    // Nothing started within the hour: a rise of old leases (a price, a grown lease) is not a known job.
    expect(explainExcess(history, now, [lease('old', START, 13)], 13 * USD, line)).toBeNull();
  });

  it('explains one lease at a time', () => {
    const state = { ...history, explained: ['job-1'] };
    const running = [...steady, lease('job-1', now - 3 * 60 * MINUTE, 8), lease('job-2', now - MINUTE, 8)];
    // The rate less job-1 is $13/h; job-2 would account for that, but job-1 is already excused.
    expect(explainExcess(state, now, running, 13 * USD, line)).toBeNull();
  });
});

describe('the detector with the leases behind the rate', () => {
  /**
   * 14 days of a flat $5/h tenant (line: 5e6 + 3.5/0.6745 × 2√5e6 × √5e6/10 ≈ $10.19/h, the
   * MAD floored at a tenth of the median), a `jobUsd` job from 12:00 to 14:00 on `jobDays`,
   * then day 14 from 12:00 to 16:00 with `extra(at)` on top. Job days before day 7 raise no
   * alert of their own: there is no baseline yet.
   */
  function replay(jobDays: readonly number[], extra: (at: number) => LeaseSpend[], jobUsd = 8) {
    let state: SpendAnomalyState = emptyAnomalyState();
    const alerts: SpendAnomalyAlert[] = [];
    for (let minute = 0; minute < 14 * 1440 + 16 * 60; minute++) {
      const at = START + minute * MINUTE;
      const day = Math.floor(minute / 1440);
      const ofDay = minute % 1440;
      const running = [...steady];
      if (jobDays.includes(day) && ofDay >= 720 && ofDay < 840)
        running.push(lease(`job-day-${day}`, START + day * DAY + 720 * MINUTE, jobUsd));
      if (day === 14 && ofDay >= 720) running.push(...extra(at));
      const step = observeSpend(state, at, running);
      state = step.state;
      if (step.alert) alerts.push(step.alert);
    }
    return { alerts, state };
  }
  const noon = START + 14 * DAY + 720 * MINUTE;

  it('does not alert a job of a size the tenant runs, however long it runs', () => {
    const { alerts, state } = replay([2, 5], () => [lease('today', noon, 8)]);
    expect(alerts).toEqual([]);
    expect(state.explanation?.explained).toEqual(['today']);
    expect(state.line).toBeCloseTo(10_189_000, -4);
  });

  it('does not alert the same job on a tenant whose leases were half its size: alone it stays under the line', () => {
    const { alerts, state } = replay([2, 5], () => [lease('today', noon, 8)], 4);
    expect(alerts).toEqual([]);
    expect(state.explanation?.explained).toEqual(['today']);
  });

  it('alerts a lease dearer than the line on a tenant whose leases were half its size, on the third run', () => {
    // $12/h alone is over the line (about $10.19/h) and three times the largest lease ($4/h).
    const { alerts } = replay([2, 5], () => [lease('today', noon, 12)], 4);
    expect(alerts.map((a) => (a.atMs - noon) / MINUTE)).toEqual([2]);
    expect(alerts[0]?.rateMicroUsdPerHour).toBe(17 * USD);
  });

  it('alerts twice the known job, started together or half an hour apart', () => {
    const together = replay([2, 5], () => [lease('a', noon, 8), lease('b', noon, 8)]);
    expect(together.alerts.map((a) => (a.atMs - noon) / MINUTE)).toEqual([2]);
    const apart = replay([2, 5], (at) => [
      lease('a', noon, 8),
      ...(at >= noon + 30 * MINUTE ? [lease('b', noon + 30 * MINUTE, 8)] : []),
    ]);
    expect(apart.alerts.map((a) => (a.atMs - noon) / MINUTE)).toEqual([32]);
  });

  it('alerts a ramp of small leases creeping over the line: one is excused, the rest is not', () => {
    // A $1/h lease a minute from noon: the 6th (12:05, $11/h) crosses the line and is excused; at 12:06
    // the rate less it ($11/h) is over the line by less than one $1/h lease, so not in excess; from 12:07
    // ($12/h, $13/h, $14/h) it is: the third such run alerts.
    const { alerts } = replay([2, 5], (at) =>
      Array.from({ length: (at - noon) / MINUTE + 1 }, (_, i) => lease(`ramp-${i}`, noon + i * MINUTE, 1)),
    );
    expect(alerts.map((a) => (a.atMs - noon) / MINUTE)).toEqual([9]);
  });

  it('reads a state stored before leases were read (no explanation kept) as an empty one', () => {
    const { explanation: _dropped, ...stored } = emptyAnomalyState();
    const step = observeSpend(stored, START + 2 * 60 * MINUTE, steady);
    expect(step.state.explanation).toEqual({ ...EMPTY_EXPLANATION, dayStartMs: START });
  });
});
