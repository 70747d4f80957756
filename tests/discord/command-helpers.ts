import type {
  ApiMessage,
  CommandOptionValue,
  InteractionHandle,
  InteractionReply,
} from '../discord-emulator/index.js';
import { type Harness, ids } from './harness.js';

const EPHEMERAL = 64;

/** Runs `/memory <subcommand>` as `userId` and resolves with what the user sees. */
export async function run(
  h: Harness,
  userId: string,
  subcommand: string,
  options: Record<string, CommandOptionValue> = {},
): Promise<{ handle: InteractionHandle; reply: InteractionReply }> {
  const handle = h.emu.invokeCommand({ channelId: ids.general, userId, name: 'memory', subcommand, options });
  const reply = await handle.reply();
  return { handle, reply };
}

/** Posts messages as a member, waits until they are stored, then runs extraction. */
export async function learn(h: Harness, authorId: string, lines: readonly string[]): Promise<string[]> {
  const sent = lines.map((content) => h.emu.sendMessage({ channelId: ids.general, authorId, content }).id);
  await waitUntil(async () => {
    const stored = (await h.memory.admin.exportUser({ guildId: ids.guild, userId: authorId })).messages;
    return sent.every((id) => stored.some((m) => m.messageId === id));
  });
  await h.memory.flush();
  return sent;
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 15));
  }
}

export const isEphemeral = (m: { flags: number } | undefined) => ((m?.flags ?? 0) & EPHEMERAL) !== 0;

interface RawComponent {
  type: number;
  custom_id?: string;
  label?: string;
  options?: { label: string; value: string }[];
  components?: RawComponent[];
}

/** Buttons and select menus of a message, flattened. */
export function components(message: ApiMessage | undefined): RawComponent[] {
  const rows = ((message as { components?: RawComponent[] } | undefined)?.components ?? []) as RawComponent[];
  return rows.flatMap((row) => row.components ?? []);
}

export function componentByLabel(message: ApiMessage | undefined, label: string): RawComponent {
  const found = components(message).find((c) => c.label === label);
  if (!found?.custom_id) throw new Error(`no component labelled ${label}`);
  return found;
}

export function selectMenu(message: ApiMessage | undefined): RawComponent {
  const found = components(message).find((c) => c.type === 3);
  if (!found?.custom_id) throw new Error('no select menu');
  return found;
}

/** Clicks a button (or picks select values) and resolves with the resulting reply. */
export async function click(
  h: Harness,
  message: ApiMessage | undefined,
  component: RawComponent,
  userId: string,
  values?: string[],
): Promise<{ handle: InteractionHandle; reply: InteractionReply; message: ApiMessage | undefined }> {
  if (!message) throw new Error('no message to click on');
  const handle = h.emu.clickButton({
    message,
    customId: component.custom_id ?? '',
    userId,
    ...(values ? { componentType: 3, values } : {}),
  });
  const reply = await handle.reply();
  return { handle, reply, message: h.emu.message(message.id) };
}
