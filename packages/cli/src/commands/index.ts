import { backupCommand, restoreCommand } from './backup.js';
import { exportCommand, importCommand, inspectCommand, statsCommand } from './data.js';
import { demoCommand } from './demo.js';
import { doctorCommand } from './doctor.js';
import { optoutCommand, purgeCommand, reindexCommand, retryDeadCommand } from './governance.js';
import { mcpCommand } from './mcp.js';
import { graphCommand, searchCommand } from './query.js';
import type { Command } from './types.js';
import { runPendingCommand } from './worker.js';

export const COMMANDS: readonly Command[] = [
  demoCommand,
  inspectCommand,
  searchCommand,
  graphCommand,
  statsCommand,
  exportCommand,
  importCommand,
  backupCommand,
  restoreCommand,
  purgeCommand,
  optoutCommand,
  runPendingCommand,
  retryDeadCommand,
  reindexCommand,
  doctorCommand,
  mcpCommand,
];
