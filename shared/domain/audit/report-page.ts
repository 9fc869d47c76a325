import { RENTAL_MODES, type RentalMode } from '../lease';
import { formatUsdForPeople as money } from '../money';
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
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="lead">${audit.complete ? 'The whole month' : `Month to date (${escapeHtml(audit.generatedAt)})`}: <strong>${money(audit.costMicroUsd)}</strong> for ${hours(audit.seconds)} instance-hours.</p>
${modeTable(audit)}
<h2>Daily cost by mode</h2>
${dailyCostChart(audit)}
<h2>Concurrent GPUs against reserved capacity</h2>
${concurrencyChart(audit)}
<h2>GPU utilization by hour of day (UTC)</h2>
${utilizationChart(audit)}
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
const WIDTH = 760;
const HEIGHT = 220;
const LEFT = 56;
const BOTTOM = 28;
const TOP = 12;
const PLOT_W = WIDTH - LEFT - 12;
const PLOT_H = HEIGHT - TOP - BOTTOM;

const STYLE = [
  'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:800px;color:#222}',
  'h1{font-size:20px}h2{font-size:16px;margin-top:28px}',
  'table{border-collapse:collapse}td,th{padding:3px 10px;text-align:right}th:first-child,td:first-child{text-align:left}',
  'svg text{font:11px system-ui,sans-serif;fill:#555}.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}',
  '.note{color:#666;font-size:12px}',
].join('\n');

function dailyCostChart(audit: MonthlyAudit): string {
  const days = audit.daily;
  const max = Math.max(1, ...days.map((d) => RENTAL_MODES.reduce((sum, m) => sum + d.costMicroUsd[m], 0)));
  const slot = PLOT_W / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.75);
  const groups = days.map((day, index) => {
    const x = LEFT + index * slot + (slot - barW) / 2;
    let y = TOP + PLOT_H;
    const bars = RENTAL_MODES.filter((mode) => day.costMicroUsd[mode] > 0).map((mode) => {
      const h = (day.costMicroUsd[mode] / max) * PLOT_H;
      y -= h;
      return `<rect data-mode="${mode}" x="${fixed(x)}" y="${fixed(y)}" width="${fixed(barW)}" height="${fixed(h)}" fill="${COLORS[mode]}"><title>${day.day} ${mode}: ${money(day.costMicroUsd[mode])}</title></rect>`;
    });
    const label =
      index % 5 === 0
        ? `<text x="${fixed(x + barW / 2)}" y="${HEIGHT - 10}" text-anchor="middle">${day.day.slice(8)}</text>`
        : '';
    return `<g data-day="${day.day}">${bars.join('')}${label}</g>`;
  });
  return `<svg data-chart="daily-cost" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Daily cost stacked by mode">
${axis(`${money(max)}`)}${groups.join('\n')}
</svg>
<p class="legend">${RENTAL_MODES.map((m) => `<span style="background:${COLORS[m]}"></span>${m}`).join('')}</p>`;
}

function concurrencyChart(audit: MonthlyAudit): string {
  const { gpus } = audit.concurrency;
  const reserved = audit.reserved.gpus;
  const max = Math.max(1, reserved, ...gpus);
  const step = PLOT_W / Math.max(1, gpus.length);
  const yOf = (value: number) => fixed(TOP + PLOT_H - (value / max) * PLOT_H);
  // A step line: each hour's peak held flat across the hour.
  const path = gpus.length
    ? `M${LEFT} ${yOf(gpus[0] ?? 0)}${gpus.map((value, hour) => `V${yOf(value)}H${fixed(LEFT + (hour + 1) * step)}`).join('')}`
    : '';
  const reservedLabel = `fleet reserved capacity: ${reserved} GPU(s), shared by every tenant`;
  return `<svg data-chart="concurrency" data-hours="${gpus.length}" data-peak="${Math.max(0, ...gpus)}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Concurrent GPUs against reserved capacity">
${axis(`${max} GPUs`)}<path data-series="gpus" d="${path}" fill="none" stroke="#333" stroke-width="1.2"/>
<line data-series="reserved" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${yOf(reserved)}" y2="${yOf(reserved)}" stroke="${COLORS.reserved}" stroke-dasharray="5 3"/>
<text data-label="reserved" x="${LEFT + PLOT_W}" y="${Number(yOf(reserved)) - 4}" text-anchor="end">${reservedLabel}</text>
</svg>
<p class="note">Peak GPUs held at once in each hour, from the month's leases.</p>`;
}

function utilizationChart(audit: MonthlyAudit): string {
  const { byHourOfDay, month } = audit.utilization;
  const slot = PLOT_W / 24;
  const labels = byHourOfDay.map(
    (_, hour) =>
      `<text data-hour="${hour}" x="${fixed(LEFT + hour * slot + slot / 2)}" y="${HEIGHT - 10}" text-anchor="middle">${hour}</text>`,
  );
  const bars = byHourOfDay.flatMap((percent, hour) => {
    if (percent === null) return [];
    const h = (PLOT_H * percent) / 100;
    return [
      `<rect data-hour="${hour}" data-percent="${percent}" x="${fixed(LEFT + hour * slot + 2)}" y="${fixed(TOP + PLOT_H - h)}" width="${fixed(slot - 4)}" height="${fixed(h)}" fill="#888"><title>${hour}:00 UTC: ${percent}%</title></rect>`,
    ];
  });
  // Missing telemetry is shown as missing, never as a 0% bar.
  const empty =
    bars.length === 0
      ? `<text data-label="no-telemetry" x="${LEFT + PLOT_W / 2}" y="${TOP + PLOT_H / 2}" text-anchor="middle">no telemetry: no GPU sent a utilization sample this month</text>`
      : '';
  const summary =
    month.percent === null
      ? 'No GPU telemetry this month.'
      : `${month.percent}% over the month, from ${month.measuredGpuHours} measured GPU-hours` +
        (month.gpusWithoutTelemetry > 0 ? `; ${month.gpusWithoutTelemetry} GPU(s) sent no telemetry.` : '.');
  return `<svg data-chart="utilization" data-telemetry="${month.telemetry}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="GPU utilization by hour of day">
${axis('100%')}${bars.join('')}${labels.join('')}${empty}
</svg>
<p class="note">${escapeHtml(summary)} Hours without a bar had no telemetry. ${escapeHtml(audit.utilization.method)}</p>`;
}

function findings(audit: MonthlyAudit): string {
  if (audit.findings.length === 0) return '';
  return `<ul data-findings="${audit.findings.length}">${audit.findings.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`;
}

function recommendation(audit: MonthlyAudit): string {
  const r = audit.recommendation;
  if (!r) return '<p data-recommendation="none">No lease ran this month: nothing to replay.</p>';
  const spot = r.spotCandidates.length
    ? r.spotCandidates
        .map((c) => `${escapeHtml(c.workload)} (${c.leases} lease(s), ${c.gpuHours} GPU-hours)`)
        .join(', ')
    : 'nothing: every workload the policy would put on spot already ran there';
  return `<div data-recommendation="planner">
<ul>
<li>Commit <strong data-field="reservedGpus">${r.reservedGpus}</strong> reserved GPU(s) (${escapeHtml(r.model.instanceType)} in the model) for the next term: ${escapeHtml(r.reservedReason)}.</li>
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
<p class="note">${escapeHtml(r.model.note)}</p>
</div>`;
}

function modeTable(audit: MonthlyAudit): string {
  const rows = audit.byMode.map(
    (m) =>
      `<tr data-mode="${m.mode}"><td>${m.mode}</td><td>${money(m.costMicroUsd)}</td><td>${(m.share * 100).toFixed(1)}%</td><td>${hours(m.seconds)}</td></tr>`,
  );
  const s = audit.spotSavings;
  return `<table>
<tr><th>Mode</th><th>USD</th><th>Share</th><th>Instance-hours</th></tr>
${rows.join('\n')}
</table>
<p>Spot saved <strong>${money(s.savingMicroUsd)}</strong> against on-demand for the same ${hours(s.spotSeconds)} hours (catalog prices, ${escapeHtml(s.region)}). Idle reserved: <span data-field="idleGpuHours">${audit.reserved.idleGpuHours}</span> GPU-hours (${money(audit.reserved.idleMicroUsd)}) across the fleet's ${audit.reserved.commitments} commitment(s). Spot interruptions of your instances: <span data-field="interruptions">${audit.interruptions.count}</span>.</p>`;
}

function axis(maxLabel: string): string {
  const base = TOP + PLOT_H;
  return `<line x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${base}" y2="${base}" stroke="#999"/><line x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${base}" stroke="#999"/><text x="${LEFT - 6}" y="${TOP + 8}" text-anchor="end">${escapeHtml(maxLabel)}</text><text x="${LEFT - 6}" y="${base}" text-anchor="end">0</text>\n`;
}

const hours = (seconds: number) => (seconds / 3600).toFixed(1);
const fixed = (value: number) => value.toFixed(1);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
