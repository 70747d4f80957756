/**
 * Round trips as a client far from its server pays them, counted without depending on how fast
 * the server is: a loopback proxy in front of one MongoDB host that, while it counts, holds the
 * server's replies and releases all of them at once when every request sent so far has been
 * answered and the client has sent nothing for `quietMs` (it is waiting for a reply). Each
 * release is one round trip: requests sent together share it, a request that needed a reply
 * waits for the next one. This is equal latency per round trip with server time taken out, so a
 * slow query on one path does not reorder the others (as it does when commands are ordered by
 * when they happened to answer). Run it in the client's process: the client's own work between
 * two requests keeps the proxy's timer from firing, so it never splits a burst.
 *
 * Handshakes and heartbeats (`hello`, `isMaster`, legacy OP_QUERY) pass through uncounted, but
 * a new connection, a handshake and its answer count as the client being busy: a command that
 * waits for its connection to open is not split from the commands sent with it.
 */
import net from 'node:net';

const OP_MSG = 2013;
const UNCOUNTED = new Set(['hello', 'ismaster', 'isMaster']);

export interface RoundTripCount {
  /** Requests sent while counting (commands, getMores included; not handshakes). */
  readonly requests: number;
  /** Releases: the operation's critical path in round trips. */
  readonly roundTrips: number;
  /** The requests sent in each round trip (`command collection`), in order. */
  readonly byRoundTrip: readonly (readonly string[])[];
}

export interface RoundTripClock {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  /** Whether an operation is being counted. */
  readonly active: boolean;
  /** Starts counting (forgets the previous operation). */
  begin(): void;
  /** Stops counting, lets anything still held through, and returns the count since `begin`. */
  end(): RoundTripCount;
  close(): Promise<void>;
}

/** The command name of an OP_MSG request (its body's first key), or null for other messages. */
function commandName(frame: Buffer): string | null {
  if (frame.length < 27 || frame.readInt32LE(12) !== OP_MSG || frame[20] !== 0) return null;
  const end = frame.indexOf(0, 26);
  return end < 0 ? null : frame.toString('utf8', 26, end);
}

/** `command collection` when the command's value is a string (`find facts`), else the command. */
function describe(frame: Buffer, name: string): string {
  const at = 26 + Buffer.byteLength(name) + 1;
  if (frame[25] !== 0x02 || frame.length < at + 4) return name;
  const size = frame.readInt32LE(at);
  return size > 1 && at + 4 + size <= frame.length
    ? `${name} ${frame.toString('utf8', at + 4, at + 4 + size - 1)}`
    : name;
}

/** Splits a byte stream into wire-protocol messages (each prefixed by its int32 length). */
function framer(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const size = buffered.readInt32LE(0);
      if (buffered.length < size) break;
      onFrame(buffered.subarray(0, size));
      buffered = buffered.subarray(size);
    }
  };
}

interface Link {
  readonly client: net.Socket;
  /** Replies held until the next release, in arrival order. */
  held: Buffer[];
}

/** Starts a counting proxy in front of the single host of a `mongodb://` url. */
export async function startRoundTripClock(url: string, quietMs = 10): Promise<RoundTripClock> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const links = new Set<Link>();
  let counting = false;
  /** Request ids sent while counting and not yet answered by the server. */
  const outstanding = new Set<number>();
  let lastRequestAt = 0;
  let requests = 0;
  let releases = 0;
  let waves: string[][] = [];
  let timer: NodeJS.Timeout | null = null;

  const release = () => {
    let any = false;
    for (const link of links) {
      if (link.held.length === 0) continue;
      any = true;
      for (const frame of link.held) link.client.write(frame);
      link.held = [];
    }
    if (any) releases++;
  };
  const tick = () => {
    if (!counting || outstanding.size > 0) return;
    if (performance.now() - lastRequestAt >= quietMs) release();
  };

  const busy = () => {
    lastRequestAt = performance.now();
  };
  const server = net.createServer((client) => {
    busy();
    const upstream = net.connect(Number(target.port || 27017), target.hostname);
    const link: Link = { client, held: [] };
    links.add(link);
    const counted = new Set<number>();
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('close', () => links.delete(link));
    client.on(
      'data',
      framer((frame) => {
        const name = commandName(frame);
        busy();
        if (counting && name !== null && !UNCOUNTED.has(name)) {
          const id = frame.readInt32LE(4);
          counted.add(id);
          outstanding.add(id);
          requests++;
          const wave = waves[releases] ?? [];
          waves[releases] = wave;
          wave.push(describe(frame, name));
        }
        upstream.write(frame);
      }),
    );
    upstream.on(
      'data',
      framer((frame) => {
        const answers = frame.readInt32LE(8);
        if (counted.delete(answers) && counting) {
          outstanding.delete(answers);
          link.held.push(Buffer.from(frame));
        } else if (link.held.length > 0) link.held.push(Buffer.from(frame));
        else {
          // An answer the client gets now (a handshake's) lets it send what it was waiting to send.
          busy();
          client.write(frame);
        }
      }),
    );
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);

  return {
    url: proxied.toString(),
    get active() {
      return counting;
    },
    begin() {
      counting = true;
      requests = 0;
      releases = 0;
      waves = [];
      outstanding.clear();
      lastRequestAt = performance.now();
      timer ??= setInterval(tick, 1);
    },
    end() {
      counting = false;
      if (timer) clearInterval(timer);
      timer = null;
      const count = { requests, roundTrips: releases, byRoundTrip: waves };
      // Replies of reads the operation did not wait for are not held past its end.
      release();
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (timer) clearInterval(timer);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
