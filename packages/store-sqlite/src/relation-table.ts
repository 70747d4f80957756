import type { NodeRef, Relation } from '@permafrost/core';
import type { RelationRef } from '@permafrost/core/store';
import type { SqliteConnection } from './connection.js';
import type { RelationRow } from './rows/graph-rows.js';

/** `relations` rows by natural key (src, dst, verb, validFrom). */
const BY_REF =
  'guild_id = ? AND src_type = ? AND src_id = ? AND dst_type = ? AND dst_id = ? AND verb = ? AND valid_from = ?';
const refParams = (guildId: string, r: RelationRef) =>
  [guildId, r.srcType, r.srcId, r.dstType, r.dstId, r.verb, r.validFrom.getTime()] as const;

/** Relation row reads and writes shared by the graph store, purge and import. Synchronous. */
export class RelationTable {
  readonly #c: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.#c = connection;
  }

  /** The active relation (src, dst, verb) of a guild, if any. */
  active(guildId: string, src: NodeRef, dst: NodeRef, verb: string): RelationRow | undefined {
    return this.#c
      .stmt(
        `SELECT * FROM relations WHERE guild_id = ? AND src_type = ? AND src_id = ? AND dst_type = ?
           AND dst_id = ? AND verb = ? AND valid_until IS NULL`,
      )
      .get(guildId, src.type, src.id, dst.type, dst.id, verb) as RelationRow | undefined;
  }

  /** Inserts a relation as given; a second active (src, dst, verb) violates `relations_active`. */
  insert(r: Relation): void {
    this.#c
      .stmt(
        `INSERT INTO relations (guild_id, src_type, src_id, dst_type, dst_id, verb, polarity, weight,
           occurrences, confidence, evidence, valid_from, valid_until, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.guildId,
        r.srcType,
        r.srcId,
        r.dstType,
        r.dstId,
        r.verb,
        r.polarity,
        r.weight,
        r.occurrences,
        r.confidence,
        JSON.stringify(r.evidenceFactIds),
        r.validFrom.getTime(),
        r.validUntil === null ? null : r.validUntil.getTime(),
        r.updatedAt.getTime(),
      );
  }

  /** Deletes the guild's relation with this natural key (src, dst, verb, validFrom), if any. */
  remove(guildId: string, r: RelationRef): void {
    this.#c.stmt(`DELETE FROM relations WHERE ${BY_REF}`).run(...refParams(guildId, r));
  }

  /** Replaces the evidence list of the guild's relation with this natural key, if any. */
  setEvidence(guildId: string, r: RelationRef, evidenceFactIds: readonly string[]): void {
    this.#c
      .stmt(`UPDATE relations SET evidence = ? WHERE ${BY_REF}`)
      .run(JSON.stringify(evidenceFactIds), ...refParams(guildId, r));
  }
}
