import type { MessageSearchResult, RecallResult } from '@permafrost/core';
import type { GuildView } from '../guild-view.js';
import { html, num, safeJumpLink, seg, when } from '../html.js';
import { componentBars } from '../svg-charts.js';
import { attributionOf } from './fact-row.js';
import { layout } from './layout.js';

export interface SearchPageInput {
  readonly view: GuildView;
  readonly query: string;
  /** The channel the search is seen from ('' = the whole guild). */
  readonly channel: string;
  readonly recall: RecallResult | null;
  readonly messages: MessageSearchResult | null;
  readonly admin: boolean;
}

const componentCells = (c: Readonly<Record<string, number>>) =>
  html`${Object.values(c).map((v) => html`<td class="num">${num(v)}</td>`)}`;

export function searchPage(p: SearchPageInput): string {
  const g = seg(p.view.guildId);
  const recallHeads = ['semantic', 'lexical', 'entity', 'strength', 'rrf', 'temporal', 'context'];
  const messageHeads = ['semantic', 'lexical', 'rrf', 'temporal', 'context'];
  return layout(
    { title: p.query ? `Search: ${p.query}` : 'Search', guildId: p.view.guildId, admin: p.admin },
    html`<h1>Search</h1>
<form class="search" method="get" action="/g/${g}/search">
  <input type="search" name="q" value="${p.query}" maxlength="2000" aria-label="query" autofocus>
  <input type="text" name="channel" value="${p.channel}" maxlength="128" placeholder="as seen from channel id (optional)" aria-label="as seen from channel">
  <button type="submit">search</button>
</form>
${
  p.recall
    ? html`<h2>recall (${p.recall.facts.length})</h2>
${p.recall.warnings.length > 0 ? html`<p class="warnings">warnings: ${p.recall.warnings.join(', ')}</p>` : ''}
<table class="grid results recall">
<thead><tr><th>score</th><th></th>${recallHeads.map((h) => html`<th>${h}</th>`)}<th>about</th><th>fact</th><th>attribution</th><th>channels</th></tr></thead>
<tbody>${p.recall.facts.map(
        (s) => html`<tr>
  <td class="num">${num(s.score)}</td><td>${componentBars({ ...s.components })}</td>${componentCells({ ...s.components })}
  <td>${s.fact.subjectId === null ? 'server' : html`<a href="/g/${g}/m/${seg(s.fact.subjectId)}">${p.view.nameOf(s.fact.subjectId)}</a>`}</td>
  <td class="text"><a href="/g/${g}/f/${seg(s.fact.id)}">${s.fact.text}</a></td>
  <td>${attributionOf(s.fact, p.view)}</td>
  <td>${s.matchedChannels.join(', ')}</td>
</tr>`,
      )}</tbody>
</table>`
    : ''
}
${
  p.messages
    ? html`<h2>conversation.search (${p.messages.messages.length})</h2>
<table class="grid results messages">
<thead><tr><th>score</th><th></th>${messageHeads.map((h) => html`<th>${h}</th>`)}<th>author</th><th>when</th><th>message</th></tr></thead>
<tbody>${p.messages.messages.map((m) => {
        const href = safeJumpLink(m.url);
        return html`<tr>
  <td class="num">${num(m.score)}</td><td>${componentBars({ ...m.components })}</td>${componentCells({ ...m.components })}
  <td>${m.message.authorDisplayName || m.message.authorUsername || m.message.authorId}</td>
  <td>${href ? html`<a href="${href}" rel="noopener noreferrer" target="_blank">${when(m.message.createdAt)}</a>` : when(m.message.createdAt)}</td>
  <td class="text">${m.message.content}</td>
</tr>`;
      })}</tbody>
</table>`
    : ''
}`,
  );
}
