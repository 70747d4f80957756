import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  createMemory,
  ErrorCode,
  type LogEvent,
  MemoryError,
  RecallWarning,
} from '../../src/index.js';
import { ALICE, GUILD } from './helpers.js';

/** An in-memory store whose setup fails the way a broken deployment does (until `healed`). */
function failingStore() {
  const inner = createInMemoryStore();
  const state = { healed: false };
  const store = {
    ...inner,
    setup: async () => {
      if (!state.healed) throw new MemoryError(ErrorCode.SCHEMA_VERSION_UNSUPPORTED, 'file is newer');
      await inner.setup();
    },
  };
  return { store, state };
}

describe('a memory whose store cannot start', () => {
  it('answers reads with store_unavailable and logs why, with the code and no content', async () => {
    const events: LogEvent[] = [];
    const { store, state } = failingStore();
    const memory = createMemory(
      { storage: 'memory', llm: null, workers: { enabled: false } },
      { store, logger: (e) => events.push(e) },
    );
    const ctx = await memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'what does alice like?' });
    expect(ctx.warnings).toEqual([RecallWarning.STORE_UNAVAILABLE]);
    const failed = events.filter((e) => e.event === 'memory.start_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'error', data: { code: ErrorCode.SCHEMA_VERSION_UNSUPPORTED } });
    expect(JSON.stringify(failed[0]?.data)).not.toContain('alice');

    // The next call retries the start; once the store is fixed, nothing more is logged.
    state.healed = true;
    const ok = await memory.promptContext({ guildId: GUILD, askerId: ALICE, text: 'what does alice like?' });
    expect(ok.warnings).not.toContain(RecallWarning.STORE_UNAVAILABLE);
    expect(events.filter((e) => e.event === 'memory.start_failed')).toHaveLength(1);
    await memory.close({ drain: false });
  });
});
