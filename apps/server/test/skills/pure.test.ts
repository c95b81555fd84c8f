import {
  encodeSkillPath,
  isWellFormedText,
  SkillFilesInputSchema,
  skillPathProblem,
  utf8ByteLength,
} from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import { LruCache } from "../../src/lib/lru-cache.js";
import { contentTypeOf } from "../../src/skills/content-type.js";
import { prepareSkillFiles } from "../../src/skills/files.js";
import { parseFrontmatter } from "../../src/skills/frontmatter.js";
import { deriveManifest, findEntryFile, manifestFromEntryFile, resolveManifest } from "../../src/skills/manifest.js";

describe("skill paths", () => {
  it.each([
    "SKILL.md",
    "scripts/run.py",
    "a/b/c/d.txt",
    ".gitignore",
    "docs/.hidden/x",
    "my notes #1?.md",
    "日本語/ファイル.md",
    "a..b/c...d",
  ])("accepts %s", (path) => {
    expect(skillPathProblem(path)).toBeUndefined();
  });

  it.each([
    ["", "must not be empty"],
    ["/abs.txt", "must be relative (no leading `/`)"],
    ["C:/x", "must be relative (no drive letter)"],
    ["c:x", "must be relative (no drive letter)"],
    ["a\\b", "must use `/` as the separator (no `\\`)"],
    ["a\nb", "must not contain control characters"],
    ["a\u007fb", "must not contain control characters"],
    ["a\ud800b", "must be valid Unicode text"],
    ["..", "must not contain `..` segments"],
    ["a/../b", "must not contain `..` segments"],
    ["a/..", "must not contain `..` segments"],
    [".", "must be normalized (no `.` segments)"],
    ["./a", "must be normalized (no `.` segments)"],
    ["a//b", "must be normalized (no empty segment: `//`, or a trailing `/`)"],
    ["a/", "must be normalized (no empty segment: `//`, or a trailing `/`)"],
    [`${"x".repeat(256)}/y`, "each segment must be at most 255 bytes"],
  ])("refuses %j", (path, problem) => {
    expect(skillPathProblem(path)).toBe(problem);
  });

  it("encodes each segment for URLs and keeps separators", () => {
    expect(encodeSkillPath("docs/my notes #1?.md")).toBe("docs/my%20notes%20%231%3F.md");
    expect(encodeSkillPath("a%b/ü")).toBe("a%25b/%C3%BC");
  });

  it("counts UTF-8 bytes like Buffer.byteLength", () => {
    for (const text of ["", "abc", "é", "€", "👋", "こんにちは 🌍", "a\u0000b", "\ud800", "x\udc00y"]) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
    expect(isWellFormedText("👋")).toBe(true);
    expect(isWellFormedText("\ud83d")).toBe(false);
    expect(isWellFormedText("\udc4b\ud83d")).toBe(false);
  });

  it("validates the file set as a whole", () => {
    const ok = SkillFilesInputSchema.safeParse([
      { path: "a.md", content: "x" },
      { path: "b/a.md", content: "y" },
    ]);
    expect(ok.success).toBe(true);
    const bad = SkillFilesInputSchema.safeParse([
      { path: "a", content: "x" },
      { path: "a/b", content: "y" },
      { path: "a/b", content: "z" },
    ]);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["2.path", "duplicate path `a/b` (also files.1.path)"],
      ["0.path", "`a` is both a file and a folder of other files"],
    ]);
  });
});

describe("content types", () => {
  it.each([
    ["SKILL.md", "text/markdown; charset=utf-8"],
    ["docs/Guide.MARKDOWN", "text/markdown; charset=utf-8"],
    ["scripts/run.py", "text/x-python; charset=utf-8"],
    ["data.json", "application/json"],
    ["conf.yaml", "application/yaml"],
    ["index.js", "text/javascript; charset=utf-8"],
    ["run.sh", "text/x-shellscript; charset=utf-8"],
    ["table.csv", "text/csv; charset=utf-8"],
    ["notes.txt", "text/plain; charset=utf-8"],
    ["Makefile", "text/plain; charset=utf-8"],
    [".gitignore", "text/plain; charset=utf-8"],
    ["weird.constructor", "text/plain; charset=utf-8"],
    ["archive.unknown", "text/plain; charset=utf-8"],
    ["dir.md/file", "text/plain; charset=utf-8"],
  ])("%s is %s", (path, type) => {
    expect(contentTypeOf(path)).toBe(type);
  });

  it("derives bytes and digests, in path order", () => {
    const files = prepareSkillFiles([
      { path: "b.txt", content: "é" },
      { path: "B.txt", content: "" },
      { path: "a/z.md", content: "👋" },
    ]);
    expect(files).toEqual([
      {
        path: "B.txt",
        content: "",
        contentType: "text/plain; charset=utf-8",
        bytes: 0,
        sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
      expect.objectContaining({ path: "a/z.md", bytes: 4 }),
      expect.objectContaining({ path: "b.txt", bytes: 2 }),
    ]);
  });
});

describe("frontmatter", () => {
  it("parses YAML frontmatter and returns the body", () => {
    const result = parseFrontmatter("---\nname: x\ndescription: |\n  line 1\n  line 2\ntags: [a, b]\n---\n# Body\n");
    expect(result).toEqual({
      ok: true,
      data: { name: "x", description: "line 1\nline 2\n", tags: ["a", "b"] },
      body: "# Body\n",
    });
  });

  it("accepts a BOM, CRLF line ends and a `...` terminator", () => {
    const result = parseFrontmatter("\uFEFF---\r\nname: x\r\ndescription: y\r\n...\r\nbody");
    expect(result).toEqual({ ok: true, data: { name: "x", description: "y" }, body: "body" });
  });

  it("uses the YAML core schema (no YAML 1.1 surprises)", () => {
    const result = parseFrontmatter("---\nname: no\ndate: 2024-01-01\n---\n");
    expect(result.ok && result.data).toEqual({ name: "no", date: "2024-01-01" });
  });

  it.each([
    ["# no frontmatter", "has no YAML frontmatter"],
    ["", "has no YAML frontmatter"],
    ["text\n---\nname: x\n---\n", "has no YAML frontmatter"],
    ["---\nname: x\n", "never closed"],
    ["---\nname: [x\n---\n", "has invalid YAML frontmatter"],
    ["---\na: 1\na: 2\n---\n", "has invalid YAML frontmatter"],
    ["---\n---\n", "not a mapping"],
    ["---\njust text\n---\n", "not a mapping"],
    ["---\n- 1\n---\n", "not a mapping"],
  ])("refuses %j", (text, reason) => {
    const result = parseFrontmatter(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });

  it("bounds alias expansion", () => {
    const bomb = [
      "---",
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "---",
    ].join("\n");
    const result = parseFrontmatter(bomb);
    expect(result.ok).toBe(false);
  });
});

describe("manifest", () => {
  const md = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n`;

  it("finds the entry at the root, else at the root of one top-level folder", () => {
    expect(findEntryFile(["SKILL.md", "x/SKILL.md"])).toEqual({ path: "SKILL.md" });
    expect(findEntryFile(["pkg/SKILL.md", "pkg/run.py"])).toEqual({ path: "pkg/SKILL.md" });
    expect(findEntryFile(["README.md", "pkg/SKILL.md"])).toEqual({ path: "pkg/SKILL.md" });
    expect(findEntryFile(["a/b/SKILL.md"])).toEqual({ problem: expect.stringContaining("no `manifest`") });
    expect(findEntryFile(["skill.md"])).toEqual({ problem: expect.stringContaining("no `manifest`") });
    expect(findEntryFile(["b/SKILL.md", "a/SKILL.md"])).toEqual({
      problem: expect.stringContaining("`a/SKILL.md`, `b/SKILL.md`"),
    });
  });

  it("reads name and description from the frontmatter, trimmed", () => {
    expect(manifestFromEntryFile({ path: "p/SKILL.md", content: md("  spaced  ", "'quoted: yes'") })).toEqual({
      name: "spaced",
      description: "quoted: yes",
      entry: "p/SKILL.md",
    });
  });

  it.each([
    ["---\ndescription: d\n---\n", "`name`"],
    ["---\nname: ''\ndescription: d\n---\n", "`name`"],
    ["---\nname: [a]\ndescription: d\n---\n", "`name`"],
    [`---\nname: ${"n".repeat(201)}\ndescription: d\n---\n`, "`name`"],
    ["---\nname: n\ndescription: 3\n---\n", "`description`"],
    [`---\nname: n\ndescription: ${"d".repeat(2001)}\n---\n`, "`description`"],
  ])("refuses frontmatter %#", (content, field) => {
    expect(() => manifestFromEntryFile({ path: "SKILL.md", content })).toThrow(
      expect.objectContaining({ code: "skill.invalid_manifest", message: expect.stringContaining(field) }),
    );
  });

  it("derives from a file set or explains why it cannot", () => {
    expect(deriveManifest([{ path: "s/SKILL.md", content: md("n", "d") }])).toEqual({
      name: "n",
      description: "d",
      entry: "s/SKILL.md",
    });
    expect(() => deriveManifest([{ path: "README.md", content: "" }])).toThrow(
      expect.objectContaining({ code: "skill.invalid_manifest", status: 422 }),
    );
  });

  it("resolves the manifest of a publish", () => {
    const explicit = { name: "E", description: "Explicit", entry: "main.md" };
    const files = [
      { path: "main.md", content: "x" },
      { path: "SKILL.md", content: md("from-file", "File") },
    ];
    expect(resolveManifest({ files, manifest: explicit })).toEqual(explicit);
    expect(() => resolveManifest({ files, manifest: { ...explicit, entry: "nope.md" } })).toThrow(
      expect.objectContaining({ code: "skill.invalid_manifest" }),
    );
    // previous entry still present and not a SKILL.md: kept as is
    expect(resolveManifest({ files, previous: explicit })).toEqual(explicit);
    // previous entry has a frontmatter: name and description updated from it
    expect(resolveManifest({ files, previous: { name: "old", description: "old", entry: "SKILL.md" } })).toEqual({
      name: "from-file",
      description: "File",
      entry: "SKILL.md",
    });
    // previous entry is plain Markdown: kept
    const plain = [{ path: "SKILL.md", content: "# Plain\n" }];
    const old = { name: "old", description: "old", entry: "SKILL.md" };
    expect(resolveManifest({ files: plain, previous: old })).toEqual(old);
    // one key updates only itself
    const partial = [{ path: "SKILL.md", content: "---\nname: new\nlicense: MIT\n---\n" }];
    expect(resolveManifest({ files: partial, previous: old })).toEqual({ ...old, name: "new" });
    // a frontmatter that is there but unreadable is refused
    expect(() => resolveManifest({ files: [{ path: "SKILL.md", content: "---\n- a\n---\n" }], previous: old })).toThrow(
      expect.objectContaining({ code: "skill.invalid_manifest", message: expect.stringContaining("mapping") }),
    );
    // previous entry gone: derived from the new set
    expect(
      resolveManifest({ files: [files[1]!], previous: { name: "old", description: "old", entry: "main.md" } }),
    ).toEqual({ name: "from-file", description: "File", entry: "SKILL.md" });
    expect(() => resolveManifest({ files: [files[0]!], previous: { ...explicit, entry: "gone.md" } })).toThrow(
      expect.objectContaining({ code: "skill.invalid_manifest" }),
    );
  });
});

describe("LRU cache", () => {
  it("evicts the least recently used entry beyond the entry budget", () => {
    const cache = new LruCache<string, number>({ maxEntries: 2, maxWeight: 100 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("evicts by weight and refuses a value heavier than the budget", () => {
    const cache = new LruCache<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (v) => v.length });
    cache.set("a", "12345");
    cache.set("b", "1234");
    expect(cache.totalWeight).toBe(9);
    cache.set("c", "123");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.totalWeight).toBe(7);
    cache.set("huge", "x".repeat(11));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.totalWeight).toBe(7);
    cache.set("b", "1");
    expect(cache.totalWeight).toBe(4);
    cache.delete("b");
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.totalWeight).toBe(0);
  });

  it("takes a weight the caller already knows instead of weighing the value", () => {
    const cache = new LruCache<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (v) => v.length });
    cache.set("a", "x", 6);
    cache.set("b", "y", 3);
    expect(cache.totalWeight).toBe(9);
    cache.set("c", "z", 2);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.totalWeight).toBe(5);
    cache.set("d", "w", 11);
    expect(cache.get("d")).toBeUndefined();
  });
});
