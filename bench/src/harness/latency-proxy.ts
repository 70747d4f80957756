/**
 * A loopback TCP proxy that delays every chunk by `oneWayMs` in each direction (order kept per
 * connection): a MongoDB server "far away" on this machine. The extra latency of an operation
 * through it, divided by the round-trip time, is the number of round trips on its critical path
 * as a client far from its server pays them; commands sent concurrently overlap, as they would.
 */
import net from 'node:net';

export interface LatencyProxy {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  close(): Promise<void>;
}

function delayed(from: net.Socket, to: net.Socket, oneWayMs: number): void {
  let last = 0;
  from.on('data', (chunk) => {
    const due = Math.max(Date.now() + oneWayMs, last);
    last = due;
    setTimeout(() => to.write(chunk), due - Date.now());
  });
  from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now())));
  from.on('error', () => to.destroy());
  from.on('close', () => setTimeout(() => to.destroy(), Math.max(0, last - Date.now()) + 1));
}

/** Starts a proxy in front of the single host of a `mongodb://` url. */
export async function startLatencyProxy(url: string, oneWayMs: number): Promise<LatencyProxy> {
  const target = new URL(url);
  const host = target.hostname;
  const port = Number(target.port || 27017);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    delayed(client, upstream, oneWayMs);
    delayed(upstream, client, oneWayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(address.port);
  return {
    url: proxied.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
