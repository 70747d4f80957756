/** Hand-built SVG charts (no dependencies), readable on GitHub. */

const W = 720;
const H = 420;
const M = { top: 48, right: 170, bottom: 56, left: 72 };
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceMax(x: number): number {
  if (x <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function fmt(x: number): string {
  if (x >= 1000) return `${Number((x / 1000).toFixed(x >= 10_000 ? 0 : 1))}k`;
  if (x >= 10) return String(Math.round(x));
  return String(Number(x.toPrecision(2)));
}

function frame(title: string, body: string[], legend: { name: string; color: string; dash?: boolean }[]) {
  const lx = W - M.right + 16;
  const items = legend.map(
    (l, i) =>
      `<line x1="${lx}" y1="${M.top + 10 + i * 20}" x2="${lx + 22}" y2="${M.top + 10 + i * 20}" stroke="${l.color}" stroke-width="3"${l.dash ? ' stroke-dasharray="6 4"' : ''}/><text x="${lx + 28}" y="${M.top + 14 + i * 20}" font-size="12">${esc(l.name)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2 - M.right / 2 + M.left / 2}" y="26" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`,
    ...body,
    ...items,
    '</svg>',
    '',
  ].join('\n');
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  readonly dashed?: boolean;
}

/** Line chart; x on a log scale when `logX` (e.g. facts 1k → 100k). Horizontal reference lines optional. */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly LineSeries[];
  logX?: boolean;
  logY?: boolean;
  refLines?: readonly { y: number; label: string }[];
}): string {
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const xs = opts.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [
    ...opts.series.flatMap((s) => s.points.map((p) => p[1])),
    ...(opts.refLines ?? []).map((r) => r.y),
  ];
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yMaxRaw = Math.max(...ys, 0);
  const yMinPos = Math.min(...ys.filter((y) => y > 0), yMaxRaw || 1);
  const lx = (x: number) => (opts.logX ? Math.log10(x) : x);
  const ly = (y: number) => (opts.logY ? Math.log10(Math.max(y, 1e-9)) : y);
  const x0 = lx(xMin);
  const x1 = lx(xMax) === x0 ? x0 + 1 : lx(xMax);
  const yLo = opts.logY ? Math.floor(Math.log10(yMinPos)) : 0;
  const yHi = opts.logY ? Math.ceil(Math.log10(yMaxRaw || 1)) : niceMax(yMaxRaw);
  const sx = (x: number) => M.left + ((lx(x) - x0) / (x1 - x0)) * pw;
  const sy = (y: number) => M.top + ph - ((ly(y) - yLo) / (yHi - yLo || 1)) * ph;
  const body: string[] = [];
  const yTicks = opts.logY
    ? Array.from({ length: yHi - yLo + 1 }, (_, i) => 10 ** (yLo + i))
    : Array.from({ length: 6 }, (_, i) => (yHi * i) / 5);
  for (const t of yTicks) {
    const y = sy(t);
    body.push(
      `<line x1="${M.left}" y1="${y}" x2="${M.left + pw}" y2="${y}" stroke="#e5e7eb"/><text x="${M.left - 8}" y="${y + 4}" text-anchor="end" font-size="11">${fmt(t)}</text>`,
    );
  }
  const xTicks = [...new Set(xs)].sort((a, b) => a - b);
  for (const t of xTicks)
    body.push(
      `<line x1="${sx(t)}" y1="${M.top + ph}" x2="${sx(t)}" y2="${M.top + ph + 5}" stroke="#111"/><text x="${sx(t)}" y="${M.top + ph + 18}" text-anchor="middle" font-size="11">${fmt(t)}</text>`,
    );
  body.push(
    `<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" stroke="#111"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" stroke="#111"/>`,
    `<text x="${M.left + pw / 2}" y="${H - 14}" text-anchor="middle" font-size="12">${esc(opts.xLabel)}</text>`,
    `<text transform="translate(18 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(opts.yLabel)}</text>`,
  );
  for (const r of opts.refLines ?? [])
    body.push(
      `<line x1="${M.left}" y1="${sy(r.y)}" x2="${M.left + pw}" y2="${sy(r.y)}" stroke="#6b7280" stroke-dasharray="2 3"/><text x="${M.left + pw - 4}" y="${sy(r.y) - 4}" text-anchor="end" font-size="11" fill="#374151">${esc(r.label)}</text>`,
    );
  opts.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length] as string;
    const pts = s.points.map((p) => `${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(' ');
    body.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${pts}"/>`,
      ...s.points.map(
        (p) =>
          `<circle cx="${sx(p[0]).toFixed(1)}" cy="${sy(p[1]).toFixed(1)}" r="3.5" fill="${color}"><title>${esc(s.name)}: ${p[0]} → ${p[1]}</title></circle>`,
      ),
    );
  });
  return frame(
    opts.title,
    body,
    opts.series.map((s, i) => ({
      name: s.name,
      color: COLORS[i % COLORS.length] as string,
      ...(s.dashed ? { dash: true } : {}),
    })),
  );
}

/** Grouped bar chart (e.g. recall@k per category, one group per category, one bar per series). */
export function barChart(opts: {
  title: string;
  yLabel: string;
  categories: readonly string[];
  series: readonly { name: string; values: readonly number[] }[];
  yMax?: number;
}): string {
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const yMax = opts.yMax ?? niceMax(Math.max(...opts.series.flatMap((s) => s.values), 0));
  const sy = (y: number) => M.top + ph - (y / yMax) * ph;
  const body: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const t = (yMax * i) / 5;
    body.push(
      `<line x1="${M.left}" y1="${sy(t)}" x2="${M.left + pw}" y2="${sy(t)}" stroke="#e5e7eb"/><text x="${M.left - 8}" y="${sy(t) + 4}" text-anchor="end" font-size="11">${fmt(t)}</text>`,
    );
  }
  const gw = pw / Math.max(1, opts.categories.length);
  const bw = (gw * 0.8) / Math.max(1, opts.series.length);
  opts.categories.forEach((c, ci) => {
    body.push(
      `<text x="${M.left + gw * ci + gw / 2}" y="${M.top + ph + 18}" text-anchor="middle" font-size="11">${esc(c)}</text>`,
    );
    opts.series.forEach((s, si) => {
      const v = s.values[ci] ?? 0;
      const x = M.left + gw * ci + gw * 0.1 + bw * si;
      body.push(
        `<rect x="${x.toFixed(1)}" y="${sy(v).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${(M.top + ph - sy(v)).toFixed(1)}" fill="${COLORS[si % COLORS.length]}"><title>${esc(s.name)} · ${esc(c)}: ${v}</title></rect>`,
      );
    });
  });
  body.push(
    `<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" stroke="#111"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" stroke="#111"/>`,
    `<text transform="translate(18 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(opts.yLabel)}</text>`,
  );
  return frame(
    opts.title,
    body,
    opts.series.map((s, i) => ({ name: s.name, color: COLORS[i % COLORS.length] as string })),
  );
}
