import type { SkillManifest } from "@agent-platform/contract";
import { z } from "zod";
import { type LoadedSkillFiles, loadSkillFiles } from "../../../skills/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, json, ok } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

/** A file longer than this is cut (skills may hold files up to 1 MiB; a model rarely needs all of one at once). */
export const SKILL_READ_MAX_CHARS = 200_000;
const DESCRIBED_SKILLS = 64;

export type PinnedSkill =
  | { ok: true; skill: LoadedSkillFiles }
  | { ok: false; skillId: string; version: number; problem: string };

/** Loads the files of each pinned version (cached in-process: versions are immutable). A missing one is reported. */
export async function loadPinnedSkills(
  prisma: Parameters<typeof loadSkillFiles>[0],
  workspaceId: string,
  refs: readonly { skillId: string; version: number }[],
): Promise<PinnedSkill[]> {
  return Promise.all(
    refs.map(async (ref): Promise<PinnedSkill> => {
      try {
        return { ok: true, skill: await loadSkillFiles(prisma, workspaceId, ref.skillId, ref.version) };
      } catch (error) {
        return { ok: false, ...ref, problem: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

function summary(manifest: Readonly<SkillManifest>, skill: LoadedSkillFiles): string {
  return `- ${manifest.name} (${skill.skillId}, version ${skill.version}): ${manifest.description}`.slice(0, 400);
}

function normalisePath(path: string): string {
  return path.trim().replace(/^\.?\/+/, "");
}

const Input = z
  .object({
    skill: z.string().min(1).max(200),
    path: z.string().min(1).max(1024).optional(),
  })
  .strict();

export function skillReadTool(pinned: readonly PinnedSkill[]): RuntimeTool {
  const skills = pinned.flatMap((p) => (p.ok ? [p.skill] : []));
  const listing = skills.slice(0, DESCRIBED_SKILLS).map((s) => summary(s.manifest, s));
  return defineBuiltinTool({
    name: "skill_read",
    description:
      "Read the files of the skills (instruction packages) this agent has. Without `path`, lists a skill's files " +
      "and names its entry file; read the entry file first, it says how to use the skill. Skills:\n" +
      (listing.length ? listing.join("\n") : "(none could be loaded)"),
    inputSchema: {
      type: "object",
      properties: {
        skill: { type: "string", description: "Skill name or id (`skill_…`)" },
        path: { type: "string", description: "File path inside the skill; omit to list the files" },
      },
      required: ["skill"],
      additionalProperties: false,
    },
    input: Input,
    async run(input) {
      const wanted = input.skill.trim();
      const skill =
        skills.find((s) => s.skillId === wanted) ??
        skills.find((s) => s.manifest.name === wanted) ??
        skills.find((s) => s.manifest.name.toLowerCase() === wanted.toLowerCase());
      if (!skill) {
        const broken = pinned.find((p) => !p.ok && p.skillId === wanted);
        if (broken && !broken.ok) return fail(`Skill ${wanted} is not available: ${broken.problem}`);
        const names = skills.map((s) => s.manifest.name).join(", ") || "none";
        return fail(`This agent has no skill "${wanted}" (skills: ${names})`);
      }
      if (input.path === undefined) {
        return json({
          skillId: skill.skillId,
          name: skill.manifest.name,
          version: skill.version,
          description: skill.manifest.description,
          entry: skill.manifest.entry,
          files: skill.files.map((f) => ({ path: f.path, bytes: f.bytes, contentType: f.contentType })),
        });
      }
      const path = normalisePath(input.path);
      const file = skill.files.find((f) => f.path === path);
      if (!file) {
        const paths = skill.files.map((f) => f.path);
        const shown = paths.slice(0, 50).join(", ") + (paths.length > 50 ? `, … (${paths.length} files)` : "");
        return fail(`Skill "${skill.manifest.name}" has no file "${path}" (files: ${shown})`);
      }
      if (file.content.length <= SKILL_READ_MAX_CHARS) return ok(file.content);
      return ok(
        `${file.content.slice(0, SKILL_READ_MAX_CHARS)}\n\n[truncated: the first ${SKILL_READ_MAX_CHARS} of ` +
          `${file.content.length} characters of ${file.path}]`,
      );
    },
  });
}
