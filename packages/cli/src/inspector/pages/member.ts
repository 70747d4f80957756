import { type Fact, isValidAt, type RelationEdge } from '@permafrost/core';
import type { GuildView, MemberView } from '../guild-view.js';
import { html, seg, when } from '../html.js';
import { type GraphEdge, type GraphNode, memberGraphSvg } from '../svg-graph.js';
import { factTable } from './fact-row.js';
import { adminForm, layout } from './layout.js';

export interface MemberPageInput {
  readonly view: GuildView;
  readonly member: MemberView;
  readonly edges: readonly RelationEdge[];
  /** Show facts valid at this instant (end of the chosen day), else active ones. */
  readonly asOf: Date | null;
  /** With no asOf: include retired facts. */
  readonly all: boolean;
  readonly admin: boolean;
}

function nodeOf(view: GuildView, type: string, id: string): GraphNode {
  if (type === 'user')
    return {
      key: `user:${id}`,
      label: view.nameOf(id),
      kind: 'user',
      href: `/g/${seg(view.guildId)}/m/${seg(id)}`,
    };
  return { key: `entity:${id}`, label: view.entities.get(id)?.name ?? id, kind: 'entity', href: null };
}

export function memberPage(p: MemberPageInput): string {
  const { view, member, admin } = p;
  const g = seg(view.guildId);
  const u = seg(member.userId);
  const name = member.optedOut ? '(opted out)' : view.nameOf(member.userId);
  const actions = admin
    ? html`<section class="actions"><h2>Admin actions</h2>
${adminForm(
  `/g/${g}/m/${u}/optout`,
  member.optedOut ? 'turn opt-out off' : 'opt out',
  member.optedOut ? 'Let memory observe this member again?' : 'Stop observing and recalling this member?',
  html`<input type="hidden" name="optedOut" value="${member.optedOut ? 'false' : 'true'}">`,
)}
${adminForm(`/g/${g}/m/${u}/purge`, 'purge everything', 'Delete every trace of this member? This cannot be undone.')}
</section>`
    : '';
  if (member.optedOut)
    return layout(
      { title: 'Opted-out member', guildId: view.guildId, admin },
      html`<h1>${name} <code>${member.userId}</code></h1>
<p class="notice">This member opted out of memory: nothing about them, and nothing they said about others, is shown.</p>
${actions}`,
    );
  const mine = view.facts.filter((f) => f.subjectId === member.userId);
  const shown: Fact[] = mine
    .filter((f) =>
      p.asOf ? isValidAt(f, p.asOf) : p.all || (f.validUntil === null && f.supersededById === null),
    )
    .sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
  const centre = nodeOf(view, 'user', member.userId);
  const graphEdges: GraphEdge[] = p.edges.map((e) => {
    const outgoing = e.src.type === 'user' && e.src.id === member.userId;
    const other = outgoing ? e.dst : e.src;
    return {
      other: nodeOf(view, other.type, other.id),
      verb: e.verb,
      polarity: e.polarity,
      outgoing,
      weight: e.weight,
    };
  });
  const asOfValue = p.asOf ? p.asOf.toISOString().slice(0, 10) : '';
  return layout(
    { title: name, guildId: view.guildId, admin },
    html`<h1 class="member-name">${name} <code>${member.userId}</code></h1>
<section class="profile">
  <p><strong>Aliases:</strong> ${member.aliases.map(
    (a) => html`<span class="alias" title="${a.source} · weight ${a.weight}">${a.alias}</span> `,
  )}</p>
  <p><strong>Opt-out:</strong> off</p>
  <p><strong>Digest:</strong> ${member.digest?.text ? html`<span class="digest">${member.digest.text}</span> <small>(${when(member.digest.generatedAt)})</small>` : html`<span class="none">none yet</span>`}</p>
</section>
<h2>Facts ${p.asOf ? html`as of <time>${asOfValue}</time>` : p.all ? '(all, retired included)' : '(active)'}</h2>
<form class="as-of" method="get" action="/g/${g}/m/${u}">
  <label>as of <input type="date" name="asOf" value="${asOfValue}" data-autosubmit="1"></label>
  <button type="submit">show</button>
  <a href="/g/${g}/m/${u}">active</a> · <a href="/g/${g}/m/${u}?all=1">all versions</a>
</form>
${factTable(shown, view, admin)}
<h2>Relations</h2>
${memberGraphSvg(centre, graphEdges)}
${actions}`,
  );
}
