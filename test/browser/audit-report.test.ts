/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { buildMonthlyAudit } from '../../shared/domain/audit/monthly-audit';
import { renderAuditReport } from '../../shared/domain/audit/report-page';

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
  recommendation: {
    model: {
      instanceType: 'p3.2xlarge',
      onDemandMicroUsdPerHour: 3_060_000,
      reservedMicroUsdPerHour: 1_927_800,
      note: "The planner replays the month at its own model's prices.",
    },
    reservedGpus: 2,
    reservedReason: 'GPU 2 was busy 100% of the last 31 days (break-even 63%); GPU 3 only 10%',
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

beforeAll(async () => {
  const html = renderAuditReport(audit);
  server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
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
  await page.goto(`http://127.0.0.1:${port}/v1/audit/2026-10/report.html`, { waitUntil: 'networkidle0' });
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
      reserved: 'fleet reserved capacity: 4 GPU(s), shared by every tenant',
    });
    expect(chart.length).toBeGreaterThan(700);
    expect(await boxes('svg[data-chart="concurrency"] line[data-series="reserved"]')).toHaveLength(1);
  });

  it('draws utilization by hour of day, leaving hours without telemetry empty rather than at 0%', async () => {
    const chart = await page.$eval('svg[data-chart="utilization"]', (svg) => ({
      telemetry: svg.getAttribute('data-telemetry'),
      bars: [...svg.querySelectorAll('rect[data-hour]')].map((r) => [
        r.getAttribute('data-hour'),
        r.getAttribute('data-percent'),
      ]),
      hours: [...svg.querySelectorAll('text[data-hour]')].map((t) => t.textContent),
      empty: svg.querySelector('[data-label="no-telemetry"]'),
    }));
    expect(chart.telemetry).toBe('partial');
    expect(chart.bars).toEqual(Array.from({ length: 20 }, (_, h) => [String(h), String(20 + 3 * h)]));
    expect(chart.hours).toEqual(Array.from({ length: 24 }, (_, hour) => String(hour)));
    expect(chart.empty).toBeNull();
    const drawn = await boxes('svg[data-chart="utilization"] rect[data-hour]');
    expect(drawn.every((box) => box.width > 0 && box.height > 0)).toBe(true);
    // Heights follow the percentages: 77% at 19:00 against 20% at 00:00.
    expect((drawn[19]?.height ?? 0) / (drawn[0]?.height ?? 1)).toBeCloseTo(77 / 20, 2);
    expect(await page.$eval('svg[data-chart="utilization"] + p', (p) => p.textContent)).toContain(
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
