/**
 * Tolerant extraction of one JSON object from model output: code fences, prose around the
 * object, and truncation (unclosed strings, arrays, objects) are handled. Returns undefined when
 * nothing usable is found.
 */
export function parseJsonObject(raw: string): unknown {
  const text = stripFences(raw).trim();
  const direct = tryParse(text);
  if (isObject(direct)) return direct;
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end > start) {
      const candidate = tryParse(text.slice(start, end + 1));
      if (isObject(candidate)) return candidate;
    } else {
      const repaired = tryParse(repairTruncated(text.slice(start)));
      if (isObject(repaired)) return repaired;
      break;
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function stripFences(s: string): string {
  const fence = /```(?:json|JSON)?\s*([\s\S]*?)```/.exec(s);
  if (fence?.[1]) return fence[1];
  return s.replace(/^```(?:json|JSON)?/, '');
}

/** Index of the brace closing the object that starts at `start`, or -1 when it never closes. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Closes an open string, drops a dangling key or comma, then closes open brackets in order. */
function repairTruncated(s: string): string {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const c of s) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') stack.pop();
  }
  let out = s;
  if (escaped) out = out.slice(0, -1);
  if (inString) out += '"';
  out = out
    .replace(/,\s*$/, '')
    .replace(/,\s*"[^"]*"\s*:?\s*$/, '')
    .replace(/:\s*$/, ': null');
  while (stack.length > 0) out += stack.pop();
  return out;
}
