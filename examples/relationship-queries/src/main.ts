import { createDemoMemory, relationshipTour, seedGuild } from './index.js';

const memory = createDemoMemory();
await seedGuild(memory);
for (const line of await relationshipTour(memory)) console.log(line);
await memory.close();
