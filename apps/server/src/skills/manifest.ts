import { SKILL_ENTRY_FILE, type SkillManifest, type SkillManifestInput } from "@agent-platform/contract";
import { AppError } from "../http/app-error.js";
import { contentTypeOf } from "./content-type.js";
import { parseFrontmatter } from "./frontmatter.js";

export interface ManifestSourceFile {
  path: string;
  content: string;
}

const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;

function invalid(message: string): AppError {
  return new AppError("skill.invalid_manifest", message);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * The entry file a manifest can be derived from: `SKILL.md` at the root, else the `SKILL.md` at the root of exactly
 * one top-level folder (`my-skill/SKILL.md`). Returns its path, or why there is none.
 */
export function findEntryFile(paths: readonly string[]): { path: string } | { problem: string } {
  if (paths.includes(SKILL_ENTRY_FILE)) return { path: SKILL_ENTRY_FILE };
  const nested = paths.filter((p) => p.split("/").length === 2 && baseName(p) === SKILL_ENTRY_FILE).sort();
  if (nested.length === 1) return { path: nested[0]! };
  if (nested.length > 1) {
    return {
      problem: `several top-level folders have a ${SKILL_ENTRY_FILE} (${nested.map((p) => `\`${p}\``).join(", ")}); send \`manifest\` to choose the entry`,
    };
  }
  return {
    problem: `no \`manifest\` was sent and there is no ${SKILL_ENTRY_FILE} at the root or at the root of one top-level folder to derive it from`,
  };
}

function frontmatterText(value: unknown, key: string, max: number, path: string): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (text.length === 0 || text.length > max) {
    throw invalid(`\`${path}\`: frontmatter \`${key}\` must be a non-empty string of at most ${max} characters`);
  }
  return text;
}

/** The manifest of an entry file from its YAML frontmatter (`name`, `description`); `entry` is the file's path. */
export function manifestFromEntryFile(file: ManifestSourceFile): SkillManifest {
  const frontmatter = parseFrontmatter(file.content);
  if (!frontmatter.ok) throw invalid(`\`${file.path}\` ${frontmatter.reason}; send \`manifest\` or fix the file`);
  return {
    name: frontmatterText(frontmatter.data.name, "name", NAME_MAX, file.path),
    description: frontmatterText(frontmatter.data.description, "description", DESCRIPTION_MAX, file.path),
    entry: file.path,
  };
}

/** Derives the manifest of a file set from its entry file (see `findEntryFile`). */
export function deriveManifest(files: readonly ManifestSourceFile[]): SkillManifest {
  const found = findEntryFile(files.map((f) => f.path));
  if ("problem" in found) throw invalid(`Cannot derive the manifest: ${found.problem}`);
  return manifestFromEntryFile(files.find((f) => f.path === found.path)!);
}

/** Whether frontmatter in this entry file is read on publish: Markdown files (`.md`, `.markdown`, `.mdx`). */
function isMarkdown(path: string): boolean {
  return contentTypeOf(path).startsWith("text/markdown");
}

/**
 * The previous manifest carried over to an entry file that is still published: a Markdown entry that opens a YAML
 * frontmatter updates `name` and `description` from it (each when present); plain Markdown, or any other file, keeps
 * them. A frontmatter that is present but unreadable, or a bad `name`/`description` in it, is refused rather than
 * silently ignored.
 */
function carryOver(previous: SkillManifest, entry: ManifestSourceFile): SkillManifest {
  const kept = { name: previous.name, description: previous.description, entry: previous.entry };
  if (!isMarkdown(entry.path)) return kept;
  const frontmatter = parseFrontmatter(entry.content);
  if (!frontmatter.ok) {
    if (!frontmatter.present) return kept;
    throw invalid(`\`${entry.path}\` ${frontmatter.reason}; fix the file, remove the frontmatter or send \`manifest\``);
  }
  const { name, description } = frontmatter.data;
  return {
    name: name === undefined ? kept.name : frontmatterText(name, "name", NAME_MAX, entry.path),
    description:
      description === undefined
        ? kept.description
        : frontmatterText(description, "description", DESCRIPTION_MAX, entry.path),
    entry: kept.entry,
  };
}

/**
 * The manifest of a version being published:
 * 1. an explicit `manifest` is used as sent; its `entry` must be one of the files;
 * 2. otherwise, when the previous version's entry is still among the files, the previous manifest is kept, its name
 *    and description updated by that file's frontmatter when it has one (`carryOver`);
 * 3. otherwise the manifest is derived from the file set (`deriveManifest`).
 * Anything else is 422 `skill.invalid_manifest`.
 */
export function resolveManifest(input: {
  files: readonly ManifestSourceFile[];
  manifest?: SkillManifestInput;
  previous?: SkillManifest;
}): SkillManifest {
  const { files, manifest, previous } = input;
  if (manifest) {
    if (!files.some((f) => f.path === manifest.entry)) {
      throw invalid(`manifest.entry \`${manifest.entry}\` is not one of the files`);
    }
    return { name: manifest.name, description: manifest.description, entry: manifest.entry };
  }
  if (previous) {
    const entry = files.find((f) => f.path === previous.entry);
    if (entry) return carryOver(previous, entry);
  }
  return deriveManifest(files);
}
