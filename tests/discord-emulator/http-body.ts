import type { IncomingMessage } from 'node:http';
import { invalidBody } from './http-errors.js';
import type { RecordedFile } from './types.js';

export interface ParsedBody {
  body: unknown;
  files: RecordedFile[];
}

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Parses JSON and multipart/form-data bodies the way Discord does: for multipart, the JSON
 * payload is the `payload_json` field and every file part is recorded (discord.js names them
 * `files[n]`).
 */
export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<ParsedBody> {
  if (raw.length === 0) return { body: undefined, files: [] };
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return parseMultipart(raw, contentType ?? '');
  try {
    return { body: JSON.parse(raw.toString('utf8')), files: [] };
  } catch {
    throw invalidBody('The request body contains invalid JSON.');
  }
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  // The WHATWG Response in Node's undici implements a spec-compliant multipart parser.
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': contentType },
  }).formData();
  const files: RecordedFile[] = [];
  let body: unknown;
  const plain: Record<string, string> = {};
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') body = JSON.parse(value);
      else plain[field] = value;
      continue;
    }
    files.push({
      field,
      name: value.name,
      contentType: value.type || 'application/octet-stream',
      data: Buffer.from(await value.arrayBuffer()),
    });
  }
  if (body === undefined && Object.keys(plain).length > 0) body = plain;
  return { body, files };
}
