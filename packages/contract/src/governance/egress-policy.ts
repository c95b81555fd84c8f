import { z } from "zod";
import { idOf, NullableTimestamp } from "../common/fields.js";
import { c, routerOptions } from "../common/router.js";

/** Limits of one list; the same as the agent's `egressPolicy`. */
export const EGRESS_DOMAINS_MAX = 256;

export const DomainPatternSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    /^(\*|(\*\.)?[^\s/?#@\\*%]+)$/,
    "a host (`example.com`), a wildcard (`*.example.com`), an IP literal, optionally `:port`, or `*`",
  );

const domainList = z.array(DomainPatternSchema).max(EGRESS_DOMAINS_MAX);

export const PutEgressPolicySchema = z
  .object({
    allowedDomains: domainList
      .optional()
      .describe("When present, only these hosts are reachable (`[]`: none). Absent: every host not denied"),
    deniedDomains: domainList.optional().describe("Hosts never reachable, whatever an agent says"),
  })
  .strict()
  .describe("The complete workspace egress policy (it replaces the previous one; `{}` allows every host)");

export const WorkspaceEgressPolicySchema = z
  .object({
    workspaceId: idOf("ws"),
    allowedDomains: z.array(z.string()).optional().describe("Absent: every host not denied is reachable"),
    deniedDomains: z.array(z.string()).optional(),
    updatedAt: NullableTimestamp.describe("Null while the workspace still has the default policy"),
  })
  .describe(
    "Workspace egress policy: the hosts web_fetch, the browser and serverless tools may reach. An agent's `egressPolicy` is " +
      "merged with it and can only narrow it (denied lists are united, allowlists intersected).",
  );

export const governanceContract = c.router(
  {
    getEgressPolicy: {
      method: "GET",
      path: "/v1/governance/egress-policy",
      responses: { 200: WorkspaceEgressPolicySchema },
      summary: "Get the workspace egress policy",
      description: "Any key of the workspace may read it. Default (never set): every host allowed.",
    },
    putEgressPolicy: {
      method: "PUT",
      path: "/v1/governance/egress-policy",
      body: PutEgressPolicySchema,
      responses: { 200: WorkspaceEgressPolicySchema },
      summary: "Replace the workspace egress policy (admin key)",
      description:
        "Patterns: `example.com` (that host, any port), `*.example.com` (its subdomains, not itself), " +
        "`example.com:8443` (that port only), IP literals (`127.0.0.1`, `::1`), `*` (every host). Case-insensitive; " +
        "internationalised names match their punycode form. Takes effect at once, also for running sessions.",
    },
  },
  routerOptions,
);

export type PutEgressPolicy = z.infer<typeof PutEgressPolicySchema>;
export type WorkspaceEgressPolicy = z.infer<typeof WorkspaceEgressPolicySchema>;
