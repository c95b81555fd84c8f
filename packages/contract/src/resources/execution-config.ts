import { z } from "zod";
import { idOf } from "../common/fields.js";
import { DomainPatternSchema } from "../governance/egress-policy.js";

/**
 * What an environment configures for code execution (the `bash` and file tools): networking, packages, secret
 * variables and resources. Defaults apply to every field left out.
 */

/** Bounds and defaults of `resources`, per tool call. */
export const EXECUTION_RESOURCES = {
  memoryMb: { default: 512, min: 64, max: 8192 },
  cpus: { default: 1, min: 0.1, max: 16 },
  pids: { default: 128, min: 16, max: 4096 },
  timeoutMs: { default: 30_000, min: 1_000, max: 600_000 },
  workspaceMb: { default: 256, min: 1, max: 4096 },
} as const;

export const EXECUTION_LIMITS = {
  allowedHosts: 100,
  packages: 50,
  packageSpecLength: 214,
  secrets: 50,
} as const;

export const NetworkingSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("none") }).strict(),
    z
      .object({
        type: z.literal("limited"),
        allowedHosts: z
          .array(DomainPatternSchema)
          .min(1)
          .max(EXECUTION_LIMITS.allowedHosts)
          .describe("Hosts the code may reach over HTTP(S), as egress patterns (`registry.npmjs.org`, `*.pypi.org`)"),
      })
      .strict(),
  ])
  .describe(
    "`none` (default): no network at all. `limited`: HTTP(S) through the platform's proxy to `allowedHosts` only " +
      "(also within the workspace egress policy and the outbound address policy)",
  );

const NpmSpec = z
  .string()
  .max(EXECUTION_LIMITS.packageSpecLength)
  .regex(
    /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*+|_ -]+)?$/,
    "an npm package, optionally with a version or range (`lodash@4.17.21`)",
  );
const PipSpec = z
  .string()
  .max(EXECUTION_LIMITS.packageSpecLength)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?((==|>=|<=|~=|!=|>|<)[A-Za-z0-9.*+!_-]+(,(==|>=|<=|~=|!=|>|<)[A-Za-z0-9.*+!_-]+)*)?$/,
    "a Python package, optionally with a version specifier (`requests==2.32.3`)",
  );

export const PackagesSchema = z
  .object({
    npm: z.array(NpmSpec).max(EXECUTION_LIMITS.packages).optional(),
    pip: z.array(PipSpec).max(EXECUTION_LIMITS.packages).optional(),
  })
  .strict()
  .describe("Installed once per distinct list into a read-only layer every call of the environment sees");

export const SecretReferenceSchema = z
  .object({ vaultId: idOf("vault"), key: z.string().min(1).max(128) })
  .strict()
  .describe("A vault secret, read when a call runs; its value is never returned, logged or shown in a result");

export const SecretVariablesSchema = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "a variable name"), SecretReferenceSchema)
  .refine((vars) => Object.keys(vars).length <= EXECUTION_LIMITS.secrets, {
    message: `at most ${EXECUTION_LIMITS.secrets} secret variables`,
  })
  .describe("Variables whose values come from vault secrets");

const bounded = (name: keyof typeof EXECUTION_RESOURCES, integer: boolean, what: string) => {
  const r = EXECUTION_RESOURCES[name];
  const base = integer ? z.number().int() : z.number();
  return base.min(r.min).max(r.max).optional().describe(`${what} (default ${r.default}, ${r.min} to ${r.max})`);
};

export const ResourcesSchema = z
  .object({
    memoryMb: bounded("memoryMb", true, "Memory of one call, MiB"),
    cpus: bounded("cpus", false, "CPU share of one call, in cores (where the host delegates cgroups)"),
    pids: bounded("pids", true, "Processes and threads of one call"),
    timeoutMs: bounded("timeoutMs", true, "Longest a call may run; a tool's `timeoutMs` can only shorten it"),
    workspaceMb: bounded("workspaceMb", true, "Size of the session's workspace, MiB"),
  })
  .strict();

/** As stored and returned: every field filled in. */
export const ResolvedResourcesSchema = z.object({
  memoryMb: z.number().int(),
  cpus: z.number(),
  pids: z.number().int(),
  timeoutMs: z.number().int(),
  workspaceMb: z.number().int(),
});

export type Networking = z.infer<typeof NetworkingSchema>;
export type Packages = z.infer<typeof PackagesSchema>;
export type SecretReference = z.infer<typeof SecretReferenceSchema>;
export type Resources = z.infer<typeof ResourcesSchema>;
export type ResolvedResources = z.infer<typeof ResolvedResourcesSchema>;

export function resolveResources(resources: Resources | undefined | null): ResolvedResources {
  const pick = (name: keyof typeof EXECUTION_RESOURCES) => resources?.[name] ?? EXECUTION_RESOURCES[name].default;
  return {
    memoryMb: pick("memoryMb"),
    cpus: pick("cpus"),
    pids: pick("pids"),
    timeoutMs: pick("timeoutMs"),
    workspaceMb: pick("workspaceMb"),
  };
}
