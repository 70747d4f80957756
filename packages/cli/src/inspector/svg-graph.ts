import { html, type SafeHtml } from './html.js';

export interface GraphNode {
  readonly key: string;
  readonly label: string;
  readonly kind: 'user' | 'entity';
  /** Our own page for the node (members), or null. */
  readonly href: string | null;
}

export interface GraphEdge {
  readonly other: GraphNode;
  readonly verb: string;
  readonly polarity: string;
  /** true: centre → other; false: other → centre. */
  readonly outgoing: boolean;
  readonly weight: number;
}

const W = 900;
const H = 640;
const MAX_LABEL = 28;

const short = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);
const r1 = (n: number) => Math.round(n * 10) / 10;

function nodeSvg(n: GraphNode, x: number, y: number, centre: boolean): SafeHtml {
  const shape =
    n.kind === 'user'
      ? html`<circle cx="${r1(x)}" cy="${r1(y)}" r="${centre ? 30 : 20}"></circle>`
      : html`<rect x="${r1(x - 18)}" y="${r1(y - 14)}" width="36" height="28" rx="6"></rect>`;
  const body = html`<g class="node ${n.kind}${centre ? ' centre' : ''}">${shape}<text x="${r1(x)}" y="${r1(
    y + (centre ? 48 : 36),
  )}" text-anchor="middle">${short(n.label)}</text></g>`;
  return n.href ? html`<a href="${n.href}">${body}</a>` : body;
}

/**
 * A member's relations as a radial SVG: the member at the centre, each neighbour on a ring
 * (two rings past 14), one labelled arrow per edge. Pannable and zoomable by /static/inspector.js.
 */
export function memberGraphSvg(centre: GraphNode, edges: readonly GraphEdge[]): SafeHtml {
  const others = new Map<string, GraphNode>();
  for (const e of edges) others.set(e.other.key, e.other);
  const list = [...others.values()];
  const pos = new Map<string, { x: number; y: number }>();
  list.forEach((n, i) => {
    const ring = list.length > 14 && i % 2 === 1 ? 1 : 0;
    const angle = (2 * Math.PI * i) / Math.max(1, list.length) - Math.PI / 2;
    const radius = ring === 0 ? 230 : 150;
    pos.set(n.key, { x: radius * Math.cos(angle) * 1.4, y: radius * Math.sin(angle) });
  });
  const lines = edges.map((e) => {
    const p = pos.get(e.other.key) ?? { x: 0, y: 0 };
    const [x1, y1, x2, y2] = e.outgoing ? [0, 0, p.x, p.y] : [p.x, p.y, 0, 0];
    const width = 1 + Math.min(4, e.weight * 3);
    return html`<g class="edge ${e.polarity === 'negative' ? 'neg' : e.polarity === 'positive' ? 'pos' : 'neu'}">
<line x1="${r1(x1)}" y1="${r1(y1)}" x2="${r1(x2)}" y2="${r1(y2)}" stroke-width="${r1(width)}" marker-end="url(#arrow)"></line>
<text x="${r1((x1 + x2) / 2)}" y="${r1((y1 + y2) / 2 - 4)}" text-anchor="middle">${short(e.verb)}</text></g>`;
  });
  return html`<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="${-W / 2} ${-H / 2} ${W} ${H}" role="img" aria-label="relations of ${centre.label}" data-pan-zoom="1">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="28" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"></path></marker></defs>
${lines}
${list.map((n) => {
  const p = pos.get(n.key) ?? { x: 0, y: 0 };
  return nodeSvg(n, p.x, p.y, false);
})}
${nodeSvg(centre, 0, 0, true)}
${edges.length === 0 ? html`<text class="empty" x="0" y="80" text-anchor="middle">no active relations</text>` : ''}
</svg>`;
}
