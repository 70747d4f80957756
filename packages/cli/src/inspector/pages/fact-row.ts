import type { Fact } from '@permafrost/core';
import type { GuildView } from '../guild-view.js';
import { html, num, type SafeHtml, safeJumpLink, seg, when } from '../html.js';
import { adminForm } from './layout.js';

const isActive = (f: Fact) => f.validUntil === null && f.supersededById === null;

/** "according to <speaker>" for claims of someone else than the subject. */
export function attributionOf(f: Fact, view: GuildView): SafeHtml {
  const speaker = f.attribution.speakerId;
  if (speaker === null || speaker === f.subjectId)
    return html`<span class="attr">${f.attribution.type}</span>`;
  return html`<span class="attr third">according to <a href="/g/${seg(view.guildId)}/m/${seg(speaker)}">${view.nameOf(speaker)}</a></span>`;
}

/** Sources as Discord jump links (only https://discord.com links are linked; others are text). */
export function sourcesOf(f: Fact): SafeHtml {
  if (f.sources.length === 0) return html`<span class="none">manual</span>`;
  return html`${f.sources.map((s) => {
    const href = safeJumpLink(s.url);
    const label = `${s.authorName || s.authorId} · ${when(s.createdAt)}`;
    return href
      ? html`<a class="source" href="${href}" rel="noopener noreferrer" target="_blank">${label}</a>`
      : html`<span class="source unlinked" title="${s.url}">${label}</span>`;
  })}`;
}

export function factRow(f: Fact, view: GuildView, admin: boolean): SafeHtml {
  const g = seg(view.guildId);
  const chained = f.supersedesId !== null || f.supersededById !== null;
  return html`<tr class="${isActive(f) ? 'active' : 'retired'}">
  <td class="text">${f.text}</td>
  <td>${f.tier}</td>
  <td>${f.category}</td>
  <td>${num(f.strength, 2)}</td>
  <td>${attributionOf(f, view)}</td>
  <td>${sourcesOf(f)}</td>
  <td>${when(f.validFrom)} → ${f.validUntil ? when(f.validUntil) : 'now'}</td>
  <td><a class="fact-link${chained ? ' chain' : ''}" href="/g/${g}/f/${seg(f.id)}">${chained ? 'supersede chain' : 'history'}</a>
  ${admin && isActive(f) ? adminForm(`/g/${g}/f/${seg(f.id)}/forget`, 'forget', 'Retire this fact?') : ''}</td>
</tr>`;
}

export function factTable(facts: readonly Fact[], view: GuildView, admin: boolean): SafeHtml {
  if (facts.length === 0) return html`<p class="empty">No facts.</p>`;
  return html`<table class="grid facts">
<thead><tr><th>fact</th><th>tier</th><th>category</th><th>strength</th><th>attribution</th><th>sources</th><th>valid</th><th></th></tr></thead>
<tbody>${facts.map((f) => factRow(f, view, admin))}</tbody>
</table>`;
}
