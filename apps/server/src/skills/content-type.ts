/** Media types of skill files, by extension. Skill files are UTF-8 text, so every `text/*` type says so. */

const UTF8 = "; charset=utf-8";

export const DEFAULT_SKILL_CONTENT_TYPE = `text/plain${UTF8}`;

const BY_EXTENSION = new Map<string, string>(
  Object.entries({
    md: "text/markdown",
    markdown: "text/markdown",
    mdx: "text/markdown",
    txt: "text/plain",
    text: "text/plain",
    log: "text/plain",
    py: "text/x-python",
    pyi: "text/x-python",
    ipynb: "application/x-ipynb+json",
    js: "text/javascript",
    mjs: "text/javascript",
    cjs: "text/javascript",
    jsx: "text/javascript",
    ts: "text/x-typescript",
    mts: "text/x-typescript",
    cts: "text/x-typescript",
    tsx: "text/x-typescript",
    json: "application/json",
    jsonl: "application/x-ndjson",
    ndjson: "application/x-ndjson",
    yaml: "application/yaml",
    yml: "application/yaml",
    toml: "application/toml",
    xml: "application/xml",
    xsd: "application/xml",
    html: "text/html",
    htm: "text/html",
    css: "text/css",
    csv: "text/csv",
    tsv: "text/tab-separated-values",
    sh: "text/x-shellscript",
    bash: "text/x-shellscript",
    zsh: "text/x-shellscript",
    ps1: "text/plain",
    rb: "text/x-ruby",
    go: "text/x-go",
    rs: "text/x-rust",
    java: "text/x-java",
    kt: "text/x-kotlin",
    swift: "text/x-swift",
    c: "text/x-c",
    h: "text/x-c",
    cc: "text/x-c++",
    cpp: "text/x-c++",
    hpp: "text/x-c++",
    cs: "text/x-csharp",
    php: "text/x-php",
    r: "text/x-r",
    lua: "text/x-lua",
    sql: "application/sql",
    graphql: "application/graphql",
    svg: "image/svg+xml",
    ini: "text/plain",
    cfg: "text/plain",
    conf: "text/plain",
    env: "text/plain",
  }),
);

/**
 * The media type of a skill file from the extension of its last segment (case-insensitive); `text/plain` when the
 * extension is unknown or absent (`Makefile`, `.gitignore`).
 */
export function contentTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return DEFAULT_SKILL_CONTENT_TYPE;
  const type = BY_EXTENSION.get(name.slice(dot + 1).toLowerCase());
  if (!type) return DEFAULT_SKILL_CONTENT_TYPE;
  return type.startsWith("text/") ? `${type}${UTF8}` : type;
}
