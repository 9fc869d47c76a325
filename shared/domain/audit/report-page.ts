import { RENTAL_MODES, type RentalMode, WORKLOADS } from '../lease';
import { formatUsdForPeople as money } from '../money';
import { monthBounds } from '../spend';
import {
  axes,
  BASE_Y,
  CHART,
  chartSvg,
  dayTicks,
  escapeXml,
  fixed,
  MIN_VISIBLE_PX,
  niceTicks,
  PLOT_H,
  PLOT_W,
  plotMessage,
  yScale,
} from './chart-axes';
import type { MonthlyAudit } from './monthly-audit';

/**
 * The audit as one self-contained HTML page: inline CSS and SVG, no script, no
 * font, no request (its Content-Security-Policy forbids any), so it can be
 * mailed, archived or opened offline and look the same.
 */
export function renderAuditReport(audit: MonthlyAudit): string {
  const title = `gpurent audit ${audit.month} · ${audit.tenantId}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeXml(title)}</h1>
<p class="lead">${audit.complete ? 'The whole month' : `Month to date (${escapeXml(audit.generatedAt)})`}: <strong>${money(audit.costMicroUsd)}</strong> for ${hours(audit.seconds)} instance-hours.</p>
${modeTable(audit)}
<h2>Daily cost by mode</h2>
${dailyCostChart(audit)}
<h2>Concurrent GPUs against reserved capacity</h2>
${concurrencyChart(audit)}
<h2>GPU utilization by hour of day (UTC)</h2>
${utilizationChart(audit)}
<h2>Idle GPU cost</h2>
${idleTable(audit)}
<h2>Task time by workload</h2>
${taskTable(audit)}
<h2>Waits for admission</h2>
${queueTable(audit)}
<h2>Recommendation</h2>
${findings(audit)}
${recommendation(audit)}
</body>
</html>
`;
}

/** Nothing may load: styles are inline, SVG is inline, there is no script. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const COLORS: Readonly<Record<RentalMode, string>> = {
  'on-demand': '#d9534f',
  reserved: '#5b7bd5',
  spot: '#3fa66b',
};
const STYLE = [
  'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:800px;color:#222}',
  'h1{font-size:20px}h2{font-size:16px;margin-top:28px}',
  'table{border-collapse:collapse}td,th{padding:3px 10px;text-align:right}th:first-child,td:first-child{text-align:left}',
  'svg text{font:11px system-ui,sans-serif;fill:#555}svg .message{font-size:13px;fill:#333;paint-order:stroke;stroke:#fff;stroke-width:5px}',
  'svg .axis{stroke:#777}svg .tick{stroke:#777}svg .grid{stroke:#e6e6e6}',
  '.legend{margin:4px 0 0 60px}.legend span{display:inline-block;margin-right:16px}',
  '.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}',
  '.legend i.line{height:0;border-top:2px solid #333;vertical-align:3px;width:18px}',
  `.legend i.dashed{height:0;border-top:2px dashed ${COLORS.reserved};vertical-align:3px;width:18px}`,
  '.legend i.hatched{background:repeating-linear-gradient(45deg,#bbb 0 2px,#f1f1f1 2px 5px);outline:1px solid #ccc}',
  '.note{color:#666;font-size:12px}',
].join('\n');

/** A day's bar is never wider than this, however few days the month has so far. */
const MAX_BAR_PX = 18;
const MICRO_PER_CENT = 10_000;

function dailyCostChart(audit: MonthlyAudit): string {
  const { days, name } = monthOf(audit.month);
  const totals = audit.daily.map((d) => RENTAL_MODES.reduce((sum, m) => sum + d.costMicroUsd[m], 0));
  const max = Math.max(0, ...totals);
  // Ticks in whole cents at least, so no two read the same.
  const ticks = max > 0 ? niceTicks(Math.max(max / MICRO_PER_CENT, 4)).map((c) => c * MICRO_PER_CENT) : [0];
  // Headroom for the minimum heights, so a stack never overflows the top tick.
  const yOf = yScale(ticks.at(-1) ?? 0, MIN_VISIBLE_PX * RENTAL_MODES.length);
  const slot = PLOT_W / days;
  const barW = Math.min(MAX_BAR_PX, slot * 0.7);
  const groups = audit.daily.map((day) => {
    const x = CHART.left + (Number(day.day.slice(8)) - 1) * slot + (slot - barW) / 2;
    let y = BASE_Y;
    const bars = RENTAL_MODES.filter((mode) => day.costMicroUsd[mode] > 0).map((mode) => {
      const h = Math.max(MIN_VISIBLE_PX, BASE_Y - yOf(day.costMicroUsd[mode]));
      y -= h;
      return `<rect data-mode="${mode}" x="${fixed(x)}" y="${fixed(y)}" width="${fixed(barW)}" height="${fixed(h)}" fill="${COLORS[mode]}"><title>${day.day} ${mode}: ${money(day.costMicroUsd[mode])}</title></rect>`;
    });
    return `<g data-day="${day.day}">${bars.join('')}</g>`;
  });
  const body = [
    axes({
      yTicks: ticks,
      yOf,
      yLabel: money,
      yUnit: 'USD per day',
      xTicks: dayTicks(days, slot, 'middle'),
      xUnit: `day of ${name} (UTC)`,
    }),
    ...groups,
    max > 0 ? '' : plotMessage('no-spend', 'no spend this month'),
  ].join('\n');
  const legend = audit.byMode.map(
    (m) =>
      `<span data-legend="${m.mode}"><i style="background:${COLORS[m.mode]}"></i>${m.mode}: ${money(m.costMicroUsd)} (${share(m.share)})</span>`,
  );
  return `${chartSvg('data-chart="daily-cost"', 'Daily cost stacked by mode', body)}
<p class="legend" data-legend-for="daily-cost">${legend.join('')}</p>
<p class="note">A mode with any cost on a day is drawn at least ${MIN_VISIBLE_PX} px tall, however small its share.</p>`;
}

function concurrencyChart(audit: MonthlyAudit): string {
  const { gpus } = audit.concurrency;
  const reserved = audit.reserved.gpus;
  const { days, name } = monthOf(audit.month);
  const peak = Math.max(0, ...gpus);
  const ticks = niceTicks(Math.max(peak, reserved));
  const yOf = yScale(ticks.at(-1) ?? 0);
  const step = PLOT_W / (days * 24);
  // A step line: each hour's peak held flat across the hour.
  const path = gpus.length
    ? `M${CHART.left} ${fixed(yOf(gpus[0] ?? 0))}${gpus.map((value, hour) => `V${fixed(yOf(value))}H${fixed(CHART.left + (hour + 1) * step)}`).join('')}`
    : '';
  const reservedLine =
    reserved > 0
      ? `<line data-series="reserved" x1="${CHART.left}" x2="${CHART.left + PLOT_W}" y1="${fixed(yOf(reserved))}" y2="${fixed(yOf(reserved))}" stroke="${COLORS.reserved}" stroke-width="1.5" stroke-dasharray="6 4"/>`
      : '';
  const body = [
    axes({
      yTicks: ticks,
      yOf,
      yLabel: (value) => String(value),
      yUnit: 'GPUs held at once',
      xTicks: dayTicks(days, 24 * step, 'start'),
      xUnit: `day of ${name} (UTC), peak of each hour`,
    }),
    reservedLine,
    `<path data-series="gpus" d="${path}" fill="none" stroke="#333" stroke-width="1.2"/>`,
    peak > 0 ? '' : plotMessage('no-gpus', 'no GPU held this month'),
  ].join('\n');
  const reservedLabel =
    reserved > 0
      ? `fleet reserved capacity: ${reserved} GPU(s), shared by every tenant`
      : 'no reserved capacity this month';
  return `${chartSvg(`data-chart="concurrency" data-hours="${gpus.length}" data-peak="${peak}"`, 'Concurrent GPUs against reserved capacity', body)}
<p class="legend" data-legend-for="concurrency"><span data-legend="gpus"><i class="line"></i>your GPUs: the most held at once in each hour</span><span data-label="reserved"><i class="dashed"></i>${reservedLabel}</span></p>`;
}

const NO_TELEMETRY_PATTERN =
  '<defs><pattern id="no-telemetry" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f1f1f1"/><line x1="1" y1="0" x2="1" y2="6" stroke="#bbb" stroke-width="2"/></pattern></defs>';

function utilizationChart(audit: MonthlyAudit): string {
  const { byHourOfDay, month } = audit.utilization;
  const slot = PLOT_W / 24;
  const yOf = yScale(100);
  const columns = byHourOfDay.map((percent, hour) => {
    const x = fixed(CHART.left + hour * slot + 2);
    const width = fixed(slot - 4);
    if (percent === null) {
      return `<rect data-hour="${hour}" data-no-telemetry="" x="${x}" y="${CHART.top}" width="${width}" height="${PLOT_H}" fill="url(#no-telemetry)"><title>${hour}:00 UTC: no telemetry</title></rect>`;
    }
    // A measured 0% still shows, as a sliver on the axis: it is not a missing hour.
    const h = Math.max(MIN_VISIBLE_PX, BASE_Y - yOf(percent));
    return `<rect data-hour="${hour}" data-percent="${percent}" x="${x}" y="${fixed(BASE_Y - h)}" width="${width}" height="${fixed(h)}" fill="#6b6b6b"><title>${hour}:00 UTC: ${percent}%</title></rect>`;
  });
  const measured = byHourOfDay.some((percent) => percent !== null);
  const body = [
    NO_TELEMETRY_PATTERN,
    axes({
      yTicks: [0, 20, 40, 60, 80, 100],
      yOf,
      yLabel: (value) => `${value}%`,
      yUnit: 'GPU busy (mean of samples)',
      xTicks: Array.from({ length: 24 }, (_, hour) => ({
        x: CHART.left + hour * slot + slot / 2,
        label: String(hour),
      })),
      xUnit: 'hour of the day (UTC), over the whole month',
    }),
    ...columns,
    measured ? '' : plotMessage('no-telemetry', 'no telemetry: no GPU sent a utilization sample this month'),
  ].join('\n');
  const summary =
    month.percent === null
      ? 'No GPU telemetry this month.'
      : `${month.percent}% over the month, from ${month.measuredGpuHours} measured GPU-hours` +
        (month.gpusWithoutTelemetry > 0 ? `; ${month.gpusWithoutTelemetry} GPU(s) sent no telemetry.` : '.');
  return `${chartSvg(`data-chart="utilization" data-telemetry="${month.telemetry}"`, 'GPU utilization by hour of day', body)}
<p class="legend" data-legend-for="utilization"><span data-legend="measured"><i style="background:#6b6b6b"></i>measured (0% shows as a thin bar)</span><span data-legend="no-telemetry"><i class="hatched"></i>no telemetry in that hour</span></p>
<p class="note">${escapeXml(summary)} ${escapeXml(audit.utilization.method)}</p>`;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The whole month's days, not only those so far: a month to date keeps its scale. */
function monthOf(month: string): { days: number; name: string } {
  const { startMs, endMs } = monthBounds(month);
  const start = new Date(startMs);
  return {
    days: Math.round((endMs - startMs) / 86_400_000),
    name: `${MONTH_NAMES[start.getUTCMonth()]} ${start.getUTCFullYear()}`,
  };
}

function findings(audit: MonthlyAudit): string {
  if (audit.findings.length === 0) return '';
  return `<ul data-findings="${audit.findings.length}">${audit.findings.map((f) => `<li>${escapeXml(f)}</li>`).join('')}</ul>`;
}

function recommendation(audit: MonthlyAudit): string {
  const r = audit.recommendation;
  if (!r) return '<p data-recommendation="none">No lease ran this month: nothing to replay.</p>';
  const spot = r.spotCandidates.length
    ? r.spotCandidates
        .map((c) => `${escapeXml(c.workload)} (${c.leases} lease(s), ${c.gpuHours} GPU-hours)`)
        .join(', ')
    : 'nothing: every workload the policy would put on spot already ran there';
  return `<div data-recommendation="planner">
<ul>
<li>Commit <strong data-field="reservedGpus">${r.reservedGpus}</strong> reserved GPU(s) (${escapeXml(r.model.instanceType)} in the model) for the next term: ${escapeXml(r.reservedReason)}.</li>
<li>Move to spot: ${spot}.</li>
<li>Saving: <strong data-field="savingShare">${(r.savingShare * 100).toFixed(1)}%</strong> of the month, about <strong data-field="estimatedSaving">${money(r.estimatedSavingOfPaidMicroUsd)}</strong> of the ${money(audit.costMicroUsd)} paid.</li>
</ul>
<table>
<tr><th>In the planner's model</th><th>USD</th></tr>
<tr><td>The month as it ran</td><td>${money(r.asRanMicroUsd)}</td></tr>
<tr><td>Replayed with the live policies</td><td>${money(r.policyMicroUsd)}</td></tr>
<tr><td>… and the recommended commitment</td><td>${money(r.recommendedMicroUsd)}</td></tr>
<tr><td>Best mix in hindsight</td><td>${money(r.hindsightMicroUsd)}</td></tr>
</table>
<p class="note">${escapeXml(r.model.note)}</p>
</div>`;
}

function modeTable(audit: MonthlyAudit): string {
  const rows = audit.byMode.map(
    (m) =>
      `<tr data-mode="${m.mode}"><td>${m.mode}</td><td>${money(m.costMicroUsd)}</td><td>${share(m.share)}</td><td>${hours(m.seconds)}</td></tr>`,
  );
  const s = audit.spotSavings;
  const d = audit.byDimension;
  const split = d
    ? `<p data-field="byDimension">Compute ${money(d.compute)}, storage ${money(d.storage)}, transfer ${money(d.transfer)}.${
        audit.fleetOverhead
          ? ` Fleet overhead (stopped machines' volumes): ${money(audit.fleetOverhead.storageMicroUsd)}.`
          : ''
      }</p>\n`
    : '';
  return `<table>
<tr><th>Mode</th><th>USD</th><th>Share</th><th>Instance-hours</th></tr>
${rows.join('\n')}
</table>
${split}<p>Spot saved <strong>${money(s.savingMicroUsd)}</strong> against on-demand for the same ${hours(s.spotSeconds)} hours (catalog prices, ${escapeXml(s.region)}). Idle reserved: <span data-field="idleGpuHours">${audit.reserved.idleGpuHours}</span> GPU-hours (${money(audit.reserved.idleMicroUsd)}) across the fleet's ${audit.reserved.commitments} commitment(s). Spot interruptions of your instances: <span data-field="interruptions">${audit.interruptions.count}</span>.</p>`;
}

function idleTable(audit: MonthlyAudit): string {
  const { idle } = audit;
  if (idle.idleMicroUsd === 0) return '<p data-idle="none">No idle GPU time was billed this month.</p>';
  const projects = idle.byProject.map(
    (p) =>
      `<tr data-idle-project="${escapeXml(p.project)}"><td>${escapeXml(p.project)}</td><td>${p.idleGpuHours}</td><td>${money(p.idleMicroUsd)}</td></tr>`,
  );
  const leases = idle.idlestLeases.map(
    (l) =>
      `<tr data-idle-lease="${escapeXml(l.leaseId)}"><td>${escapeXml(l.leaseId)}</td><td>${escapeXml(l.project)}</td><td>${l.idleGpuHours}</td><td>${money(l.idleMicroUsd)}</td></tr>`,
  );
  return `<p>Idle GPUs cost <strong data-field="idleMicroUsd">${money(idle.idleMicroUsd)}</strong> (<span data-field="idleShare">${share(idle.share)}</span> of the month, ${idle.idleGpuHours} GPU-hours), from the waste ledger.</p>
<table data-idle-projects="${projects.length}"><tr><th>project</th><th>idle GPU-hours</th><th>USD</th></tr>${projects.join('')}</table>
<table data-idle-leases="${leases.length}"><tr><th>idlest leases</th><th>project</th><th>idle GPU-hours</th><th>USD</th></tr>${leases.join('')}</table>`;
}

function taskTable(audit: MonthlyAudit): string {
  const { month } = audit.tasks;
  const rows = WORKLOADS.flatMap((workload) => {
    const time = month.byWorkload[workload];
    if (!time) return [];
    return [
      `<tr data-workload="${workload}"><td>${workload}</td><td>${hours(time.runSeconds)}</td><td>${time.waitSeconds.tasks}</td><td>${wait(time.waitSeconds.p50)}</td><td>${wait(time.waitSeconds.p95)}</td></tr>`,
    ];
  });
  if (rows.length === 0) return '<p data-tasks="none">No task ran this month.</p>';
  return `<table data-tasks="${rows.length}"><tr><th>workload</th><th>task hours</th><th>tasks started</th><th>wait to start p50</th><th>p95</th></tr>${rows.join('')}</table>
<p class="note">The wait runs from the lease request to its task's first start, of the leases requested this month.</p>`;
}

function queueTable(audit: MonthlyAudit): string {
  const { waitSeconds, overQuota, accountQuota } = audit.queue.month;
  const rows = WORKLOADS.flatMap((workload) => {
    const w = waitSeconds.byWorkload[workload];
    if (!w) return [];
    return [
      `<tr data-queue-workload="${workload}"><td>${workload}</td><td>${w.leases}</td><td>${w.timedOut}</td><td>${wait(w.p50)}</td><td>${wait(w.p95)}</td></tr>`,
    ];
  });
  const pools = accountQuota.byPool.map(
    (p) =>
      `<tr data-account-quota="${escapeXml(`${p.region ?? '-'} ${p.family ?? '-'}`)}"><td>${escapeXml(p.region ?? '-')}</td><td>${p.family ?? '-'}</td><td>${p.gpuHours}</td><td>${p.peakGpus}</td><td>${p.timedOut.gpuHours}</td></tr>`,
  );
  const waits =
    rows.length === 0
      ? '<p data-queue="none">No lease was requested this month.</p>'
      : `<table data-queue="${rows.length}"><tr><th>workload</th><th>leases</th><th>timed out</th><th>wait p50</th><th>p95</th></tr>${rows.join('')}</table>`;
  const refused =
    pools.length === 0
      ? ''
      : `\n<table data-account-quotas="${pools.length}"><tr><th>region</th><th>family</th><th>GPU-hours waiting on the EC2 quota</th><th>peak GPUs</th><th>of which timed out</th></tr>${pools.join('')}</table>`;
  return `${waits}
<p>Leases waited ${hours(overQuota.leaseSeconds)} lease-hours on your quota (${hours(overQuota.wallSeconds)} h with at least one waiting) and ${accountQuota.gpuHours} GPU-hours on the account's EC2 quota.</p>${refused}
<p class="note">The wait runs from joining the admission queue to admission; a lease that timed out counts at its maxWaitMinutes.</p>`;
}

const wait = (seconds: number | null) => (seconds === null ? '–' : `${Math.round(seconds)} s`);
const hours = (seconds: number) => (seconds / 3600).toFixed(1);
const share = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
