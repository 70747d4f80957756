import type { GuildView } from '../guild-view.js';
import { html, seg } from '../html.js';
import { layout } from './layout.js';

const MAX_DIGEST = 160;

export function guildPage(view: GuildView, admin: boolean): string {
  const g = view.guildId;
  const entities = [...view.entities.values()].sort((a, b) => b.factCount - a.factCount).slice(0, 60);
  return layout(
    { title: `Guild ${g}`, guildId: g, admin },
    html`<h1>Guild <code>${g}</code></h1>
<h2>Members (${view.members.length})</h2>
<table class="grid members">
<thead><tr><th>name</th><th>id</th><th>aliases</th><th>opt-out</th><th>active facts</th><th>digest</th></tr></thead>
<tbody>
${view.members.map(
  (m) => html`<tr${m.optedOut ? html` class="opted-out"` : ''}>
  <td><a class="member-link" href="/g/${seg(g)}/m/${seg(m.userId)}">${m.optedOut ? '(opted out)' : view.nameOf(m.userId)}</a></td>
  <td><code>${m.userId}</code></td>
  <td>${m.aliases.map((a) => a.alias).join(', ')}</td>
  <td>${m.optedOut ? 'on' : 'off'}</td>
  <td>${m.activeFacts}</td>
  <td>${m.digest && m.digest.text.length > MAX_DIGEST ? `${m.digest.text.slice(0, MAX_DIGEST)}…` : (m.digest?.text ?? '')}</td>
</tr>`,
)}
</tbody>
</table>
<h2>Entities (${view.entities.size})</h2>
<ul class="entities">
${entities.map((e) => html`<li><span class="kind">${e.kind}</span> ${e.name} <span class="count">${e.factCount}</span></li>`)}
</ul>`,
  );
}
