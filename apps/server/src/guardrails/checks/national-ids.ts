import validator from "validator";
import { type Finding, matchesOf } from "../findings.js";

/**
 * National identity numbers that carry a checksum, so that a match is rarely a random number: each is found by its
 * shape and kept only when `validator`'s check of that country's number passes. Numbers without a checksum (a US
 * Social Security number, a UK National Insurance number) are left to `patterns`: their shape alone matches too much.
 */
const NATIONAL_IDS: readonly { label: string; shape: RegExp; valid: (value: string) => boolean }[] = [
  // Spain: DNI and NIE (control letter, mod 23).
  { label: "es_dni", shape: /\b[0-9XYZ]\d{7}[A-HJ-NP-TV-Z]\b/g, valid: (v) => validator.isIdentityCard(v, "ES") },
  // Poland PESEL and Norway fødselsnummer: 11 digits with weighted check digits.
  {
    label: "pl_pesel_or_no_fnr",
    shape: /(?<![\d-])\d{11}(?![\d-])/g,
    valid: (v) => validator.isIdentityCard(v, "PL") || validator.isIdentityCard(v, "NO"),
  },
  // Finland: henkilötunnus (mod 31 control character).
  { label: "fi_hetu", shape: /\b\d{6}[-+A]\d{3}[0-9A-FHJ-NPR-Y]\b/g, valid: (v) => validator.isIdentityCard(v, "FI") },
  // India: Aadhaar (Verhoeff check digit).
  {
    label: "in_aadhaar",
    shape: /(?<![\d-])[2-9]\d{3} ?\d{4} ?\d{4}(?![\d-])/g,
    valid: (v) => validator.isIdentityCard(v, "IN"),
  },
  // China: resident identity card (ISO 7064 mod 11-2).
  { label: "cn_resident_id", shape: /(?<!\d)\d{17}[\dXx](?!\d)/g, valid: (v) => validator.isIdentityCard(v, "zh-CN") },
  // Brazil: CPF (two mod 11 check digits).
  {
    label: "br_cpf",
    shape: /(?<![\d.-])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![\d.-])/g,
    valid: (v) => validator.isTaxID(v, "pt-BR"),
  },
];

export function findNationalIds(text: string): Finding[] {
  const found: Finding[] = [];
  for (const id of NATIONAL_IDS) {
    for (const match of matchesOf(id.shape, text)) {
      if (safely(() => id.valid(match.value))) found.push({ start: match.start, end: match.end, kind: "national_id" });
    }
  }
  return found;
}

/** The validators throw on some malformed input instead of answering false. */
function safely(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
