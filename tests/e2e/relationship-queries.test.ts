import {
  createDemoMemory,
  GUILD,
  PEOPLE,
  relationshipTour,
  seedGuild,
} from '@permafrost/example-relationship-queries';
import { describe, expect, it } from 'vitest';

describe('examples/relationship-queries (graph queries, no Discord, no LLM)', () => {
  it('answers every graph query on the scripted guild', async () => {
    const memory = createDemoMemory();
    await seedGuild(memory);
    const lines = await relationshipTour(memory);
    expect(lines).toContain('ana ↔ ben: ana friends_with ben');
    expect(lines).toContain('ana and ben both relate to: chess (loves / loves), coffee (likes / hates)');
    expect(lines).toContain('ana, cleo and eli all relate to: chess, coffee');
    expect(lines.find((l) => l.startsWith('coffee:'))).toMatch(/against ben$/);
    const similar = await memory.graph.similarUsers({ guildId: GUILD, userId: PEOPLE.ana });
    expect(similar.map((s) => s.userId)).not.toContain(PEOPLE.ben);
    expect(similar[0]?.userId).toBe(PEOPLE.eli);
    const hood = await memory.graph.neighbors({ guildId: GUILD, userId: PEOPLE.cleo, depth: 2 });
    expect(hood.find((n) => n.node.id === PEOPLE.ana)?.verbs).toEqual(['collaborates_with', 'friends_with']);
    await memory.close();
  });
});
