/**
 * Values shaped like credentials for the labelled set of the `secrets` check, made at test time by a seeded generator
 * (mulberry32) so that the repository holds no key-like string a secret scanner would flag. Same seed, same values.
 */
export function secretValues(seed = 45): Record<string, () => string> {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const from = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
  const digits = "0123456789";
  const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const lower = "abcdefghijklmnopqrstuvwxyz";
  const base62 = digits + upper + lower;
  const url = `${base62}-_`;
  const b64url = (text: string) => Buffer.from(text).toString("base64url");
  return {
    openai: () => `sk-proj-${from(url, 48)}`,
    anthropic: () => `sk-ant-api03-${from(url, 93)}`,
    aws: () => `AKIA${from(upper + digits, 16)}`,
    github: () => `ghp_${from(base62, 36)}`,
    jwt: () =>
      `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${from(digits, 8)}","iat":1700000000}`)}.${from(url, 43)}`,
    stripe: () => ["sk", "live", from(base62, 24)].join("_"),
    slack: () => `xoxb-${from(digits, 12)}-${from(digits, 12)}-${from(base62, 24)}`,
    google: () => `AIza${from(url, 35)}`,
    private_key: () =>
      [
        ["-----BEGIN", "PRIVATE KEY-----"].join(" "),
        ...Array.from({ length: 4 }, () => from(`${base62}+/`, 64)),
        ["-----END", "PRIVATE KEY-----"].join(" "),
      ].join("\n"),
    password: () => from(`${base62}!#%&*`, 14),
    base62_20: () => from(base62, 20),
    base62_32: () => from(base62, 32),
    base62_40: () => from(base62, 40),
    gitlab: () => `glpat-${from(url, 20)}`,
    npm: () => `npm_${from(base62, 36)}`,
    huggingface: () => `hf_${from(base62, 34)}`,
    hex_64: () => from("0123456789abcdef", 64),
  };
}

/** The labelled texts with their placeholders filled. */
export function fillSecrets(text: string, values = secretValues()): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, kind: string) => {
    const make = values[kind];
    if (!make) throw new Error(`no generator for {{${kind}}}`);
    return make();
  });
}
