import { ErrorCode } from '@permafrost/core';
import { describe, expect, it } from 'vitest';
import { openError } from '../src/open-file.js';

// The error the `bindings` loader inside better-sqlite3 throws when build/Release/better_sqlite3.node
// is missing because the package's install script was blocked. (The real case, a tarball install
// with the driver removed, runs in scripts/smoke-packages.mjs.)
const bindingsMissing = () =>
  new Error(
    'Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node\n → /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
  );

describe('a better-sqlite3 whose native driver was never built', () => {
  it('fails with STORE_UNAVAILABLE naming the path and how to approve and rebuild the driver', () => {
    const error = openError('/srv/bot/memory.db', bindingsMissing());
    expect(error.code).toBe(ErrorCode.STORE_UNAVAILABLE);
    expect(error.message).toContain('/srv/bot/memory.db');
    expect(error.message).toContain('native driver is not built');
    expect(error.message).toContain('npm pkg set allowScripts.better-sqlite3=true --json');
    expect(error.message).toContain('pnpm approve-builds');
    expect(error.message).toContain('rebuild better-sqlite3');
  });

  it('names a driver built for another Node version', () => {
    const error = openError(
      '/srv/bot/memory.db',
      Object.assign(
        new Error('was compiled against a different Node.js version using NODE_MODULE_VERSION 115'),
        {
          code: 'ERR_DLOPEN_FAILED',
        },
      ),
    );
    expect(error.message).toContain('built for another version');
  });

  it('adds no driver hint to other open failures', () => {
    const error = openError(
      '/srv/bot/memory.db',
      Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' }),
    );
    expect(error.message).not.toContain('native driver');
  });
});
