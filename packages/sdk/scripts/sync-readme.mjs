// Copies each examples/<name>.ts into README.md, into the ```ts block that follows its `<!-- example: <name>.ts -->`
// marker. The examples are type-checked with the package; the README test fails when the two differ.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readmePath = join(root, "README.md");
const readme = readFileSync(readmePath, "utf8");
const synced = readme.replace(/<!-- example: ([\w-]+\.ts) -->\n```ts\n[\s\S]*?```/g, (_, name) => {
  const code = readFileSync(join(root, "examples", name), "utf8").trimEnd();
  return `<!-- example: ${name} -->\n\`\`\`ts\n${code}\n\`\`\``;
});
writeFileSync(readmePath, synced);
