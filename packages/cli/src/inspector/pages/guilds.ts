import type { GuildStats } from '@permafrost/core';
import { html, seg } from '../html.js';
import { layout } from './layout.js';

export function guildsPage(guilds: readonly GuildStats[], admin: boolean): string {
  return layout(
    { title: 'Guilds', admin },
    html`<h1>Guilds</h1>
<table class="grid">
<thead><tr><th>guild</th><th>active facts</th><th>all facts</th><th>members</th><th>entities</th><th>relations</th><th>pending</th><th>dead letters</th></tr></thead>
<tbody>
${guilds.map(
  (g) => html`<tr>
  <td><a href="/g/${seg(g.guildId)}">${g.guildId}</a></td>
  <td>${g.activeFacts}</td><td>${g.totalFacts}</td><td>${g.users}</td><td>${g.entities}</td>
  <td>${g.relations}</td><td>${g.pending}</td><td>${g.deadLetters}</td>
</tr>`,
)}
</tbody>
</table>
${guilds.length === 0 ? html`<p class="empty">This database holds no guild yet.</p>` : ''}`,
  );
}
