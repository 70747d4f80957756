import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/in-memory-store.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { Candidate } from '../../src/ingest/candidate.js';
import { reinforceAll } from '../../src/ingest/fact-updates.js';
import { makeFact } from '../../src/testing/make-fact.js';
import { StoreWaves } from '../../src/testing/store-waves.js';

const AT = new Date('2026-09-01T10:00:00.000Z');

function candidate(text: string, messageId: string, confidence: number): Candidate {
  return {
    subjectId: 'u1',
    speakerId: null,
    speakerName: null,
    text,
    normalizedText: text.toLowerCase(),
    category: 'general',
    confidence,
    sources: [
      {
        messageId,
        channelId: 'c1',
        authorId: 'u1',
        authorName: 'Una',
        snippet: text,
        url: '',
        role: 'primary',
        createdAt: AT,
      },
    ],
    channels: [],
    relatedUserIds: [],
    entities: [],
    relations: [],
    origin: 'extraction',
    actorId: null,
  };
}

/**
 * Reinforcements of one commit: one versioned update per fact, the facts' updates independent of
 * each other (together where the store's transactions are `ordered`).
 */
describe('reinforceAll', () => {
  it('reinforces a fact named three times with one update, as if in turn, with a history entry each', async () => {
    const counted = new StoreWaves({
      ...createInMemoryStore(),
      capabilities: { ...createInMemoryStore().capabilities, transactions: 'ordered' },
    });
    const store = counted.store;
    const fact = makeFact({ text: 'u1 keeps bees', guildId: 'g' });
    const other = makeFact({ text: 'u1 plays the cello', guildId: 'g' });
    await store.facts.insert([fact, other]);
    const deps = { store, config: parseConfig({ storage: 'memory' }) };
    const { result, byWave } = await counted.measure(() =>
      reinforceAll(
        deps,
        [
          { target: fact, candidate: candidate(fact.text, 'm1', 0.7) },
          { target: other, candidate: candidate(other.text, 'm2', 0.6) },
          { target: fact, candidate: candidate(fact.text, 'm3', 0.95) },
          { target: fact, candidate: candidate(fact.text, 'm4', 0.8) },
        ],
        AT,
      ),
    );
    const [bees, cello] = await store.facts.get('g', [fact.id, other.id]);
    expect(bees).toMatchObject({ occurrences: 4, strength: 4, confidence: 0.95, version: fact.version + 1 });
    expect(bees?.sources.map((s) => s.messageId)).toEqual(['m1', 'm3', 'm4']);
    expect(cello).toMatchObject({ occurrences: 2, version: other.version + 1 });
    expect(result.map((f) => f.id)).toEqual([fact.id, other.id, fact.id, fact.id]);
    const history = await store.facts.history('g', fact.id);
    expect(history.filter((e) => e.kind === 'reinforced').map((e) => e.detail)).toEqual([
      'occurrences=2',
      'occurrences=3',
      'occurrences=4',
    ]);
    // Two updates (one per fact), sent in the same wave.
    expect(byWave.map((w) => w.filter((c) => c === 'facts.update').length).filter((n) => n > 0)).toEqual([2]);
  });
});
