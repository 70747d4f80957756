import type { Erasure, ErasureInput } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import { date } from './rows/codec.js';

interface ErasureRow {
  readonly generation: number;
  readonly user_id: string | null;
  readonly message_id: string | null;
  readonly at: number;
}

/** The erasure log (see GovernanceStore.recordErasure); the write lock makes the counter atomic. */
export class ErasureTable {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  record(input: ErasureInput): Promise<number> {
    return this.#c.write(() => {
      const row = this.#c
        .stmt(
          `INSERT INTO erasure_generations (guild_id, generation) VALUES (?, 1)
             ON CONFLICT (guild_id) DO UPDATE SET generation = generation + 1 RETURNING generation`,
        )
        .get(input.guildId) as { generation: number };
      this.#c
        .stmt('INSERT INTO erasures (guild_id, generation, user_id, message_id, at) VALUES (?, ?, ?, ?, ?)')
        .run(input.guildId, row.generation, input.userId, input.messageId, input.at.getTime());
      return row.generation;
    });
  }

  since(guildId: string, generation: number): Promise<{ generation: number; erasures: Erasure[] }> {
    return this.#c.run(() =>
      this.#c.snapshot(() => {
        const current = this.#c
          .stmt('SELECT generation FROM erasure_generations WHERE guild_id = ?')
          .get(guildId) as { generation: number } | undefined;
        const rows = this.#c
          .stmt(
            `SELECT generation, user_id, message_id, at FROM erasures WHERE guild_id = ? AND generation > ?
               ORDER BY generation`,
          )
          .all(guildId, generation) as ErasureRow[];
        return {
          generation: current?.generation ?? 0,
          erasures: rows.map((r) => ({
            generation: r.generation,
            userId: r.user_id,
            messageId: r.message_id,
            at: date(r.at),
          })),
        };
      }),
    );
  }

  prune(before: Date): Promise<number> {
    return this.#c.write(
      () => this.#c.stmt('DELETE FROM erasures WHERE at < ?').run(before.getTime()).changes,
    );
  }
}
