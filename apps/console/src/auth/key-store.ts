/**
 * The API key lives in this tab's sessionStorage: it survives a reload of the tab, is not shared with other tabs, is
 * gone when the tab closes, and is never written to localStorage, a cookie or a URL (docs/console.md, "Signing in").
 */
const KEY = "agent-platform.console.apiKey";

export function readStoredKey(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeKey(apiKey: string): void {
  try {
    sessionStorage.setItem(KEY, apiKey);
  } catch {
    // Storage refused (private mode quotas): the key then lives in memory only, until a reload.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
