import type { GuardrailCheck } from "@agent-platform/contract";
import { findPhoneNumbersInText } from "libphonenumber-js";
import validator from "validator";
import { type CheckVerdict, type Finding, matchesOf, withoutOverlaps } from "../findings.js";
import { findNationalIds } from "./national-ids.js";
import { findPatterns } from "./patterns.js";

type PiiCheck = Extract<GuardrailCheck, { type: "pii" }>;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** 13 to 19 digits, optionally grouped by spaces or dashes. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
/** Runs of digits with the punctuation of phone numbers, where the phone finder is run (not over the whole text). */
const PHONE_CANDIDATE = /\+?\(?\d[\d \t()./-]{5,}\d/g;
/** Country code, check digits, then 11 to 30 letters or digits, optionally in groups of four. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

/**
 * Personal data in a text: e-mail addresses (checked by `validator`'s `isEmail`), phone numbers (libphonenumber-js:
 * valid numbers only; national formats only with `phoneRegion`), card numbers (`isCreditCard`: a known issuer's
 * prefix and length, and the Luhn checksum), IBANs (`isIBAN`: the country's format and the mod-97 checksum), national
 * identity numbers with a checksum, and the check's own patterns.
 */
export function checkPii(check: PiiCheck, text: string): CheckVerdict {
  const kinds = new Set(check.kinds ?? ["email", "phone", "card_number", "iban", "national_id"]);
  const found: Finding[] = [];
  if (kinds.has("email")) {
    for (const m of matchesOf(EMAIL, text)) {
      if (validator.isEmail(m.value)) found.push({ start: m.start, end: m.end, kind: "email" });
    }
  }
  if (kinds.has("card_number")) {
    for (const m of matchesOf(CARD, text)) {
      const end = longestValidPrefix(m.value, 13, (compact) => validator.isCreditCard(compact));
      if (end !== null) found.push({ start: m.start, end: m.start + end, kind: "card_number" });
    }
  }
  if (kinds.has("iban")) {
    for (const m of matchesOf(IBAN, text)) {
      const end = longestValidPrefix(m.value, 15, (compact) => validator.isIBAN(compact));
      if (end !== null) found.push({ start: m.start, end: m.start + end, kind: "iban" });
    }
  }
  if (kinds.has("national_id")) found.push(...findNationalIds(text));
  if (kinds.has("phone")) {
    // Phone matching is the loosest (digits with punctuation): a number that runs into a card number, an IBAN or an id
    // found above gives way to it.
    const region = check.phoneRegion as Parameters<typeof findPhoneNumbersInText>[1];
    const specific = [...found];
    for (const m of phoneNumbersIn(text, region)) {
      if (!m.number.isValid()) continue;
      const overlap = specific.find((f) => m.startsAt < f.end && f.start < m.endsAt);
      if (!overlap) {
        found.push({ start: m.startsAt, end: m.endsAt, kind: "phone" });
        continue;
      }
      // The part before what it ran into may still be a number of its own.
      const before = text.slice(m.startsAt, Math.max(m.startsAt, overlap.start));
      for (const inner of phoneNumbersIn(before, region)) {
        if (inner.number.isValid()) {
          found.push({ start: m.startsAt + inner.startsAt, end: m.startsAt + inner.endsAt, kind: "phone" });
        }
      }
    }
  }
  if (check.patterns) found.push(...findPatterns(check.patterns, text));
  const spans = withoutOverlaps(found);
  return { triggered: spans.length > 0, spans };
}

/**
 * A candidate's shape may run into the text after it (a card number followed by a year, an IBAN by a reference): the
 * longest prefix, ending on a digit or letter, whose separator-free form passes `valid`; its end offset, or null.
 */
function longestValidPrefix(value: string, minChars: number, valid: (compact: string) => boolean): number | null {
  for (let end = value.length; end > 0; end--) {
    if (!/[A-Za-z0-9]/.test(value[end - 1]!)) continue;
    const compact = value.slice(0, end).replace(/[ -]/g, "");
    if (compact.length < minChars) return null;
    if (valid(compact)) return end;
  }
  return null;
}

type Region = Parameters<typeof findPhoneNumbersInText>[1];

/**
 * libphonenumber-js's finder, run only on the digit runs of the text: over long prose it costs about a millisecond per
 * kilobyte, on the runs a few microseconds each. Offsets are the text's.
 */
function phoneNumbersIn(text: string, region: Region): ReturnType<typeof findPhoneNumbersInText> {
  const found: ReturnType<typeof findPhoneNumbersInText> = [];
  for (const run of matchesOf(PHONE_CANDIDATE, text)) {
    for (const m of findPhoneNumbersInText(run.value, region)) {
      found.push({ ...m, startsAt: run.start + m.startsAt, endsAt: run.start + m.endsAt });
    }
  }
  return found;
}
