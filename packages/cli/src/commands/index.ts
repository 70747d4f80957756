import { exportCommand, importCommand, inspectCommand, statsCommand } from './data.js';
import { demoCommand } from './demo.js';
import { optoutCommand, purgeCommand, reindexCommand, retryDeadCommand } from './governance.js';
import type { Command } from './types.js';
import { runPendingCommand } from './worker.js';

export const COMMANDS: readonly Command[] = [
  demoCommand,
  inspectCommand,
  statsCommand,
  exportCommand,
  importCommand,
  purgeCommand,
  optoutCommand,
  runPendingCommand,
  retryDeadCommand,
  reindexCommand,
];
