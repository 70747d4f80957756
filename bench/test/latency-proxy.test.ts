import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type LatencyProxy, startLatencyProxy } from '../src/harness/latency-proxy.js';

/** A TCP echo server on loopback. */
async function echoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', (d) => s.write(d));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends `messages` one after the other, each after the previous echo; returns the echoes. */
async function pingPong(port: number, messages: readonly string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const out: string[] = [];
  for (const m of messages) {
    const echoed = new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
    socket.write(m);
    out.push(await echoed);
  }
  socket.destroy();
  return out;
}

describe('latency proxy (bench harness)', () => {
  let proxy: LatencyProxy | undefined;
  let echo: Awaited<ReturnType<typeof echoServer>> | undefined;
  afterEach(async () => {
    await proxy?.close();
    await echo?.close();
  });

  it('forwards bytes unchanged, each exchange delayed by at least the round trip', async () => {
    echo = await echoServer();
    proxy = await startLatencyProxy(`mongodb://127.0.0.1:${echo.port}/db?x=1`, 40);
    const url = new URL(proxy.url);
    expect(url.pathname).toBe('/db');
    expect(url.search).toBe('?x=1');
    expect(url.port).not.toBe(String(echo.port));
    const t0 = performance.now();
    const replies = await pingPong(Number(url.port), ['one', 'two', 'three']);
    const elapsed = performance.now() - t0;
    expect(replies).toEqual(['one', 'two', 'three']);
    // Three sequential exchanges through 40 ms each way: never less than 3 × 80 ms.
    expect(elapsed).toBeGreaterThanOrEqual(3 * 80 - 1);
  });
});
