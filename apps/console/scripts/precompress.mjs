// Writes `<file>.br` and `<file>.gz` next to every text asset of the build (JavaScript, CSS, HTML, SVG, JSON), at the
// highest levels: the server sends them as they are to a client that accepts them (apps/server/src/http/console.ts),
// so the console's first load costs no compression CPU at request time. Files under 1 KiB are left alone.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = join(import.meta.dirname, "..", "dist");
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
let files = 0;
let before = 0;
let brotli = 0;
for (const entry of readdirSync(dist, { recursive: true })) {
  const path = join(dist, entry);
  if (!TEXT.test(path) || !statSync(path).isFile()) continue;
  const data = readFileSync(path);
  if (data.length < 1024) continue;
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
  files++;
  before += data.length;
  brotli += br.length;
}
console.log(
  `console: ${files} files precompressed, ${(before / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`,
);
