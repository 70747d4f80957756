import { html, num, type SafeHtml } from './html.js';

export interface Bar {
  readonly label: string;
  readonly value: number;
}

const ROW = 26;
const LABEL_W = 170;
const BAR_W = 380;

/** A horizontal bar chart as SVG (labels escaped, values printed beside the bars). */
export function barChart(title: string, bars: readonly Bar[], digits = 0): SafeHtml {
  const max = Math.max(1e-9, ...bars.map((b) => b.value));
  const height = Math.max(1, bars.length) * ROW + 34;
  return html`<figure class="chart">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${LABEL_W + BAR_W + 90} ${height}" role="img" aria-label="${title}">
<text class="title" x="0" y="16">${title}</text>
${bars.map((b, i) => {
  const y = 30 + i * ROW;
  const w = Math.max(0, (b.value / max) * BAR_W);
  return html`<g class="bar"><text x="${LABEL_W - 8}" y="${y + 15}" text-anchor="end">${b.label}</text>
<rect x="${LABEL_W}" y="${y + 3}" width="${Math.round(w * 10) / 10}" height="${ROW - 8}"></rect>
<text class="value" x="${LABEL_W + w + 6}" y="${y + 15}">${num(b.value, digits)}</text></g>`;
})}
${bars.length === 0 ? html`<text x="${LABEL_W}" y="46">no data</text>` : ''}
</svg>
</figure>`;
}

/** Score components as small inline bars (each in [0, 1]). */
export function componentBars(components: Readonly<Record<string, number>>): SafeHtml {
  const entries = Object.entries(components);
  return html`<svg class="components" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${entries.length * 14} 30" role="img" aria-label="score components">
${entries.map(([name, v], i) => {
  const h = Math.max(0, Math.min(1, v)) * 26;
  return html`<rect x="${i * 14 + 2}" y="${28 - h}" width="10" height="${Math.round(h * 10) / 10}"><title>${name} ${num(v)}</title></rect>`;
})}
</svg>`;
}
