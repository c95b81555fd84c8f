import type { GuardrailCheck } from "@agent-platform/contract";
import { type CheckVerdict, type Finding, matchesOf, withoutOverlaps } from "../findings.js";

type SecretsCheck = Extract<GuardrailCheck, { type: "secrets" }>;

/**
 * Credential shapes whose prefix or structure identifies them (the providers publish these formats so that scanners
 * can find leaked keys). Each is a `kind` of its own in decisions.
 */
const SHAPES: readonly { kind: string; pattern: RegExp }[] = [
  {
    kind: "private_key",
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: "api_key", pattern: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}/g },
  { kind: "api_key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "api_key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: "api_key", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { kind: "api_key", pattern: /\bgithub_pat_[A-Za-z0-9_]{60,}\b/g },
  { kind: "api_key", pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: "api_key", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "api_key", pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}\b/g },
  { kind: "api_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "api_key", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "api_key", pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { kind: "api_key", pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: "webhook_url", pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { kind: "connection_string", pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]{3,}@[^\s/]+/g },
];

/** `password = "…"`, `api_key: …`: the value of an assignment to a secret-sounding name. */
const ASSIGNMENT =
  /\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|password|passwd|client[_-]?secret)["']?\s*[:=]\s*["']?([^\s"',;]{8,})/gi;

/** Candidate tokens for the entropy test: long runs of key alphabet characters (base64 padding at the end). */
const TOKEN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const DIGEST_LABEL = /(?:sha-?\d*|md5|digest|hash|commit|checksum)\s*[:=]?\s*$/i;

/**
 * Secrets in a text: credentials of known shapes, private keys, JSON Web Tokens, connection strings with a password,
 * values assigned to secret-sounding names, and (unless `entropy: false`) long tokens that look random. The entropy
 * test: at least 24 characters mixing digits with upper- and lower-case letters, with Shannon entropy of 4.2 bits per
 * character or more (hex strings, at most 4 bits per character, need 48 characters and 3.7 bits, and are skipped when
 * labelled as a digest), which leaves words, paths and ordinary identifiers alone but also lets short or low-entropy
 * secrets through (docs/guardrails.md has the measured figures).
 */
export function checkSecrets(check: SecretsCheck, text: string): CheckVerdict {
  const found: Finding[] = [];
  for (const shape of SHAPES) {
    for (const m of matchesOf(shape.pattern, text)) found.push({ start: m.start, end: m.end, kind: shape.kind });
  }
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m !== null; m = ASSIGNMENT.exec(text)) {
    const value = m[1]!;
    const start = m.index + m[0].length - value.length;
    if (!/^(?:\$\{?[A-Z_]+\}?|<[^>]*>|\*+|x+|\.{3,}|null|none|true|false|undefined|changeme)$/i.test(value)) {
      found.push({ start, end: start + value.length, kind: "credential" });
    }
  }
  if (check.entropy !== false) {
    for (const m of matchesOf(TOKEN, text)) {
      // A digest named as such (`sha256:…`, `commit …`) is not a secret.
      if (DIGEST_LABEL.test(text.slice(Math.max(0, m.start - 12), m.start))) continue;
      if (looksRandom(m.value)) found.push({ start: m.start, end: m.end, kind: "high_entropy" });
    }
  }
  const spans = withoutOverlaps(found);
  return { triggered: spans.length > 0, spans };
}

function looksRandom(token: string): boolean {
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  if (/^[0-9a-fA-F]+$/.test(token)) return token.length >= 48 && shannonEntropy(token) >= 3.7;
  // Generated keys mix cases; single-case runs are mostly identifiers (ULIDs, base32 ids, slugs).
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token)) return false;
  return shannonEntropy(token) >= 4.2;
}

/** Bits per character of the token's own character distribution. */
export function shannonEntropy(token: string): number {
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / token.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
