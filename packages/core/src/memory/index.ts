export type { AdminApi, UserExport } from './admin-api.js';
export type { CommandClassification } from './classify-command.js';
export type * from './facade-types.js';
export type { FactsApi, RememberInput } from './facts-api.js';
export type { ForgetApi, ForgetMessageInput, ForgetMessageReport } from './forget-api.js';
export { createMemory, Memory } from './memory.js';
export type { ObserveReceipt } from './observe.js';
export type { ComponentHealth, HealthReport, OpsApi, OpsMetrics } from './ops-api.js';
export type { MemoryOverrides } from './overrides.js';
