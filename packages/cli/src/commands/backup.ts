import { resolve } from 'node:path';
import type { BackupManifest } from '@permafrost/core';
import { restoreSqliteBackup } from '@permafrost/store-sqlite';
import { openMemory, required, str } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Output } from '../output.js';
import type { Command } from './types.js';

function printManifest(out: Output, json: boolean, manifest: BackupManifest): void {
  if (json) {
    out.json(manifest);
    return;
  }
  out.line(`${manifest.path}`);
  out.line(`  sha256         ${manifest.sha256}`);
  out.line(`  bytes          ${manifest.bytes}`);
  out.line(`  schema version ${manifest.schemaVersion}`);
  out.table(Object.entries(manifest.counts).map(([table, rows]) => ({ table, rows })));
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'copy a SQLite memory to a new file while bots keep running, verified, with a manifest',
  usage: '--db <path> --out <new file>',
  options: { out: { type: 'string' } },
  async run(ctx) {
    const memory = openMemory(ctx);
    try {
      const manifest = await memory.admin.backup({ path: resolve(ctx.cwd, required(ctx, 'out')) });
      printManifest(ctx.out, ctx.values['json'] === true, manifest);
      return ExitCode.OK;
    } finally {
      await memory.close({ drain: false });
    }
  },
};

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'restore a backup into a NEW SQLite file (never over an existing or live database)',
  usage: '--from <backup file> --to <new file> [--sha256 <hex from the manifest>]',
  options: { from: { type: 'string' }, to: { type: 'string' }, sha256: { type: 'string' } },
  async run(ctx) {
    const sha256 = str(ctx, 'sha256');
    const manifest = restoreSqliteBackup({
      from: resolve(ctx.cwd, required(ctx, 'from')),
      to: resolve(ctx.cwd, required(ctx, 'to')),
      ...(sha256 !== undefined ? { expectedSha256: sha256 } : {}),
    });
    printManifest(ctx.out, ctx.values['json'] === true, manifest);
    return ExitCode.OK;
  },
};
