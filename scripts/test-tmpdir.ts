import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: the whole run writes its temporary files (SQLite files, backups, scratch
 * apps, browser profiles) under one folder of its own, removed when the run ends. Tests that make
 * their own `mkdtemp` folders under `os.tmpdir()` no longer leave them behind in the machine's
 * temp folder. The test workers are forked after this runs, so they inherit TMPDIR.
 */
export default function setup(): () => void {
  const previous = process.env['TMPDIR'];
  const dir = mkdtempSync(join(tmpdir(), 'permafrost-test-'));
  // As open as the temp folder it stands for: tests run children as an unprivileged user there.
  chmodSync(dir, 0o1777);
  process.env['TMPDIR'] = dir;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
