import { existsSync, readFileSync } from 'node:fs';
import { type ChatRequest, createMemory, type Fact, type Memory, MemoryError } from '@permafrost/core';
import { FORGOTTEN_FACT_TEXT } from '@permafrost/core/internal';
import { createScriptedLlm, FixedClock, sequentialIds } from '@permafrost/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { closeStores, type StoreInstance, selectedStores } from './support/stores.js';

afterAll(closeStores);

/**
 * Deletes and edits forget (issue #23 §4) and purge fencing (§5), through the public API on every
 * selected store: a deleted message leaves no row, no keyword hit, no source ref, and — on SQLite —
 * no byte in the db or WAL file; facts only it supported are retired; an edit retires the claim
 * only the old text made; a purge that runs while a batch holding the member's messages waits on
 * the model is not undone when that batch commits.
 */

const G = '500000000000000001';
const CH = '600000000000000001';
const ALICE = '110000000000000001';
const BOB = '110000000000000002';
const NAMES: Record<string, string> = { [ALICE]: 'Alice', [BOB]: 'Bob' };

/**
 * Extraction replies keyed on words of the batch: a rule adds one operation about `subject` (a
 * display name, looked up in the prompt's roster) citing the message that holds its word.
 */
type Rule = { readonly when: string; readonly subject: string; readonly text: string };

function extractionReply(request: ChatRequest, rules: readonly Rule[]): string {
  const prompt = request.messages.map((m) => m.content).join('\n');
  const operations = rules.flatMap((r) => {
    const token = new RegExp(`(p\\d+) = "?${r.subject}\\b`).exec(prompt)?.[1];
    const source = prompt
      .split('\n')
      .map((line) =>
        /\[msg:(\d+)\]/.exec(line) && line.includes(r.when) ? /\[msg:(\d+)\]/.exec(line)?.[1] : undefined,
      )
      .find((x) => x !== undefined);
    if (!token || !source) return [];
    return [
      {
        subjectToken: token,
        speakerToken: null,
        text: r.text,
        category: 'personal',
        confidence: 0.9,
        sourceMessageIndexes: [Number(source)],
        entities: [],
        relations: [],
      },
    ];
  });
  return JSON.stringify({ operations });
}

interface World {
  readonly memory: Memory;
  readonly clock: FixedClock;
  readonly llm: ReturnType<typeof createScriptedLlm>;
  readonly instance: StoreInstance;
  say(authorId: string, content: string, id?: string, edited?: boolean): Promise<string>;
  facts(subjectId: string): Promise<Fact[]>;
  allFacts(): Promise<Fact[]>;
  close(): Promise<void>;
}

let seq = 0;
function world(instance: StoreInstance): World {
  const clock = new FixedClock('2026-09-01T12:00:00.000Z');
  const llm = createScriptedLlm();
  const memory = createMemory(
    { storage: instance.storage, workers: { enabled: false }, batching: { batchSizeMessages: 2 } },
    { llm, clock, idGen: sequentialIds(), ...instance.overrides },
  );
  return {
    memory,
    clock,
    llm,
    instance,
    async say(authorId, content, id, edited = false) {
      clock.advanceSeconds(5);
      const messageId = id ?? String(700000000000000000n + BigInt(++seq));
      const r = await memory.observe({
        messageId,
        guildId: G,
        channelId: CH,
        authorId,
        content,
        createdAt: clock.now(),
        authorDisplayName: NAMES[authorId] ?? 'Someone',
        authorUsername: (NAMES[authorId] ?? 'someone').toLowerCase(),
        edited,
      });
      expect(r.status).toBe('accepted');
      return messageId;
    },
    facts: async (subjectId) => memory.facts.getAll({ guildId: G, subjectId }),
    allFacts: async () => [...(await memory.admin.exportGuild({ guildId: G })).facts],
    async close() {
      await memory.close();
      await instance.cleanup();
    },
  };
}

/** Where a string's bytes are found in the SQLite files (db, -wal). */
function bytesIn(path: string, needle: string): string[] {
  const hits: string[] = [];
  for (const suffix of ['', '-wal']) {
    if (existsSync(path + suffix) && readFileSync(path + suffix).includes(Buffer.from(needle, 'utf8')))
      hits.push(suffix || 'db');
  }
  return hits;
}

for (const store of selectedStores()) {
  describe(`forgetMessage, edits and purge fencing on ${store.name}`, () => {
    it('forgetting a message removes it, retires the facts only it supported and strips it from the rest', async () => {
      const w = world(store.open());
      const SECRET = 'qzgardenmarkerqz';
      w.llm.script('extraction', (r) =>
        extractionReply(r, [
          { when: SECRET, subject: 'Alice', text: 'Alice keeps a secret rooftop garden' },
          { when: SECRET, subject: 'Alice', text: 'Alice grows tomatoes' },
          { when: 'tomatoes again', subject: 'Alice', text: 'Alice grows tomatoes' },
        ]),
      );
      const doomed = await w.say(ALICE, `my ${SECRET} rooftop garden has tomatoes now`);
      await w.say(ALICE, 'just a filler line about the weather today');
      await w.memory.flush();
      await w.say(ALICE, 'picked tomatoes again this morning');
      await w.say(ALICE, 'another filler line about the bus');
      await w.memory.flush();
      const before = await w.facts(ALICE);
      expect(before.map((f) => f.text).sort()).toEqual([
        'Alice grows tomatoes',
        'Alice keeps a secret rooftop garden',
      ]);
      const tomatoes = before.find((f) => f.text === 'Alice grows tomatoes') as Fact;
      const gardenId = (before.find((f) => f.text.includes('garden')) as Fact).id;
      expect(tomatoes.sources.map((s) => s.messageId)).toContain(doomed);

      const report = await w.memory.forgetMessage({ guildId: G, channelId: CH, messageId: doomed });
      expect(report).toMatchObject({ messagesDeleted: 1, factsRetired: 1 });
      expect(report.sourcesRemoved).toBeGreaterThanOrEqual(2);

      expect((await w.facts(ALICE)).map((f) => f.text)).toEqual(['Alice grows tomatoes']);
      const all = await w.allFacts();
      // Retired, and its text (the claim the message made) does not outlive the message.
      const garden = all.find((f) => f.id === gardenId) as Fact;
      expect(garden.validUntil).not.toBeNull();
      expect(garden.text).toBe(FORGOTTEN_FACT_TEXT);
      expect(JSON.stringify(all)).not.toContain('rooftop');
      for (const f of all) expect(f.sources.map((s) => s.messageId)).not.toContain(doomed);
      expect(JSON.stringify(all)).not.toContain(SECRET);
      const history = await w.memory.conversation.threadHistory({ guildId: G, channelId: CH, limit: 50 });
      expect(history.map((m) => m.messageId)).not.toContain(doomed);
      expect(JSON.stringify(history)).not.toContain(SECRET);
      const hits = await w.memory.conversation.search({ guildId: G, text: `${SECRET} rooftop garden` });
      expect(JSON.stringify(hits)).not.toContain(SECRET);
      // Forgetting again (or an unknown id) changes nothing.
      expect(await w.memory.forgetMessage({ guildId: G, channelId: CH, messageId: doomed })).toMatchObject({
        messagesDeleted: 0,
        factsRetired: 0,
        sourcesRemoved: 0,
      });
      const path = w.instance.path;
      await w.close();
      if (path) expect(bytesIn(path, SECRET)).toEqual([]);
    });

    it('a pending message forgotten before extraction never reaches the model', async () => {
      const w = world(store.open());
      const id = await w.say(BOB, 'bob says the vault code is qzvaultqz');
      await w.memory.forgetMessage({ guildId: G, channelId: CH, messageId: id });
      await w.say(BOB, 'nothing to see here at all');
      await w.memory.flush();
      expect(JSON.stringify(w.llm.calls)).not.toContain('qzvaultqz');
      const path = w.instance.path;
      await w.close();
      if (path) expect(bytesIn(path, 'qzvaultqz')).toEqual([]);
    });

    it('an edit retires the claim only the old text made and extracts the new one', async () => {
      const w = world(store.open());
      w.llm.script('extraction', (r) =>
        extractionReply(r, [
          { when: 'Omaha', subject: 'Alice', text: 'Alice lives in Omaha' },
          { when: 'Denver', subject: 'Alice', text: 'Alice lives in Denver' },
        ]),
      );
      const id = await w.say(ALICE, 'I live in Omaha these days');
      await w.say(ALICE, 'filler about lunch plans');
      await w.memory.flush();
      const [omahaFact] = await w.facts(ALICE);
      expect(omahaFact?.text).toBe('Alice lives in Omaha');
      const omahaId = omahaFact?.id;
      await w.say(ALICE, 'I live in Denver these days', id, true);
      expect((await w.facts(ALICE)).map((f) => f.text)).toEqual([]);
      await w.memory.flush();
      expect((await w.facts(ALICE)).map((f) => f.text)).toEqual(['Alice lives in Denver']);
      const omaha = (await w.allFacts()).find((f) => f.id === omahaId) as Fact;
      expect([omaha.validUntil !== null, omaha.sources, omaha.text]).toEqual([true, [], FORGOTTEN_FACT_TEXT]);
      const history = await w.memory.conversation.threadHistory({ guildId: G, channelId: CH, limit: 50 });
      expect(history.find((m) => m.messageId === id)?.content).toBe('I live in Denver these days');
      // The same text again is a plain duplicate.
      await w.memory.observe({
        messageId: id,
        guildId: G,
        channelId: CH,
        authorId: ALICE,
        content: 'I live in Denver these days',
        createdAt: w.clock.now(),
        edited: true,
      });
      expect((await w.facts(ALICE)).map((f) => f.text)).toEqual(['Alice lives in Denver']);
      await w.close();
    });

    it('an edit that leaves nothing to store forgets the old text', async () => {
      const w = world(store.open());
      const id = await w.say(BOB, 'my home address is qzaddressqz street');
      await w.memory.observe({
        messageId: id,
        guildId: G,
        channelId: CH,
        authorId: BOB,
        content: '',
        createdAt: w.clock.now(),
        edited: true,
      });
      const history = await w.memory.conversation.threadHistory({ guildId: G, channelId: CH, limit: 5 });
      expect(history.map((m) => m.messageId)).not.toContain(id);
      const path = w.instance.path;
      await w.close();
      if (path) expect(bytesIn(path, 'qzaddressqz')).toEqual([]);
    });

    it('a purge during an in-flight extraction is not undone when the batch commits', async () => {
      const w = world(store.open());
      let entered: () => void = () => {};
      const inCall = new Promise<void>((r) => {
        entered = r;
      });
      let release: () => void = () => {};
      const purged = new Promise<void>((r) => {
        release = r;
      });
      // Bob's batch tells the model about Alice (a third-party claim) and about himself; the model
      // answers only once Alice has been purged.
      w.llm.script('extraction', async (r) => {
        entered();
        await purged;
        return extractionReply(r, [
          { when: 'qznursequ', subject: 'Alice', text: 'Alice works as a night nurse' },
          { when: 'qzbikeqz', subject: 'Bob', text: 'Bob rides a red bike' },
        ]);
      });
      await w.say(ALICE, 'hello everyone, good evening');
      await w.say(BOB, `<@${ALICE}> you work as a qznursequ at night right`);
      await w.say(BOB, 'my qzbikeqz is red and fast');
      const flushing = w.memory.flush();
      await inCall;
      const report = await w.memory.admin.purgeUser({ guildId: G, userId: ALICE, dryRun: false });
      expect(report.dryRun).toBe(false);
      release();
      await flushing;
      expect(await w.facts(ALICE)).toEqual([]);
      const all = await w.allFacts();
      expect(all.map((f) => f.subjectId)).not.toContain(ALICE);
      expect(JSON.stringify(all)).not.toContain('nurse');
      expect(all.map((f) => f.text)).toContain('Bob rides a red bike');
      const exported = await w.memory.admin.exportUser({ guildId: G, userId: ALICE });
      expect(exported.messages).toEqual([]);
      expect(exported.aliases).toEqual([]);
      await w.close();
    });

    it('rejects malformed input with SCHEMA_INVALID and changes nothing', async () => {
      const w = world(store.open());
      const id = await w.say(BOB, 'a message that stays put');
      for (const bad of [
        { guildId: G, messageId: id },
        { guildId: G, channelId: CH, messageId: '' },
        { guildId: G, channelId: CH, messageId: id, extra: 1 },
        { guildId: G, channelId: CH, messageId: 'x'.repeat(129) },
      ]) {
        const error = await w.memory.forgetMessage(bad as never).catch((e: unknown) => e);
        expect(MemoryError.is(error, 'SCHEMA_INVALID')).toBe(true);
      }
      const history = await w.memory.conversation.threadHistory({ guildId: G, channelId: CH, limit: 5 });
      expect(history.map((m) => m.messageId)).toEqual([id]);
      await w.close();
    });
  });
}
