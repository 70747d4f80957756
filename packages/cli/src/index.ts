export { main } from './cli.js';
export { ExitCode } from './exit-codes.js';
