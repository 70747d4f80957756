import '@permafrost/store-sqlite';
import '@permafrost/store-mongo';
import { renderChecks, runSimulation } from './simulation.js';

const storage = process.argv[2] ?? 'memory';
const result = await runSimulation({ storage });
console.log(renderChecks(result));
process.exitCode = result.checks.every((c) => c.ok) ? 0 : 1;
