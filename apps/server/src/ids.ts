import { randomBytes } from "node:crypto";
import { ID_PREFIXES, type IdKind } from "@agent-platform/contract";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes are drawn from the CSPRNG a pool at a time: one call per 256 ids instead of one per id.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function encodeRandom(length: number): string {
  if (offset + length > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[pool[offset + i]! & 31];
  offset += length;
  return out;
}

/** `<prefix>_<10 chars of time><16 random chars>`: sorts by creation time, like a ULID. */
export function newId(kind: IdKind, now = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(now)}${encodeRandom(16)}`;
}
