import { indexTerms } from '@permafrost/core/store';
import { G1, makeMessage } from '@permafrost/store-conformance';
import { createSqliteStore } from '@permafrost/store-sqlite';
import { describe, expect, it } from 'vitest';

const search = (s: ReturnType<typeof createSqliteStore>, text: string) =>
  s.conversation.searchText(G1, indexTerms(text), 10).then((hits) => hits.map((h) => h.message.messageId));

describe('message keyword index (filled in bulk after enqueue)', () => {
  it('finds pending messages, follows edits made before and after indexing', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    const a = makeMessage({ content: 'she plays the violin on fridays' });
    const b = makeMessage({ content: 'he plays the violin too' });
    await s.queue.enqueueMany([a, b], 100);
    await s.queue.markEdited(G1, a.messageId, 'she plays the cello on fridays', false);
    expect(await search(s, 'cello')).toEqual([a.messageId]);
    expect(await search(s, 'violin')).toEqual([b.messageId]);
    await s.queue.markEdited(G1, b.messageId, 'he plays the drums', false);
    expect(await search(s, 'violin')).toEqual([]);
    expect(await search(s, 'drums')).toEqual([b.messageId]);
    await s.close();
  });

  it('drops never-indexed messages cleanly when they are deleted first', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    const rows = Array.from({ length: 4 }, (_, i) =>
      makeMessage({ channelId: 'c7', status: 'processed', content: `trumpet practice round ${i}` }),
    );
    await s.queue.enqueueMany(rows, 100);
    expect(await s.conversation.trimChannel(G1, 'c7', 1)).toBe(3);
    expect(await search(s, 'trumpet')).toEqual([rows[3]?.messageId]);
    await s.close();
  });

  it('a claim indexes what is waiting, inside the claim transaction', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    const m = makeMessage({ authorId: 'u5', content: 'the harmonica solo was great' });
    await s.queue.enqueue(m, 100);
    await s.transaction(async () => {
      const { messages } = await s.queue.claim({
        key: { guildId: G1, subjectKey: 'u5' },
        owner: 'w',
        now: new Date(),
        leaseMs: 1000,
        limit: 5,
      });
      expect(messages).toHaveLength(1);
    });
    expect(await search(s, 'harmonica')).toEqual([m.messageId]);
    await s.close();
  });

  it('never indexes hash-only rows or session entries', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    await s.queue.enqueueMany(
      [
        makeMessage({ content: 'kazoo', rawStored: false, status: 'processed' }),
        makeMessage({ content: 'kazoo session', kind: 'session', status: 'processed' }),
        makeMessage({ content: 'a kazoo for everyone' }),
      ],
      100,
    );
    expect(await search(s, 'kazoo')).toHaveLength(1);
    await s.close();
  });
});

describe('message keyword index watermark', () => {
  it('indexes a message that reuses the row id of a deleted, already indexed one', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    const first = makeMessage({
      channelId: 'c9',
      status: 'processed',
      createdAt: at(5),
      content: 'piccolo recital',
    });
    // Inserted last (highest row id) but older, so trimming the channel to one message deletes it.
    const last = makeMessage({
      channelId: 'c9',
      status: 'processed',
      createdAt: at(1),
      content: 'xylophone recital',
    });
    await s.queue.enqueueMany([first, last], 100);
    expect(await search(s, 'recital')).toHaveLength(2);
    // The newest row goes; the next insert takes its row id, below the index watermark.
    expect(await s.conversation.trimChannel(G1, 'c9', 1)).toBe(1);
    expect(await search(s, 'xylophone')).toEqual([]);
    const reused = makeMessage({ content: 'glockenspiel recital next week' });
    await s.queue.enqueue(reused, 100);
    expect(await search(s, 'glockenspiel')).toEqual([reused.messageId]);
    await s.close();
  });

  it('an edit before the first flush indexes the new text once', async () => {
    const s = createSqliteStore({ path: ':memory:' });
    const m = makeMessage({ content: 'ukulele tuning tips' });
    await s.queue.enqueue(m, 100);
    await s.queue.markEdited(G1, m.messageId, 'ukulele strumming tips', false);
    expect(await search(s, 'ukulele')).toEqual([m.messageId]);
    expect(await search(s, 'tuning')).toEqual([]);
    expect(await search(s, 'strumming')).toEqual([m.messageId]);
    await s.close();
  });
});
