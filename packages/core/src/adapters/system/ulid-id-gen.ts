import { randomBytes } from 'node:crypto';
import type { Clock, IdGen } from '../../ports/clock.js';
import { systemClock } from './system-clock.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/**
 * Monotonic ULIDs: 48-bit millisecond time + 80 random bits; ids made in the same millisecond
 * increment the random part so they stay strictly ordered. Ids are `<prefix>_<ulid>`.
 */
export function createUlidIdGen(clock: Clock = systemClock): IdGen {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return {
    next(prefix: string): string {
      const now = clock.now().getTime();
      let random: number[];
      if (now <= lastTime) {
        random = [...lastRandom];
        for (let i = random.length - 1; i >= 0; i--) {
          const digit = (random[i] as number) + 1;
          if (digit < 32) {
            random[i] = digit;
            break;
          }
          random[i] = 0;
        }
      } else {
        const bytes = randomBytes(16);
        random = [...bytes].map((b) => b & 31);
        lastTime = now;
      }
      lastRandom = random;
      const body = encodeTime(Math.max(now, lastTime)) + random.map((d) => ALPHABET[d]).join('');
      return `${prefix}_${body}`;
    },
  };
}
