import type { Fact, FactHistoryEntry } from '@permafrost/core';
import type { GuildView } from '../guild-view.js';
import { html, num, seg, when } from '../html.js';
import { attributionOf, sourcesOf } from './fact-row.js';
import { layout } from './layout.js';

const MAX_CHAIN = 50;

/** The supersede chain through `id`, oldest first (only facts the view may show). */
export function chainOf(view: GuildView, id: string): Fact[] {
  const byId = new Map(view.facts.map((f) => [f.id, f]));
  const start = byId.get(id);
  if (!start) return [];
  const chain: Fact[] = [start];
  for (let f = start; f.supersedesId !== null && chain.length < MAX_CHAIN; ) {
    const prev = byId.get(f.supersedesId);
    if (!prev || chain.includes(prev)) break;
    chain.unshift(prev);
    f = prev;
  }
  for (let f = start; f.supersededById !== null && chain.length < MAX_CHAIN; ) {
    const next = byId.get(f.supersededById);
    if (!next || chain.includes(next)) break;
    chain.push(next);
    f = next;
  }
  return chain;
}

export function factPage(
  view: GuildView,
  factId: string,
  chain: readonly Fact[],
  history: ReadonlyMap<string, readonly FactHistoryEntry[]>,
  admin: boolean,
): string {
  const g = seg(view.guildId);
  const subject = chain[0]?.subjectId ?? null;
  return layout(
    { title: 'Fact history', guildId: view.guildId, admin },
    html`<h1>Supersede chain</h1>
<p>About ${subject === null ? 'the server' : html`<a href="/g/${g}/m/${seg(subject)}">${view.nameOf(subject)}</a>`},
${chain.length} version(s), oldest first.</p>
<ol class="chain">
${chain.map(
  (
    f,
  ) => html`<li class="${f.id === factId ? 'current' : ''} ${f.validUntil === null && f.supersededById === null ? 'active' : 'retired'}" id="${f.id}">
  <div class="fact-text">${f.text}</div>
  <div class="meta">
    <span>${when(f.validFrom)} → ${f.validUntil ? when(f.validUntil) : 'now'}</span>
    <span>${f.tier}</span> <span>strength ${num(f.strength, 2)}</span> ${attributionOf(f, view)}
    ${f.supersededById ? html`<a class="next" href="/g/${g}/f/${seg(f.supersededById)}">superseded by →</a>` : ''}
    ${f.supersedesId ? html`<a class="prev" href="/g/${g}/f/${seg(f.supersedesId)}">← supersedes</a>` : ''}
  </div>
  <div class="sources">${sourcesOf(f)}</div>
  <ul class="history">
  ${(history.get(f.id) ?? []).map(
    (h) =>
      html`<li><time>${when(h.at)}</time> <strong>${h.kind}</strong> ${h.detail}${
        h.previousText ? html` <span class="prev-text">(was: ${h.previousText})</span>` : ''
      }</li>`,
  )}
  </ul>
</li>`,
)}
</ol>`,
  );
}
