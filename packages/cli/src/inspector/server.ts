import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Memory } from '@permafrost/core';
import { hostAllowed, segments, send, sendText } from './http-util.js';
import { route } from './routes.js';

export interface InspectorOptions {
  readonly memory: Memory;
  /** Guild ids of the database. */
  readonly listGuilds: () => Promise<string[]>;
  /** Enables purge / forget / opt-out (POST with this token); null or absent: read-only. */
  readonly adminToken?: string | null;
  /** Port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
  /** The bot's Prometheus endpoint (a loopback URL) for the model-usage charts. */
  readonly metricsUrl?: URL | null;
}

export interface Inspector {
  readonly url: string;
  close(): Promise<void>;
}

const STATIC_DIR = new URL('../../static/', import.meta.url);
const ASSETS: Readonly<Record<string, string>> = {
  'inspector.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};

/** The web inspector on 127.0.0.1 only: static assets shipped in the package, pages rendered here. */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const assets = new Map(
    Object.entries(ASSETS).map(([name, type]) => [
      name,
      { type, body: readFileSync(new URL(name, STATIC_DIR)) },
    ]),
  );
  let port = 0;
  const ctx = {
    memory: options.memory,
    listGuilds: options.listGuilds,
    adminToken: options.adminToken ?? null,
    port: () => port,
    metricsUrl: options.metricsUrl ?? null,
  };
  const server = createServer((req, res) => {
    if (!hostAllowed(req, port)) return sendText(res, 403, 'unexpected Host header');
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const parts = segments(pathname);
    if (!parts) return sendText(res, 400, 'bad path');
    if (parts[0] === 'static' && parts.length === 2) {
      const asset = assets.get(parts[1] as string);
      return asset ? send(res, 200, asset.type, asset.body) : sendText(res, 404, 'not found');
    }
    if (parts[0] === 'favicon.ico') return sendText(res, 404, 'not found');
    route(ctx, req, res, parts).catch(() => {
      if (!res.headersSent) sendText(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
