// English schedule descriptions to cron, by a small fixed grammar (no model, so the answer is deterministic).
// Hand-written: the npm packages that do this are unmaintained and accept phrases they then get wrong.

/** Text the grammar does not cover; `message` says what was not understood. */
export class UnparseableSchedule extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnparseableSchedule";
  }
}

export interface ParsedEnglish {
  cron: string;
  /** The zone named at the end of the text (`… in Europe/Paris`, `… UTC`), as written. */
  timezone: string | null;
}

const DAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
const DAY = `(?:${Object.keys(DAYS).join("|")})s?`;
const TIME = String.raw`(?:noon|midnight|\d{1,2}(?:[:.h]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)`;
const LIST_SEP = String.raw`\s*(?:,\s*and|,|and|&)\s*`;
const ORDINAL = String.raw`(?:\d{1,2}(?:st|nd|rd|th)?|first|last)`;

interface Parts {
  minuteEvery?: number;
  hourEvery?: number;
  hourly?: boolean;
  minutePast?: number;
  window?: [number, number];
  times?: { hour: number; minute: number }[];
  weekdays?: number[];
  monthDays?: string[];
  daily?: boolean;
  monthly?: boolean;
}

/** A rule: a pattern consumed from the text and what it means. */
type Rule = [RegExp, (m: RegExpMatchArray, parts: Parts) => void];

const RULES: Rule[] = [
  [/\bevery\s+(\d+|other)\s+seconds?\b|\bevery\s+second\b/, () => fail("cron fires at most once a minute")],
  [/\bevery\s+minute\b/, (_m, p) => (p.minuteEvery = 1)],
  [/\bevery\s+(\d{1,3})\s+(?:minutes|mins?)\b/, (m, p) => (p.minuteEvery = divisorOf(60, Number(m[1]), "minutes"))],
  [/\bevery\s+(\d{1,3})\s+(?:hours|hrs?)\b/, (m, p) => (p.hourEvery = divisorOf(24, Number(m[1]), "hours"))],
  [/\b(?:every|each)\s+hour\b|\bhourly\b/, (_m, p) => (p.hourly = true)],
  [
    /\bat\s+(\d{1,2})\s+(?:minutes?\s+)?past(?:\s+the\s+hour)?\b|\bat\s+:(\d{2})\b/,
    (m, p) => (p.minutePast = bounded(Number(m[1] ?? m[2]), 0, 59, "minutes past the hour")),
  ],
  [
    new RegExp(String.raw`\b(?:between|from)\s+(${TIME})\s+(?:and|to|until|-)\s+(${TIME})`),
    (m, p) => (p.window = hourWindow(parseTime(m[1]!), parseTime(m[2]!))),
  ],
  [/\b(?:on\s+|every\s+)?(?:weekdays|weekday|work\s*days?|business\s+days?)\b/, (_m, p) => days(p, [1, 2, 3, 4, 5])],
  [/\b(?:on\s+|every\s+)?(?:weekends?)\b/, (_m, p) => days(p, [0, 6])],
  [
    new RegExp(String.raw`\b(?:on\s+|every\s+)?(${DAY}(?:${LIST_SEP}${DAY})*)\b`),
    (m, p) =>
      days(
        p,
        splitList(m[1]!).map((d) => DAYS[d.replace(/s$/, "")] ?? DAYS[d]!),
      ),
  ],
  [
    new RegExp(
      String.raw`\b(?:on\s+)?the\s+(${ORDINAL}(?:${LIST_SEP}${ORDINAL})*)(?:\s+day)?\s+of\s+(?:every|each|the)\s+month\b`,
    ),
    (m, p) => monthDays(p, m[1]!),
  ],
  [
    new RegExp(
      String.raw`\b(?:monthly|every\s+month|each\s+month)\s+on\s+the\s+(${ORDINAL}(?:${LIST_SEP}${ORDINAL})*)(?:\s+day)?\b`,
    ),
    (m, p) => monthDays(p, m[1]!),
  ],
  [/\b(?:monthly|every\s+month|each\s+month)\b/, (_m, p) => (p.monthly = true)],
  [/\bevery\s+(\d+|other)\s+days?\b/, () => fail("cron cannot repeat every N days across month ends; name the days")],
  [
    /\b(?:every\s+day|each\s+day|everyday|daily|every\s+(?:morning|evening|night)|nightly)\b/,
    (_m, p) => (p.daily = true),
  ],
  [new RegExp(String.raw`\b(?:at\s+)?(${TIME}(?:${LIST_SEP}${TIME})*)(?=\s|$)`), (m, p) => times(p, m[1]!)],
];

/**
 * Converts an English schedule ("every weekday at 9am", "every 15 minutes", "daily at 18:30", "mondays and thursdays
 * at noon", "on the 1st of every month at 08:00", optionally ending with a time zone) to a 5-field cron expression.
 * Throws `UnparseableSchedule` for anything else.
 */
export function parseEnglishSchedule(input: string): ParsedEnglish {
  let text = ` ${input
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]+$/, "")} `;
  let timezone: string | null = null;
  const zone = text.match(/\s(?:in\s+|\()?([a-z_]+(?:\/[a-z0-9_+-]+)+|utc|gmt)\)?\s*$/);
  if (zone) {
    timezone = input
      .trim()
      .replace(/[.!)]+$/, "")
      .slice(-zone[1]!.length);
    text = text.slice(0, zone.index);
  }
  const parts: Parts = {};
  for (const [pattern, apply] of RULES) {
    const match = text.match(pattern);
    if (!match) continue;
    apply(match, parts);
    text = `${text.slice(0, match.index)} ${text.slice(match.index! + match[0].length)}`;
  }
  const rest = text
    .replace(/\b(?:every|each|on|at|and|the|of|in|starting|run|runs|fire|fires)\b|[,;]/g, " ")
    .trim()
    .replace(/\s+/g, " ");
  if (rest) throw new UnparseableSchedule(`could not understand "${rest}"`);
  return { cron: compose(parts), timezone };
}

function compose(p: Parts): string {
  const dom = p.monthDays?.join(",") ?? (p.monthly ? "1" : "*");
  const dow = p.weekdays ? rangeList(p.weekdays) : "*";
  if (dom !== "*" && dow !== "*") fail("a schedule cannot name both days of the month and days of the week");
  const range = p.window ? `${p.window[0]}-${p.window[1]}` : "*";
  if (p.minuteEvery !== undefined || p.hourEvery !== undefined || p.hourly) {
    if (p.times) fail("give either an interval or times of day, not both");
    if (p.minuteEvery !== undefined) {
      if (p.hourEvery !== undefined || p.hourly) fail("give one interval");
      return `${p.minuteEvery === 1 ? "*" : `*/${p.minuteEvery}`} ${range} ${dom} * ${dow}`;
    }
    const minute = p.minutePast ?? 0;
    if (p.hourEvery !== undefined) {
      const start = p.window ? p.window[0] : 0;
      const end = p.window ? p.window[1] : 23;
      return `${minute} ${p.window ? `${start}-${end}/${p.hourEvery}` : `*/${p.hourEvery}`} ${dom} * ${dow}`;
    }
    return `${minute} ${range} ${dom} * ${dow}`;
  }
  if (p.window || p.minutePast !== undefined) fail("a time window or minutes past the hour need an interval");
  const named = p.times !== undefined || p.daily || p.monthly || p.monthDays || p.weekdays;
  if (!named) fail("no schedule found (try `every day at 9am` or `every 15 minutes`)");
  const times = p.times ?? [{ hour: 0, minute: 0 }];
  const minutes = new Set(times.map((t) => t.minute));
  if (minutes.size > 1) fail("times of day must share their minutes to fit one cron expression (9:00 and 17:00)");
  return `${times[0]!.minute} ${rangeList(times.map((t) => t.hour))} ${dom} * ${dow}`;
}

/** Sorted distinct values, runs of three or more as ranges: [5, 1, 2, 3, 4] → "1-5", [1, 3, 5] → "1,3,5". */
function rangeList(values: number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) out.push(`${sorted[i]}-${sorted[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(sorted[k]));
    i = j + 1;
  }
  return out.join(",");
}

function fail(message: string): never {
  throw new UnparseableSchedule(message);
}

function bounded(value: number, min: number, max: number, what: string): number {
  if (!Number.isInteger(value) || value < min || value > max) fail(`${what} must be from ${min} to ${max}`);
  return value;
}

function divisorOf(whole: number, value: number, unit: string): number {
  if (value < 1 || value >= whole || whole % value !== 0) {
    const divisors = [...Array(whole).keys()].filter((d) => d >= 1 && d < whole && whole % d === 0);
    fail(`every ${value} ${unit} does not divide ${whole === 60 ? "an hour" : "a day"}: use ${divisors.join(", ")}`);
  }
  return value;
}

function splitList(list: string): string[] {
  return list
    .split(new RegExp(LIST_SEP))
    .map((s) => s.trim())
    .filter(Boolean);
}

function days(p: Parts, values: number[]): void {
  p.weekdays = [...(p.weekdays ?? []), ...values];
}

function monthDays(p: Parts, list: string): void {
  const values = splitList(list).map((item) => {
    if (item === "last") return "L";
    if (item === "first") return "1";
    return String(bounded(Number.parseInt(item, 10), 1, 31, "days of the month"));
  });
  p.monthDays = [...(p.monthDays ?? []), ...values];
}

function times(p: Parts, list: string): void {
  p.times = [...(p.times ?? []), ...splitList(list).map(parseTime)];
}

function parseTime(text: string): { hour: number; minute: number } {
  const t = text.trim();
  if (t === "noon") return { hour: 12, minute: 0 };
  if (t === "midnight") return { hour: 0, minute: 0 };
  const m = t.match(/^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/);
  if (!m) fail(`"${t}" is not a time of day`);
  let hour = Number(m[1]);
  const minute = bounded(Number(m[2] ?? 0), 0, 59, "minutes");
  const half = m[3]?.replace(/\./g, "");
  if (half) {
    bounded(hour, 1, 12, "hours with am/pm");
    hour = (hour % 12) + (half === "pm" ? 12 : 0);
  }
  return { hour: bounded(hour, 0, 23, "hours"), minute };
}

/** Whole hours from `from` up to (not including) `to`: "between 9am and 5pm" is 9-16. */
function hourWindow(from: { hour: number; minute: number }, to: { hour: number; minute: number }): [number, number] {
  if (from.minute !== 0 || to.minute !== 0) fail("a time window must start and end on the hour");
  const end = to.hour === 0 ? 23 : to.hour - 1;
  if (end < from.hour) fail("a time window must end after it starts, on the same day");
  return [from.hour, end];
}
