import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RoundTripClock, startRoundTripClock } from '../src/harness/round-trip-clock.js';

const OP_MSG = 2013;

/** An OP_MSG frame whose body is `{ <command>: <delay ms> }`. */
function frame(requestId: number, responseTo: number, command: string, value: number): Buffer {
  const key = Buffer.from(`${command}\0`, 'utf8');
  const doc = Buffer.alloc(4 + 1 + key.length + 4 + 1);
  doc.writeInt32LE(doc.length, 0);
  doc.writeUInt8(0x10, 4); // int32
  key.copy(doc, 5);
  doc.writeInt32LE(value, 5 + key.length);
  const header = Buffer.alloc(21);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeInt32LE(0, 16); // flag bits
  header.writeUInt8(0, 20); // section kind 0: the body
  return Buffer.concat([header, doc]);
}

/** A wire-protocol server answering each request after the delay its body names. */
async function slowServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', (d) => {
      const requestId = d.readInt32LE(4);
      const delay = d.readInt32LE(d.length - 5);
      setTimeout(() => s.write(frame(1_000_000 + requestId, requestId, 'ok', 1)), delay);
    });
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

let nextId = 1;

/** A client connection that sends one request at a time and resolves with the reply's `responseTo`. */
async function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    ask(command: string, serverMs: number): Promise<number> {
      const id = nextId++;
      const answered = new Promise<number>((resolve) =>
        socket.once('data', (d) => resolve(d.readInt32LE(8))),
      );
      socket.write(frame(id, 0, command, serverMs));
      return answered.then((to) => {
        expect(to).toBe(id);
        return to;
      });
    },
    close: () => socket.destroy(),
  };
}

describe('round-trip clock (bench harness)', () => {
  let clock: RoundTripClock | undefined;
  let server: Awaited<ReturnType<typeof slowServer>> | undefined;
  afterEach(async () => {
    await clock?.close();
    await server?.close();
  });

  async function setup() {
    server = await slowServer();
    clock = await startRoundTripClock(`mongodb://127.0.0.1:${server.port}/db?x=1`);
    const url = new URL(clock.url);
    expect(url.pathname).toBe('/db');
    expect(url.search).toBe('?x=1');
    return { clock, port: Number(url.port) };
  }

  it('counts the longest chain of requests, however long the server takes on each', async () => {
    const { clock, port } = await setup();
    const [a, b, c, d] = [
      await connection(port),
      await connection(port),
      await connection(port),
      await connection(port),
    ];
    clock.begin();
    await Promise.all([
      // One slow request alone on its path.
      a.ask('find', 150),
      // Three fast requests, each sent after the previous answer.
      (async () => {
        await b.ask('find', 2);
        await b.ask('find', 2);
        await b.ask('find', 2);
      })(),
      // Two requests sent together, then one more.
      (async () => {
        await Promise.all([c.ask('find', 40), d.ask('find', 1)]);
        await c.ask('find', 1);
      })(),
    ]);
    const count = clock.end();
    // Ordering commands by when they answered would put the slow request's path first and count
    // more; with equal latency per round trip the critical path is the three-request chain.
    expect(count.roundTrips).toBe(3);
    expect(count.byRoundTrip.map((w) => w.length)).toEqual([4, 2, 1]);
    for (const x of [a, b, c, d]) x.close();
  });

  it('counts requests sent together as one round trip, and passes handshakes and idle traffic through', async () => {
    const { clock, port } = await setup();
    const a = await connection(port);
    const b = await connection(port);
    // Not counting: replies are not held.
    await a.ask('find', 1);
    clock.begin();
    await Promise.all([a.ask('find', 30), b.ask('find', 5)]);
    // A handshake is answered at once even while counting, and adds no round trip.
    await a.ask('hello', 1);
    const count = clock.end();
    expect(count).toEqual({ requests: 2, roundTrips: 1, byRoundTrip: [['find', 'find']] });
    a.close();
    b.close();
  });
});
