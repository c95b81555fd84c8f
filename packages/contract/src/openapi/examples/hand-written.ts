import type { Json, JsonObject } from "../json.js";
import { EXAMPLE_LOG_ENTRIES } from "./log-entries.js";

export interface OperationExamples {
  parameters?: Record<string, Json>;
  request?: Json;
  /** Laid over the response's required fields sampled from its schema. */
  response?: Json;
}

const PROJECT_ID = "proj_01JD3Z9X4B2C6D8E0F2G4H6J8K";
const AGENT_ID = "agent_01JD3ZK0V7N9QW2E4R6T8Y0U1I";
const SESSION_ID = "sess_01JD3ZM0P2Q4R6S8T0U2V4W6X8";
const SKILL_ID = "skill_01JD3ZQ1A3B5C7D9E1F3G5H7J9";

const AGENT_CONFIG = {
  name: "Support triage",
  description: "Reads new tickets and drafts a first answer",
  // A model every install has, so that the example works as is from /docs ("Try it out").
  model: "builtin/script",
  system: "You triage customer support tickets. Label each ticket and draft a short, friendly first answer.",
  tools: ["web_fetch"],
  toolPermissions: { web_fetch: "always_ask" },
  metadata: { team: "support" },
};

const AGENT: JsonObject = {
  id: AGENT_ID,
  projectId: PROJECT_ID,
  version: 3,
  ...AGENT_CONFIG,
  mcpServers: [{ name: "tickets", url: "https://mcp.example.com/tickets", headerKeys: ["Authorization"] }],
  skills: [{ skillId: SKILL_ID, version: 2 }],
  knowledgeBases: [],
  serverlessTools: [],
  createdAt: "2026-01-12T09:30:00.000Z",
  updatedAt: "2026-01-14T16:05:12.418Z",
  archivedAt: null,
};

const MESSAGE = {
  type: "user.message",
  content: [{ type: "text", text: "Ticket #4821: the export button does nothing." }],
};

const SESSION: JsonObject = {
  id: SESSION_ID,
  projectId: PROJECT_ID,
  agent: { id: AGENT_ID, version: 3 },
  title: "Ticket #4821",
  metadata: { ticket: "4821" },
  status: "running",
  stopReason: null,
  pendingActions: [],
  environmentId: "env_01JD3Z9X4B2C6D8E0F2G4H6J8M",
  vaultIds: [],
  resources: [],
  parentSessionId: null,
  lastSeq: 1,
  createdAt: "2026-01-15T10:00:00.000Z",
  updatedAt: "2026-01-15T10:00:00.000Z",
  archivedAt: null,
};

const SKILL_MANIFEST = {
  name: "release-notes",
  description: "Writes release notes from a list of merged changes",
  entry: "SKILL.md",
};

const SKILL_FILES = [
  {
    path: "SKILL.md",
    content:
      "---\nname: release-notes\ndescription: Writes release notes from a list of merged changes\n---\n\nGroup the changes by area, newest first.\n",
  },
  { path: "templates/notes.md", content: "## {{version}}\n\n{{changes}}\n" },
];

const SKILL: JsonObject = {
  id: SKILL_ID,
  name: "release-notes",
  description: SKILL_MANIFEST.description,
  currentVersion: 2,
  version: 2,
  manifest: SKILL_MANIFEST,
  files: [
    {
      path: "SKILL.md",
      contentType: "text/markdown",
      bytes: 131,
      sha256: "9f2c4e6a8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a",
    },
    {
      path: "templates/notes.md",
      contentType: "text/markdown",
      bytes: 29,
      sha256: "1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d",
    },
  ],
  totalBytes: 160,
  versionCreatedAt: "2026-01-10T08:00:00.000Z",
  createdAt: "2026-01-02T08:00:00.000Z",
  updatedAt: "2026-01-10T08:00:00.000Z",
  archivedAt: null,
};

/** Realistic examples of the main operations; the others get values sampled from their schemas. */
export const HAND_WRITTEN_EXAMPLES: Record<string, OperationExamples> = {
  "agents.create": {
    parameters: { projectId: PROJECT_ID },
    request: AGENT_CONFIG,
    response: { ...AGENT, version: 1, mcpServers: [], skills: [], updatedAt: AGENT.createdAt },
  },
  "agents.get": { parameters: { projectId: PROJECT_ID, id: AGENT_ID }, response: AGENT },
  "agents.list": {
    parameters: { projectId: PROJECT_ID, limit: 20, status: "active", name: "triage" },
    response: { data: [AGENT], hasMore: false, nextCursor: null },
  },
  "sessions.create": {
    parameters: { projectId: PROJECT_ID },
    request: { agent: AGENT_ID, title: "Ticket #4821", metadata: { ticket: "4821" }, events: [MESSAGE] },
    response: SESSION,
  },
  "sessions.ingestEvents": {
    parameters: { projectId: PROJECT_ID, id: SESSION_ID },
    request: {
      events: [
        { ...MESSAGE, content: [{ type: "text", text: "Also check the CSV export." }], idempotencyKey: "msg-4821-2" },
      ],
    },
    response: {
      events: [
        {
          seq: 7,
          id: "evt_01JD3ZN4B6C8D0E2F4G6H8J0K2",
          type: "user.message",
          idempotencyKey: "msg-4821-2",
          duplicate: false,
        },
      ],
      session: { ...SESSION, lastSeq: 7, updatedAt: "2026-01-15T10:02:00.000Z" },
    },
  },
  "sessions.listEvents": {
    parameters: { projectId: PROJECT_ID, id: SESSION_ID, afterSeq: 0, limit: 100 },
    response: {
      data: EXAMPLE_LOG_ENTRIES,
      hasMore: false,
      nextAfterSeq: 3,
    },
  },
  "skills.create": {
    request: { manifest: SKILL_MANIFEST, files: SKILL_FILES },
    response: { ...SKILL, currentVersion: 1, version: 1 },
  },
  "skills.get": { parameters: { id: SKILL_ID }, response: SKILL },
  "skills.list": {
    parameters: { limit: 20, status: "active", name: "release" },
    response: {
      data: [
        {
          id: SKILL_ID,
          name: SKILL.name,
          description: SKILL.description,
          currentVersion: 2,
          createdAt: SKILL.createdAt,
          updatedAt: SKILL.updatedAt,
          archivedAt: null,
        },
      ],
      hasMore: false,
      nextCursor: null,
    },
  },
};
