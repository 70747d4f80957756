import { createInMemoryStore } from '@permafrost/core';
import {
  describeQueueConformance,
  describeStoreConformance,
  describeVectorConformance,
} from '@permafrost/store-conformance';

const options = { name: 'in-memory', create: async () => createInMemoryStore() };

describeStoreConformance(options);
describeQueueConformance(options);
describeVectorConformance(options);
