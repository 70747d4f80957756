/** What setup learned about the server (see mongo-probe.ts). */
export interface ServerProfile {
  /** The server says it is FerretDB (turns on point reads instead of `$in`, which it scans). */
  readonly ferret: boolean;
  /** Multi-document transactions commit and abort (replica set or sharded cluster). */
  readonly transactions: boolean;
  /** `$vectorSearch` is a known aggregation stage (Atlas / mongot). */
  readonly vectorSearch: boolean;
}

export const UNPROBED: ServerProfile = { ferret: false, transactions: false, vectorSearch: false };
