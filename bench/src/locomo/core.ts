// The one place the harness imports the library from. Recall quality goes through the public API
// (createMemory); only the reference baselines (plain and stemmed BM25) use core's analyzer.
export * from '@permafrost/core';
export { indexTerms } from '@permafrost/core/internal';
