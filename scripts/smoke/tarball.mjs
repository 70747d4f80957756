// Reads the file list and package.json of an npm tarball (.tgz) without a `tar` binary.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

function field(block, start, length) {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** Every regular file in the tarball: path (as stored, e.g. `package/dist/index.js`) → contents. */
export function readTarball(file) {
  const data = gunzipSync(readFileSync(file));
  const files = new Map();
  let offset = 0;
  let paxPath = null;
  while (offset + 512 <= data.length) {
    const header = data.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const prefix = field(header, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const body = data.subarray(offset + 512, offset + 512 + size);
    paxPath = null;
    if (type === 'x') {
      const match = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      paxPath = match?.[1] ?? null;
    } else if (type === '0' || type === '\0') {
      files.set(name, body);
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
