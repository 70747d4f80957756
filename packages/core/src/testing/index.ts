export { createFakeEmbedder, type FakeEmbedder, type FakeEmbedderOptions } from './fake-embedder.js';
export { FixedClock, sequentialIds } from './fixed-clock.js';
