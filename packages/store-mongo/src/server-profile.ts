/**
 * How reads of several documents are sent: `mongodb` as one `$in` / `$or` query each; `ferretdb` as
 * concurrent point reads and one equality query per alternative, the only filters FerretDB v1
 * serves from an index (it answers `$in` and `$or` by decoding the whole collection).
 */
export type QueryPlan = 'mongodb' | 'ferretdb';

/** What setup learned about the server (see mongo-probe.ts). */
export interface ServerProfile {
  /** The server says it is FerretDB. */
  readonly ferret: boolean;
  /** The plan the store runs: `ferretdb` on FerretDB, `mongodb` elsewhere, unless the `queryPlan` option says. */
  readonly queryPlan: QueryPlan;
  /** Multi-document transactions commit and abort (replica set or sharded cluster). */
  readonly transactions: boolean;
  /** `$vectorSearch` is a known aggregation stage (Atlas / mongot). */
  readonly vectorSearch: boolean;
}

export const UNPROBED: ServerProfile = {
  ferret: false,
  queryPlan: 'mongodb',
  transactions: false,
  vectorSearch: false,
};
