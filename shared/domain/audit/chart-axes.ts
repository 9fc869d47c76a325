/**
 * Geometry shared by the report's charts: one plot area, round ticks on both
 * axes, and labels placed where no series is drawn (ticks left of and under
 * the plot, the unit above it), so a line or a bar never covers a label.
 */
export const CHART = {
  width: 760,
  height: 250,
  left: 68,
  right: 16,
  top: 24,
  bottom: 44,
} as const;
export const PLOT_W = CHART.width - CHART.left - CHART.right;
export const PLOT_H = CHART.height - CHART.top - CHART.bottom;
export const BASE_Y = CHART.top + PLOT_H;
/** No drawn share of a chart is thinner than this: a 0.2% share still shows. */
export const MIN_VISIBLE_PX = 2;

const STEP_MANTISSAS = [1, 2, 2.5, 5] as const;

/**
 * 4 to 6 round values from 0 to at least `max` (3 to 5 equal steps of 1, 2,
 * 2.5 or 5 times a power of ten). `[0]` when there is nothing to scale.
 */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0];
  for (let exponent = Math.floor(Math.log10(max / 5)) - 1; ; exponent += 1) {
    for (const mantissa of STEP_MANTISSAS) {
      const step = mantissa * 10 ** exponent;
      const intervals = Math.ceil(max / step - 1e-9);
      if (intervals <= 5) {
        return Array.from({ length: Math.max(3, intervals) + 1 }, (_, i) => round(i * step));
      }
    }
  }
}

/** The y of `value` on a scale whose top tick is `top`, keeping `headroomPx` free above it. */
export function yScale(top: number, headroomPx = 0): (value: number) => number {
  const span = PLOT_H - headroomPx;
  return (value) => BASE_Y - (top > 0 ? (value / top) * span : 0);
}

export interface XTick {
  readonly x: number;
  /** Empty for a minor tick. */
  readonly label: string;
}

/**
 * Both axes: a labelled tick and a light grid line at each y value, the x
 * ticks under the base line, the y unit above the plot, the x unit under the
 * tick labels.
 */
export function axes(options: {
  readonly yTicks: readonly number[];
  readonly yOf: (value: number) => number;
  readonly yLabel: (value: number) => string;
  readonly yUnit: string;
  readonly xTicks: readonly XTick[];
  readonly xUnit: string;
}): string {
  const right = CHART.left + PLOT_W;
  const y = options.yTicks.map((value) => {
    const at = fixed(options.yOf(value));
    const grid =
      value === 0 ? '' : `<line class="grid" x1="${CHART.left}" x2="${right}" y1="${at}" y2="${at}"/>`;
    return `${grid}<line class="tick" data-axis="y" x1="${CHART.left - 4}" x2="${CHART.left}" y1="${at}" y2="${at}"/><text data-tick="y" x="${CHART.left - 7}" y="${at}" dy="0.35em" text-anchor="end">${escapeXml(options.yLabel(value))}</text>`;
  });
  const x = options.xTicks.map(({ x: at, label }) => {
    const tick = `<line class="tick" data-axis="x" x1="${fixed(at)}" x2="${fixed(at)}" y1="${BASE_Y}" y2="${BASE_Y + (label ? 5 : 3)}"/>`;
    return label
      ? `${tick}<text data-tick="x" x="${fixed(at)}" y="${BASE_Y + 18}" text-anchor="middle">${escapeXml(label)}</text>`
      : tick;
  });
  return [
    ...y,
    ...x,
    `<line class="axis" x1="${CHART.left}" x2="${right}" y1="${BASE_Y}" y2="${BASE_Y}"/>`,
    `<line class="axis" x1="${CHART.left}" x2="${CHART.left}" y1="${CHART.top}" y2="${BASE_Y}"/>`,
    `<text data-unit="y" x="${CHART.left}" y="${CHART.top - 10}" text-anchor="start">${escapeXml(options.yUnit)}</text>`,
    `<text data-unit="x" x="${CHART.left + PLOT_W / 2}" y="${CHART.height - 6}" text-anchor="middle">${escapeXml(options.xUnit)}</text>`,
  ].join('');
}

/** Ticks for the days of a month of `days` days, each `dayWidth` wide from the plot's left: labelled 1, 5, 10, … */
export function dayTicks(days: number, dayWidth: number, at: 'start' | 'middle'): XTick[] {
  const offset = at === 'middle' ? dayWidth / 2 : 0;
  return Array.from({ length: days }, (_, index) => {
    const day = index + 1;
    return {
      x: CHART.left + index * dayWidth + offset,
      label: day === 1 || day % 5 === 0 ? String(day) : '',
    };
  });
}

/** A message in the middle of a plot; its white halo (the `message` style) keeps what is behind it from showing through. */
export function plotMessage(kind: string, message: string): string {
  const x = CHART.left + PLOT_W / 2;
  const y = CHART.top + PLOT_H / 2;
  return `<text data-label="${kind}" x="${x}" y="${y}" dy="0.35em" text-anchor="middle" class="message">${escapeXml(message)}</text>`;
}

/** The `<svg>` element every chart opens with. */
export function chartSvg(attributes: string, label: string, body: string): string {
  return `<svg ${attributes} viewBox="0 0 ${CHART.width} ${CHART.height}" width="${CHART.width}" height="${CHART.height}" role="img" aria-label="${escapeXml(label)}">
${body}
</svg>`;
}

export const fixed = (value: number) => value.toFixed(1);
const round = (value: number) => Math.round(value * 1e6) / 1e6;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
