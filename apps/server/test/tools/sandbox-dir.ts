import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A sandbox folder (`SANDBOX_DIR`) the sandbox user can traverse (mkdtemp makes 0700 folders). */
export function sandboxDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ap-sandbox-"));
  chmodSync(dir, 0o711);
  return dir;
}
