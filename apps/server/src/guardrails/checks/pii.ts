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
      if (validator.isCreditCard(m.value.replace(/[ -]/g, ""))) {
        found.push({ start: m.start, end: m.end, kind: "card_number" });
      }
    }
  }
  if (kinds.has("iban")) {
    for (const m of matchesOf(IBAN, text)) {
      if (validator.isIBAN(m.value.replace(/ /g, ""))) found.push({ start: m.start, end: m.end, kind: "iban" });
    }
  }
  if (kinds.has("national_id")) found.push(...findNationalIds(text));
  if (kinds.has("phone")) {
    const region = check.phoneRegion as Parameters<typeof findPhoneNumbersInText>[1];
    for (const m of findPhoneNumbersInText(text, region)) {
      if (m.number.isValid()) found.push({ start: m.startsAt, end: m.endsAt, kind: "phone" });
    }
  }
  if (check.patterns) found.push(...findPatterns(check.patterns, text));
  const spans = withoutOverlaps(found);
  return { triggered: spans.length > 0, spans };
}
