/** An integer setting from the environment: `fallback` when unset or blank, an error naming the variable otherwise. */
export function integerSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got ${raw})`);
  }
  return value;
}
