import { createDeflate, type Deflate, constants as zlibConstants } from 'node:zlib';
import { WebSocket } from 'ws';
import type { GatewayPayload } from './gateway-protocol.js';

/**
 * One WebSocket connection. Frames are JSON text, or, when the client asked for
 * `compress=zlib-stream`, binary chunks of one shared zlib context each ending with a
 * Z_SYNC_FLUSH marker (0x00 0x00 0xff 0xff), exactly like Discord.
 */
export class GatewayConnection {
  readonly socket: WebSocket;
  /** Request path + query the client connected with (e.g. "/gateway?v=10&encoding=json"). */
  readonly url: string;
  readonly compressed: boolean;
  readonly #deflate: Deflate | undefined;
  #pending: Buffer[] = [];
  #chain: Promise<void> = Promise.resolve();

  constructor(socket: WebSocket, url: string, compress: boolean) {
    this.socket = socket;
    this.url = url;
    this.compressed = compress;
    if (compress) {
      const deflate = createDeflate({ chunkSize: 65_535 });
      deflate.on('data', (chunk: Buffer) => this.#pending.push(chunk));
      this.#deflate = deflate;
    }
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send(payload: GatewayPayload): void {
    const text = JSON.stringify(payload);
    const deflate = this.#deflate;
    if (!deflate) {
      if (this.open) this.socket.send(text);
      return;
    }
    this.#chain = this.#chain.then(
      () =>
        new Promise<void>((resolve) => {
          deflate.write(text);
          deflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
            const frame = Buffer.concat(this.#pending);
            this.#pending = [];
            if (this.open) this.socket.send(frame);
            resolve();
          });
        }),
    );
  }

  /** Closes after already queued frames went out. */
  close(code: number, reason = ''): void {
    void this.#chain.then(() => {
      if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
        this.socket.close(code, reason);
      }
      this.#deflate?.destroy();
    });
  }

  /** Sends a close frame and waits (bounded) for the peer's answer, then drops the socket. */
  async closeAndWait(code: number, reason: string, timeoutMs: number): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN) {
      const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
      this.socket.close(code, reason);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    }
    this.terminate();
  }

  terminate(): void {
    this.socket.terminate();
    this.#deflate?.destroy();
  }
}
