/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { buildMonthlyAudit } from '../../shared/domain/audit/monthly-audit';
import { renderAuditReport } from '../../shared/domain/audit/report-page';
import { realisticMonth } from './realistic-month';

/**
 * The Chromium that the @sparticuz/chromium package carries (npm ci brings it;
 * its first use unpacks it to the temp directory), unless CHROMIUM_PATH names another.
 */
const chromiumPath = async () => process.env.CHROMIUM_PATH ?? (await chromium.executablePath());
const HOUR = 3_600_000;
const OCT = Date.parse('2026-10-01T00:00:00Z');

// Three days with on-demand, two of them with spot too; GPUs: 3 at once on Oct 2, 1 otherwise.
const audit = buildMonthlyAudit({
  tenantId: 'acme <&> "co"',
  month: '2026-10',
  nowMs: Date.parse('2026-11-01T00:30:00Z'),
  region: 'us-east-1',
  catalog: priceCatalog,
  rollups: [
    {
      day: '2026-10-01',
      mode: 'on-demand',
      instanceType: 'g5.xlarge',
      seconds: 86_400,
      microUsd: 24_144_000,
    },
    {
      day: '2026-10-02',
      mode: 'on-demand',
      instanceType: 'g5.xlarge',
      seconds: 86_400,
      microUsd: 24_144_000,
    },
    { day: '2026-10-02', mode: 'spot', instanceType: 'g5.xlarge', seconds: 172_800, microUsd: 19_200_000 },
    {
      day: '2026-10-03',
      mode: 'on-demand',
      instanceType: 'g5.xlarge',
      seconds: 43_200,
      microUsd: 12_072_000,
    },
    { day: '2026-10-03', mode: 'spot', instanceType: 'g5.xlarge', seconds: 3_600, microUsd: 400_000 },
  ],
  spans: [
    { gpus: 1, startMs: OCT, endMs: OCT + 60 * HOUR },
    { gpus: 2, startMs: OCT + 24 * HOUR, endMs: OCT + 48 * HOUR },
  ],
  // One GPU measured every hour of the day but 20-23 UTC, at 20% + 3% per hour of the day; one never measured.
  gpus: [
    {
      instanceId: 'i-measured',
      fromMs: OCT,
      toMs: OCT + 60 * HOUR,
      periods: Array.from({ length: 60 }, (_, h) => h)
        .filter((h) => h % 24 < 20)
        .map((h) => ({ startMs: OCT + h * HOUR, sumPercent: 60 * (20 + 3 * (h % 24)), samples: 60 })),
    },
    { instanceId: 'i-silent', fromMs: OCT + 24 * HOUR, toMs: OCT + 48 * HOUR, periods: [] },
  ],
  idleReserved: [
    {
      commitmentId: 'c1',
      instanceType: 'g5.xlarge',
      committedGpus: 4,
      hourlyMicroUsd: 634_000,
      idleGpuSeconds: 36_000,
      idleMicroUsd: 6_340_000,
    },
  ],
  instances: [{ workload: 'batch', interruptedAtMs: OCT + 30 * HOUR }],
  tasks: [],
  waits: [],
  idleRollups: [],
  recommendation: {
    model: {
      instanceType: 'p3.2xlarge',
      onDemandMicroUsdPerHour: 3_060_000,
      reservedMicroUsdPerHour: 1_927_800,
      note: "The planner replays the month at its own model's prices.",
    },
    reservedGpus: 2,
    reservedReason:
      '2 GPUs at once were in use 100% of the last 31 days, above the 63% at which a reserved GPU pays for itself; a 3rd GPU at once only 10% of the time',
    reservedSavingMicroUsd: 1_000_000,
    spotCandidates: [{ workload: 'batch', leases: 1, gpuHours: 12 }],
    asRanMicroUsd: 10_000_000,
    policyMicroUsd: 9_000_000,
    policySavingMicroUsd: 1_000_000,
    recommendedMicroUsd: 8_000_000,
    hindsightMicroUsd: 7_500_000,
    savingShare: 0.2,
  },
});

let browser: Browser;
let server: Server;
let page: Page;
const requests: string[] = [];
const consoleErrors: string[] = [];

/** Reports served by path: the small fixture above, a realistic month, an empty one, and the first day of one. */
const reports: Record<string, string> = {
  '/v1/audit/2026-10/report.html': renderAuditReport(audit),
  '/realistic': renderAuditReport(realisticMonth()),
  '/empty': renderAuditReport(
    buildMonthlyAudit({
      tenantId: 'idle',
      month: '2026-09',
      nowMs: Date.parse('2026-10-01T00:30:00Z'),
      region: 'us-east-1',
      catalog: priceCatalog,
      rollups: [],
      spans: [],
      gpus: [],
      idleReserved: [],
      instances: [],
      tasks: [],
      waits: [],
      idleRollups: [],
      recommendation: null,
    }),
  ),
  '/first-day': renderAuditReport(realisticMonth('2026-11', Date.parse('2026-11-01T20:00:00Z'))),
};
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const html = reports[request.url ?? ''];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await puppeteer.launch({
    executablePath: await chromiumPath(),
    headless: true,
    // Tests run as root in CI containers, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu'],
  });
  page = await browser.newPage();
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  await page.goto(`${base}/v1/audit/2026-10/report.html`, { waitUntil: 'networkidle0' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Rendered size of each element matching `selector`: what the browser actually drew. */
const boxes = (selector: string) =>
  page.$$eval(selector, (elements) =>
    elements.map((element) => {
      const box = (element as SVGGraphicsElement).getBBox();
      return { width: box.width, height: box.height };
    }),
  );

describe('the audit report in headless Chromium', () => {
  it('loads nothing but itself and logs no console error', () => {
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/\/v1\/audit\/2026-10\/report\.html$/);
    expect(consoleErrors).toEqual([]);
  });

  it('escapes the tenant in the title', async () => {
    expect(await page.title()).toBe('gpurent audit 2026-10 · acme <&> "co"');
  });

  it('draws the daily cost stacked by mode: one group a day, one bar per mode and day with cost', async () => {
    expect(await page.$$eval('svg[data-chart="daily-cost"] g[data-day]', (g) => g.length)).toBe(31);
    const bars = await page.$$eval('svg[data-chart="daily-cost"] rect[data-mode]', (rects) =>
      rects.map((r) => `${r.parentElement?.getAttribute('data-day')} ${r.getAttribute('data-mode')}`),
    );
    expect(bars).toEqual([
      '2026-10-01 on-demand',
      '2026-10-02 on-demand',
      '2026-10-02 spot',
      '2026-10-03 on-demand',
      '2026-10-03 spot',
    ]);
    const drawn = await boxes('svg[data-chart="daily-cost"] rect[data-mode]');
    expect(drawn.every((box) => box.width > 0 && box.height > 0)).toBe(true);
    // Oct 2 is the tallest day: its stack reaches the top of the plot.
    const heights = drawn.map((box) => box.height);
    expect((heights[1] ?? 0) + (heights[2] ?? 0)).toBeGreaterThan((heights[0] ?? 0) + 1);
  });

  it('draws concurrent GPUs hour by hour against the reserved capacity line', async () => {
    const chart = await page.$eval('svg[data-chart="concurrency"]', (svg) => ({
      hours: svg.getAttribute('data-hours'),
      peak: svg.getAttribute('data-peak'),
      length: (svg.querySelector('path[data-series="gpus"]') as SVGPathElement).getTotalLength(),
      reserved: svg.querySelector('[data-label="reserved"]')?.textContent,
    }));
    expect(chart).toMatchObject({
      hours: String(31 * 24),
      peak: '3',
    });
    expect(
      await page.$eval('[data-legend-for="concurrency"] [data-label="reserved"]', (e) => e.textContent),
    ).toBe('fleet reserved capacity: 4 GPU(s), shared by every tenant');
    expect(chart.length).toBeGreaterThan(700);
    expect(await boxes('svg[data-chart="concurrency"] line[data-series="reserved"]')).toHaveLength(1);
  });

  it('draws utilization by hour of day, leaving hours without telemetry empty rather than at 0%', async () => {
    const chart = await page.$eval('svg[data-chart="utilization"]', (svg) => ({
      telemetry: svg.getAttribute('data-telemetry'),
      bars: [...svg.querySelectorAll('rect[data-percent]')].map((r) => [
        r.getAttribute('data-hour'),
        r.getAttribute('data-percent'),
      ]),
      hours: [...svg.querySelectorAll('text[data-tick="x"]')].map((t) => t.textContent),
      missing: [...svg.querySelectorAll('rect[data-no-telemetry]')].map((r) => r.getAttribute('data-hour')),
      empty: svg.querySelector('[data-label="no-telemetry"]'),
    }));
    expect(chart.telemetry).toBe('partial');
    expect(chart.bars).toEqual(Array.from({ length: 20 }, (_, h) => [String(h), String(20 + 3 * h)]));
    expect(chart.hours).toEqual(Array.from({ length: 24 }, (_, hour) => String(hour)));
    expect(chart.missing).toEqual(['20', '21', '22', '23']);
    expect(chart.empty).toBeNull();
    const drawn = await boxes('svg[data-chart="utilization"] rect[data-percent]');
    expect(drawn.every((box) => box.width > 0 && box.height > 0)).toBe(true);
    // Heights follow the percentages: 77% at 19:00 against 20% at 00:00.
    expect((drawn[19]?.height ?? 0) / (drawn[0]?.height ?? 1)).toBeCloseTo(77 / 20, 2);
    expect(await page.$eval('svg[data-chart="utilization"] ~ p.note', (p) => p.textContent)).toContain(
      '1 GPU(s) sent no telemetry',
    );
  });

  it('reports idle reserved hours and interruptions, and what to do about them', async () => {
    const fields = await page.$$eval('span[data-field]', (elements) =>
      Object.fromEntries(elements.map((e) => [e.getAttribute('data-field'), e.textContent])),
    );
    expect(fields).toEqual({ idleGpuHours: '10', interruptions: '1' });
    const findings = await page.$$eval('[data-findings] li', (items) => items.map((li) => li.textContent));
    expect(findings).toHaveLength(2);
    expect(findings[0]).toContain('sat idle 10 GPU-hours, $6.34 paid for nothing');
    expect(findings[1]).toContain('Spot reclaimed 1 of your instance(s) (batch 1)');
  });

  it('shows the recommendation with its saving', async () => {
    const fields = await page.$$eval('[data-recommendation="planner"] [data-field]', (elements) =>
      Object.fromEntries(elements.map((e) => [e.getAttribute('data-field'), e.textContent])),
    );
    // 20% of the $79.96 paid.
    expect(fields).toEqual({ reservedGpus: '2', savingShare: '20.0%', estimatedSaving: '$15.99' });
    expect(await page.$eval('[data-recommendation="planner"]', (e) => e.textContent)).toContain(
      'batch (1 lease(s), 12 GPU-hours)',
    );
  });
});

const CHARTS = ['daily-cost', 'concurrency', 'utilization'] as const;

async function open(path: string): Promise<Page> {
  const opened = await browser.newPage();
  await opened.setViewport({ width: 860, height: 1200 });
  await opened.goto(`${base}${path}`, { waitUntil: 'networkidle0' });
  return opened;
}

/**
 * Every place in one chart where something is drawn over a label: two labels
 * whose boxes meet, a line or path passing through a label (sampled every
 * pixel along it), a bar covering one.
 */
const collisions = (target: Page, chart: string) =>
  target.$eval(`svg[data-chart="${chart}"]`, (svg) => {
    type Box = { x: number; y: number; width: number; height: number };
    const meet = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const texts = [...svg.querySelectorAll(':scope > text')].map((t) => ({
      label: t.textContent ?? '',
      box: (t as SVGTextElement).getBBox(),
    }));
    const found: string[] = [];
    texts.forEach((a, i) => {
      for (const b of texts.slice(i + 1))
        if (meet(a.box, b.box)) found.push(`"${a.label}" meets "${b.label}"`);
    });
    for (const shape of svg.querySelectorAll(':scope > line, :scope > path')) {
      const geometry = shape as SVGGeometryElement;
      const length = geometry.getTotalLength();
      for (let at = 0; at <= length; at += 1) {
        const p = geometry.getPointAtLength(at);
        const hit = texts.find(
          ({ box }) => p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height,
        );
        if (hit) {
          found.push(
            `${shape.tagName} ${shape.getAttribute('data-series') ?? shape.getAttribute('class')} crosses "${hit.label}"`,
          );
          break;
        }
      }
    }
    for (const bar of svg.querySelectorAll('rect[data-mode], rect[data-percent]')) {
      const box = (bar as SVGRectElement).getBBox();
      for (const t of texts) if (meet(box, t.box)) found.push(`bar covers "${t.label}"`);
    }
    return found;
  });

/** The chart's tick labels on one axis, with where they sit. */
const ticks = (target: Page, chart: string, axis: 'x' | 'y') =>
  target.$$eval(`svg[data-chart="${chart}"] text[data-tick="${axis}"]`, (texts) =>
    texts.map((t) => ({
      label: t.textContent ?? '',
      x: Number(t.getAttribute('x')),
      y: Number(t.getAttribute('y')),
    })),
  );

describe('the charts of a realistic month', () => {
  let report: Page;
  beforeAll(async () => {
    report = await open('/realistic');
  }, 30_000);
  afterAll(() => report?.close());

  it.each(CHARTS)(
    '%s: both axes have 4-6 round y ticks, labelled x ticks and units, and a legend',
    async (chart) => {
      const y = await ticks(report, chart, 'y');
      expect(y.length).toBeGreaterThanOrEqual(4);
      expect(y.length).toBeLessThanOrEqual(6);
      const values = y.map((tick) => Number(tick.label.replace(/[^0-9.]/g, '')));
      const steps = values.slice(1).map((value, i) => Math.round((value - (values[i] ?? 0)) * 100) / 100);
      expect(new Set(steps).size).toBe(1);
      expect(values[0]).toBe(0);
      expect((await ticks(report, chart, 'x')).length).toBeGreaterThanOrEqual(6);
      const units = await report.$$eval(`svg[data-chart="${chart}"] text[data-unit]`, (texts) =>
        texts.map((t) => t.textContent?.trim()),
      );
      expect(units).toHaveLength(2);
      expect(units.every((unit) => (unit ?? '').length > 2)).toBe(true);
      expect(
        await report.$$eval(`[data-legend-for="${chart}"] > span`, (spans) => spans.length),
      ).toBeGreaterThanOrEqual(2);
    },
  );

  it.each(CHARTS)('%s: nothing is drawn over a label', async (chart) => {
    expect(await collisions(report, chart)).toEqual([]);
  });

  it('daily cost: the top tick is at or above the costliest day, in dollars', async () => {
    const y = await ticks(report, 'daily-cost', 'y');
    expect(y.every((tick) => /^\$\d+\.\d\d$/.test(tick.label))).toBe(true);
    const top = Number(y.at(-1)?.label.slice(1));
    const days = realisticMonth().daily.map(
      (d) => d.costMicroUsd['on-demand'] + d.costMicroUsd.reserved + d.costMicroUsd.spot,
    );
    expect(top * 1e6).toBeGreaterThanOrEqual(Math.max(...days));
  });

  it('daily cost: bars are narrow and spread across the month, and a 0.1% spot share is still visible', async () => {
    const bars = await report.$$eval('svg[data-chart="daily-cost"] rect[data-mode]', (rects) =>
      rects.map((r) => ({
        mode: r.getAttribute('data-mode'),
        x: Number(r.getAttribute('x')),
        width: (r as SVGRectElement).getBBox().width,
        height: (r as SVGRectElement).getBBox().height,
      })),
    );
    expect(bars.every((bar) => bar.width > 4 && bar.width <= 18)).toBe(true);
    const xs = bars.map((bar) => bar.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(0.9 * 676);
    const spot = bars.filter((bar) => bar.mode === 'spot');
    // Four days of $0.15 of spot each.
    expect(spot).toHaveLength(4);
    expect(spot.every((bar) => bar.height >= 2)).toBe(true);
    expect(await report.$eval('[data-legend="spot"]', (e) => e.textContent)).toMatch(
      /^spot: \$0\.60 \(0\.1%\)$/,
    );
  });

  it('concurrency: the reserved line is off the x axis and its label is in the legend, not on the plot', async () => {
    const line = await report.$eval('svg[data-chart="concurrency"] line[data-series="reserved"]', (l) => ({
      y: Number(l.getAttribute('y1')),
      axis: Number(l.parentElement?.querySelector('line.axis')?.getAttribute('y1')),
    }));
    expect(line.y).toBeLessThan(line.axis - 20);
    expect(
      await report.$$eval('svg[data-chart="concurrency"] text', (t) => t.map((e) => e.textContent)),
    ).not.toContain(expect.stringContaining('reserved'));
    const x = await ticks(report, 'concurrency', 'x');
    expect(x.map((tick) => tick.label)).toEqual(['1', '5', '10', '15', '20', '25', '30']);
  });

  it('utilization: a measured 0% hour looks unlike an hour without telemetry, and both are in the legend', async () => {
    const columns = await report.$$eval('svg[data-chart="utilization"] rect[data-hour]', (rects) =>
      rects.map((r) => ({
        hour: r.getAttribute('data-hour'),
        percent: r.getAttribute('data-percent'),
        missing: r.hasAttribute('data-no-telemetry'),
        fill: r.getAttribute('fill'),
        height: (r as SVGRectElement).getBBox().height,
      })),
    );
    const zero = columns.filter((c) => c.percent === '0');
    const missing = columns.filter((c) => c.missing);
    expect(zero.map((c) => c.hour)).toEqual(['6', '7']);
    expect(missing.map((c) => c.hour)).toEqual(['0', '1', '2', '3', '4', '5', '22', '23']);
    expect(zero.every((c) => c.height >= 2)).toBe(true);
    expect(new Set(zero.map((c) => c.fill)).size).toBe(1);
    expect(missing.every((c) => c.fill !== zero[0]?.fill)).toBe(true);
    const legend = await report.$$eval('[data-legend-for="utilization"] > span', (spans) =>
      spans.map((s) => s.getAttribute('data-legend')),
    );
    expect(legend).toEqual(['measured', 'no-telemetry']);
  });

  it('says the reservation reason in words', async () => {
    const text = await report.$eval('[data-recommendation="planner"]', (e) => e.textContent ?? '');
    expect(text).not.toMatch(/GPU \d+ (only|was busy)/);
    expect(text).toContain('2 GPUs at once were in use');
  });
});

describe('an empty month and the first day of one', () => {
  it('says "no spend this month" instead of putting $0.00 at the top of the axis', async () => {
    const empty = await open('/empty');
    const y = await ticks(empty, 'daily-cost', 'y');
    const axisY = await empty.$eval('svg[data-chart="daily-cost"] line.axis', (l) =>
      Number(l.getAttribute('y1')),
    );
    expect(y).toEqual([{ label: '$0.00', x: expect.any(Number), y: axisY }]);
    expect(await empty.$eval('svg [data-label="no-spend"]', (e) => e.textContent)).toBe(
      'no spend this month',
    );
    expect(await empty.$eval('svg [data-label="no-gpus"]', (e) => e.textContent)).toBe(
      'no GPU held this month',
    );
    for (const chart of CHARTS) expect(await collisions(empty, chart)).toEqual([]);
    await empty.close();
  });

  it('draws a month to date on the whole month: its first day is one narrow bar at the left', async () => {
    const first = await open('/first-day');
    const bars = await first.$$eval('svg[data-chart="daily-cost"] rect[data-mode]', (rects) =>
      rects.map((r) => ({ x: Number(r.getAttribute('x')), width: Number(r.getAttribute('width')) })),
    );
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.every((bar) => bar.width <= 18 && bar.x < 68 + 676 / 30)).toBe(true);
    expect((await ticks(first, 'daily-cost', 'x')).at(-1)?.label).toBe('30');
    await first.close();
  });
});
