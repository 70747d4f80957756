import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { GatewayConnection } from './gateway-connection.js';
import { parseFrame, readyPayload } from './gateway-frames.js';
import { answerMemberRequest } from './gateway-members.js';
import {
  GatewayCloseCode,
  GatewayIntents,
  GatewayOp,
  type GatewayPayload,
  type IdentifyData,
  PRIVILEGED_INTENTS,
  type RequestMembersData,
  type ResumeData,
  shardOf,
} from './gateway-protocol.js';
import { DEFAULT_LARGE_THRESHOLD, type World } from './world.js';

const MAX_REPLAY_LOG = 2_000;

export interface GatewaySession {
  readonly sessionId: string;
  readonly intents: number;
  readonly shard: readonly [number, number];
  /** IDENTIFY `large_threshold` (50–250, default 50): bigger guilds are sent without their member list. */
  readonly largeThreshold: number;
  /** IDENTIFY `properties` (os/browser/device). */
  readonly properties: Record<string, unknown>;
  readonly identifiedAt: number;
  connection: GatewayConnection | undefined;
  sequence: number;
  resumes: number;
  readonly log: GatewayPayload[];
}

/** Public, read-only view of a gateway session. */
export interface GatewaySessionInfo {
  sessionId: string;
  intents: number;
  shard: readonly [number, number];
  connected: boolean;
  /** Last sequence number dispatched to the session. */
  sequence: number;
  resumes: number;
  identifiedAt: number;
  properties: Record<string, unknown>;
  /** Path + query of the live connection (e.g. "/gateway?v=10&encoding=json"). */
  url: string | undefined;
}

export interface GatewayFrameRecord {
  sessionId: string | undefined;
  op: number;
  d: unknown;
  at: number;
}

export interface DispatchOptions {
  /** Only sessions whose shard covers this guild receive the event. */
  guildId?: string;
  /** Only sessions that identified with this intent bit receive the event. */
  intent?: number;
  /** Per-session payload rewrite (e.g. stripping content without MessageContent). */
  transform?: (data: unknown, session: GatewaySession) => unknown;
}

export interface GatewayDeps {
  world: World;
  token: string;
  heartbeatIntervalMs: number;
  /** Privileged intents enabled for the application; requesting others closes with 4014. */
  privilegedIntents: number;
  resumeUrl: () => string;
  onChange: () => void;
}

export class Gateway {
  readonly sessions = new Map<string, GatewaySession>();
  readonly received: GatewayFrameRecord[] = [];
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #connections = new Set<GatewayConnection>();
  readonly #deps: GatewayDeps;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!(req.url ?? '').startsWith('/gateway')) {
        socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req.url ?? '/gateway'));
    });
  }

  /** Sends an event to every matching identified session (buffered for resume when disconnected). */
  dispatch(event: string, data: unknown, options: DispatchOptions = {}): number {
    let delivered = 0;
    for (const session of this.sessions.values()) {
      if (options.intent !== undefined && (session.intents & options.intent) === 0) continue;
      if (options.guildId !== undefined && shardOf(options.guildId, session.shard[1]) !== session.shard[0])
        continue;
      const d = options.transform ? options.transform(data, session) : data;
      if (d === undefined) continue;
      this.#dispatchTo(session, event, d);
      delivered++;
    }
    return delivered;
  }

  /** Read-only snapshots of all sessions (connected or resumable). */
  info(): GatewaySessionInfo[] {
    return [...this.sessions.values()].map((session) => ({
      sessionId: session.sessionId,
      intents: session.intents,
      shard: session.shard,
      connected: session.connection?.open ?? false,
      sequence: session.sequence,
      resumes: session.resumes,
      identifiedAt: session.identifiedAt,
      properties: session.properties,
      url: session.connection?.url,
    }));
  }

  /** Closes live connections (default code 4000: discord.js resumes on it). */
  disconnect(code: number = GatewayCloseCode.UnknownError, sessionId?: string): void {
    for (const session of this.sessions.values()) {
      if (sessionId !== undefined && session.sessionId !== sessionId) continue;
      session.connection?.close(code, 'Disconnected by emulator');
    }
  }

  async close(): Promise<void> {
    // An unrecoverable close code (4004) stops clients that were not destroyed from reconnecting forever.
    const closing = [...this.#connections].map((c) =>
      c.closeAndWait(GatewayCloseCode.AuthenticationFailed, 'Discord emulator closed', 250),
    );
    await Promise.all(closing);
    this.#connections.clear();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket, url: string): void {
    const query = new URL(url, 'ws://localhost').searchParams;
    const connection = new GatewayConnection(ws, url, query.get('compress') === 'zlib-stream');
    this.#connections.add(connection);
    let session: GatewaySession | undefined;
    ws.on('close', (code) => {
      this.#connections.delete(connection);
      if (session?.connection === connection) {
        session.connection = undefined;
        // Discord invalidates a session the client closed normally; anything else stays resumable.
        if (code === 1000 || code === 1001) this.sessions.delete(session.sessionId);
      }
      this.#deps.onChange();
    });
    ws.on('error', () => connection.terminate());
    if (query.get('v') !== '10') {
      connection.close(GatewayCloseCode.InvalidAPIVersion, 'Invalid API version');
      return;
    }
    if ((query.get('encoding') ?? 'json') !== 'json') {
      connection.close(GatewayCloseCode.DecodeError, 'Only the json encoding is emulated');
      return;
    }
    connection.send({
      op: GatewayOp.Hello,
      d: { heartbeat_interval: this.#deps.heartbeatIntervalMs },
      s: null,
      t: null,
    });
    ws.on('message', (raw: RawData) => {
      const frame = parseFrame(raw);
      if (!frame) {
        connection.close(GatewayCloseCode.DecodeError, 'Error while decoding payload.');
        return;
      }
      this.received.push({ sessionId: session?.sessionId, op: frame.op, d: frame.d, at: Date.now() });
      const next = this.#handle(connection, session, frame);
      if (next) session = next;
      this.#deps.onChange();
    });
  }

  #handle(
    connection: GatewayConnection,
    session: GatewaySession | undefined,
    frame: { op: number; d: unknown },
  ): GatewaySession | undefined {
    const d = frame.d ?? {};
    if (frame.op === GatewayOp.Heartbeat) {
      connection.send({ op: GatewayOp.HeartbeatAck, d: null, s: null, t: null });
      return undefined;
    }
    if (frame.op === GatewayOp.Identify || frame.op === GatewayOp.Resume) {
      if (session) {
        connection.close(GatewayCloseCode.AlreadyAuthenticated, 'Already authenticated.');
        return undefined;
      }
      return frame.op === GatewayOp.Identify
        ? this.#identify(connection, d as IdentifyData)
        : this.#resume(connection, d as ResumeData);
    }
    if (!CLIENT_OPS.has(frame.op)) {
      connection.close(GatewayCloseCode.UnknownOpcode, 'Unknown opcode.');
    } else if (!session) {
      connection.close(GatewayCloseCode.NotAuthenticated, 'Not authenticated.');
    } else if (frame.op === GatewayOp.RequestGuildMembers) {
      for (const chunk of answerMemberRequest(this.#deps.world, d as RequestMembersData)) {
        this.#dispatchTo(session, 'GUILD_MEMBERS_CHUNK', chunk);
      }
    }
    return undefined;
  }

  #identify(connection: GatewayConnection, d: IdentifyData): GatewaySession | undefined {
    if (d.token !== this.#deps.token) {
      connection.close(GatewayCloseCode.AuthenticationFailed, 'Authentication failed.');
      return undefined;
    }
    const intents = d.intents;
    if (typeof intents !== 'number' || intents < 0) {
      connection.close(GatewayCloseCode.InvalidIntents, 'Invalid intent(s).');
      return undefined;
    }
    if (intents & PRIVILEGED_INTENTS & ~this.#deps.privilegedIntents) {
      connection.close(GatewayCloseCode.DisallowedIntents, 'Disallowed intent(s).');
      return undefined;
    }
    const [shardId = 0, shardCount = 1] = Array.isArray(d.shard) ? (d.shard as number[]) : [];
    if (shardCount < 1 || shardId < 0 || shardId >= shardCount) {
      connection.close(GatewayCloseCode.InvalidShard, 'Invalid shard.');
      return undefined;
    }
    const session: GatewaySession = {
      sessionId: randomBytes(16).toString('hex'),
      intents,
      shard: [shardId, shardCount],
      largeThreshold: largeThresholdOf(d.large_threshold),
      properties: d.properties ?? {},
      identifiedAt: Date.now(),
      connection,
      sequence: 0,
      resumes: 0,
      log: [],
    };
    this.sessions.set(session.sessionId, session);
    const { world } = this.#deps;
    const guildIds = [...world.guilds.keys()].filter((id) => shardOf(id, shardCount) === shardId);
    this.#dispatchTo(
      session,
      'READY',
      readyPayload(world, session.sessionId, guildIds, session.shard, this.#deps.resumeUrl()),
    );
    if (intents & GatewayIntents.Guilds) {
      for (const id of guildIds)
        this.#dispatchTo(session, 'GUILD_CREATE', world.guildCreatePayload(id, session.largeThreshold));
    }
    return session;
  }

  #resume(connection: GatewayConnection, d: ResumeData): GatewaySession | undefined {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    const seq = typeof d.seq === 'number' ? d.seq : -1;
    if (!session || d.token !== this.#deps.token || session.connection?.open || seq > session.sequence) {
      connection.send({ op: GatewayOp.InvalidSession, d: false, s: null, t: null });
      return undefined;
    }
    session.connection = connection;
    session.resumes++;
    for (const payload of session.log) if ((payload.s ?? 0) > seq) connection.send(payload);
    this.#dispatchTo(session, 'RESUMED', null);
    return session;
  }

  #dispatchTo(session: GatewaySession, event: string, d: unknown): void {
    session.sequence++;
    const payload: GatewayPayload = { op: GatewayOp.Dispatch, d, s: session.sequence, t: event };
    session.log.push(payload);
    if (session.log.length > MAX_REPLAY_LOG) session.log.shift();
    session.connection?.send(payload);
  }
}

/** Opcodes a client may send after authenticating (besides heartbeat/identify/resume). */
const CLIENT_OPS = new Set<number>([
  GatewayOp.PresenceUpdate,
  GatewayOp.VoiceStateUpdate,
  GatewayOp.RequestGuildMembers,
]);

/** 50 when absent (Discord's default); values outside Discord's accepted 50–250 are clamped. */
function largeThresholdOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return DEFAULT_LARGE_THRESHOLD;
  return Math.min(250, Math.max(DEFAULT_LARGE_THRESHOLD, Math.trunc(value)));
}
