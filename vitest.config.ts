import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@permafrost/source', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['@permafrost/source', 'module', 'node', 'default'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'tests/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    setupFiles: ['./scripts/fail-on-console.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
