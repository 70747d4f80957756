import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, openScene, person } from './support/scene.js';
import { closeStores, selectedStores } from './support/stores.js';
import { GUILD_A } from './support/world.js';

afterAll(closeStores);
/**
 * Non-Latin self-stated names (issue 18 §7) through the public API with the offline extractor:
 * the fact text and the alias keep the whole name, in any script.
 */

const CASES: readonly [string, string, string, string][] = [
  // [label, message, text the fact must contain, alias]
  ['accents', 'my name is José and I live in Zürich', "Alice's name is José", 'josé'],
  ['diaeresis', 'call me Zoë', 'Alice prefers to be called Zoë', 'zoë'],
  ['German', 'my name is Jürgen', "Alice's name is Jürgen", 'jürgen'],
  ['Cyrillic', 'my name is Дмитрий', "Alice's name is Дмитрий", 'дмитрий'],
  ['Greek', 'my name is Γιώργος', "Alice's name is Γιώργος", 'γιώργος'],
  ['Japanese', 'my name is 山田花子', "Alice's name is 山田花子", '山田花子'],
];

describe.each(selectedStores())('self-stated names on the $name store', (store) => {
  it.each(CASES)('%s', async (_label, message, text, alias) => {
    const scene = openScene(store, { llm: 'heuristic' });
    try {
      await scene.say(ALICE, message);
      await scene.memory.flush();
      const facts = await scene.memory.facts.getAll({ guildId: GUILD_A, subjectId: ALICE.id });
      expect(facts.map((f) => f.text)).toContain(text);
      const aliases = await scene.memory.identity.aliasesOf({ guildId: GUILD_A, userId: ALICE.id });
      expect(aliases.map((a) => a.alias)).toContain(alias);
      const r = await scene.memory.identity.resolve({ guildId: GUILD_A, identifier: alias.toUpperCase() });
      expect(r.resolved).toBe(ALICE.id);
      if (message.includes('Zürich')) expect(facts.map((f) => f.text).join(' ')).toContain('Zürich');
    } finally {
      await scene.close();
    }
  });

  it('an emoji nickname is bound as an alias', async () => {
    const scene = openScene(store, { llm: 'heuristic' });
    const fox = person(9, 'foxwell', 'Fox');
    try {
      await scene.say(fox, 'hey everyone, call me 🦊Foxy');
      await scene.memory.flush();
      const aliases = await scene.memory.identity.aliasesOf({ guildId: GUILD_A, userId: fox.id });
      expect(aliases.map((a) => a.alias)).toContain('🦊foxy');
    } finally {
      await scene.close();
    }
  });
});
