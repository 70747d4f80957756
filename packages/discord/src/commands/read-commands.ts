import type {
  APIInteractionDataResolvedGuildMember,
  APIInteractionGuildMember,
  GuildMember,
  User,
} from 'discord.js';
import { userMention } from 'discord.js';
import { audienceOf, DEFAULT_MAX_LIST_ITEMS, type SlashContext, say, sendPages } from './command-context.js';
import { factLine, plain, relationLine, sharedLine } from './format.js';

const RELATION_LIMIT = 15;
const SHARED_LIMIT = 20;
const MAX_CANDIDATES = 5;

/** Members read their own memory; reading someone else's needs the admin role or permission. */
function mayRead(ctx: SlashContext, userId: string): boolean {
  return userId === ctx.invokerId || ctx.admin;
}

const refusal = (ctx: SlashContext) =>
  say(ctx, 'Sorry, you can only look at your own memories here — a moderator can look up other members.');

/** Nickname → global name → username, for a cached member or a raw interaction member. */
function memberLabel(
  member: GuildMember | APIInteractionDataResolvedGuildMember | APIInteractionGuildMember | null,
  user: User,
): string {
  if (member && 'displayName' in member) return member.displayName;
  return member?.nick ?? user.globalName ?? user.username;
}

/** The facts about one member, newest first, with aliases and source links. */
async function listMember(ctx: SlashContext, userId: string, label: string): Promise<void> {
  const { memory, guildId } = ctx;
  const limit = Math.max(1, ctx.options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS);
  const [page, aliases, optedOut] = await Promise.all([
    memory.facts.listForSubject({
      guildId,
      subjectId: userId,
      includeServer: false,
      limit,
      audience: audienceOf(ctx),
    }),
    memory.identity.aliasesOf({ guildId, userId }),
    memory.admin.getOptOut({ guildId, userId }),
  ]);
  const names = [...new Set(aliases.map((a) => a.alias))];
  const lines = [`**What I remember about ${plain(label, 80)}**`];
  if (names.length > 1) lines.push(`Also known as: ${names.map((n) => plain(n, 64)).join(', ')}`);
  if (optedOut) lines.push('_Opted out: I am not learning from new messages._');
  if (page.items.length === 0) lines.push('Nothing yet.');
  page.items.forEach((fact, i) => {
    lines.push(factLine(fact, i + 1));
  });
  if (page.nextCursor !== null) lines.push(`…and more; only the newest ${page.items.length} are listed.`);
  await sendPages(ctx, lines);
}

/** `/memory show [user]`. */
export async function showCommand(ctx: SlashContext): Promise<void> {
  const user = ctx.interaction.options.getUser('user') ?? ctx.interaction.user;
  if (!mayRead(ctx, user.id)) return void (await refusal(ctx));
  if (user.bot) return void (await say(ctx, 'I keep no memories about bots.'));
  const member =
    ctx.interaction.options.getMember('user') ?? (user.id === ctx.invokerId ? ctx.interaction.member : null);
  await listMember(ctx, user.id, memberLabel(member, user));
}

/** `/memory lookup name` — typed name → member, never a guess when the name is shared. */
export async function lookupCommand(ctx: SlashContext): Promise<void> {
  const name = ctx.interaction.options.getString('name', true);
  const resolution = await ctx.memory.identity.resolve({ guildId: ctx.guildId, identifier: name });
  if (resolution.ambiguous) {
    const who = resolution.candidates.slice(0, MAX_CANDIDATES).map((c) => userMention(c.userId));
    return void (await say(
      ctx,
      `“${plain(name, 100)}” could be more than one member (${who.join(', ')}); I won't guess. Try \`/${ctx.command} show\` with the member.`,
    ));
  }
  if (resolution.resolved === null)
    return void (await say(ctx, `I don't know anyone called “${plain(name, 100)}”.`));
  if (!mayRead(ctx, resolution.resolved)) return void (await refusal(ctx));
  await listMember(ctx, resolution.resolved, name);
}

/** `/memory related user`. */
export async function relatedCommand(ctx: SlashContext): Promise<void> {
  const user = ctx.interaction.options.getUser('user', true);
  if (!mayRead(ctx, user.id)) return void (await refusal(ctx));
  const relations = await ctx.memory.graph.relationsOf({
    guildId: ctx.guildId,
    userId: user.id,
    limit: RELATION_LIMIT,
    audience: audienceOf(ctx),
  });
  const lines = [`**Relations of ${userMention(user.id)}**`];
  if (relations.length === 0) lines.push('No relations yet.');
  for (const r of relations) lines.push(relationLine(r));
  await sendPages(ctx, lines);
}

/** `/memory shared a b` — members may compare themselves with someone; admins any pair. */
export async function sharedCommand(ctx: SlashContext): Promise<void> {
  const a = ctx.interaction.options.getUser('a', true);
  const b = ctx.interaction.options.getUser('b', true);
  if (!ctx.admin && a.id !== ctx.invokerId && b.id !== ctx.invokerId) return void (await refusal(ctx));
  if (a.id === b.id) return void (await say(ctx, 'Pick two different members.'));
  const shared = await ctx.memory.graph.shared({
    guildId: ctx.guildId,
    a: a.id,
    b: b.id,
    limit: SHARED_LIMIT,
    audience: audienceOf(ctx),
  });
  const lines = [`**What ${userMention(a.id)} and ${userMention(b.id)} share**`];
  if (shared.length === 0) lines.push('Nothing notable yet.');
  for (const s of shared) {
    const line = sharedLine(s, a.id, b.id);
    if (line) lines.push(line);
  }
  await sendPages(ctx, lines);
}
