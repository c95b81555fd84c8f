import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Deployment } from "kubernetes-models/apps/v1";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Secret, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { documentedVariables, envFileEntries, IMAGE_MIGRATE_COMMAND, imageUid, repoFile } from "./deploy-files.js";
import { unknownFields } from "./unknown-fields.js";

/**
 * deploy/kubernetes, checked offline: every object against the Kubernetes API's own schemas (kubernetes-models: the
 * JSON schemas of the API's OpenAPI document, compiled), then what docs/operating.md promises of them.
 */

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML; the schemas below check their shape.
type Manifest = Record<string, any>;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "batch/v1/Job": Job,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};

/** The models' TypeScript declarations, for the unknown-field check. */
const MODEL_PATHS: Record<string, string> = {
  "v1/Namespace": "v1/Namespace",
  "v1/ConfigMap": "v1/ConfigMap",
  "v1/Secret": "v1/Secret",
  "v1/Service": "v1/Service",
  "apps/v1/Deployment": "apps/v1/Deployment",
  "batch/v1/Job": "batch/v1/Job",
  "policy/v1/PodDisruptionBudget": "policy/v1/PodDisruptionBudget",
};

const DIR = repoFile("deploy/kubernetes");
const kustomization = parseYaml(readFileSync(join(DIR, "kustomization.yaml"), "utf8")) as Manifest;

/** The Secret kustomize generates from an env file (secretGenerator: `envs`), from the committed example. */
function generatedSecrets(): Manifest[] {
  return (kustomization.secretGenerator ?? []).map((generator: Manifest) => {
    const data: Record<string, string> = {};
    for (const file of generator.envs) {
      const example = join(DIR, `${file}.example`);
      expect(existsSync(example), `${file}.example is committed`).toBe(true);
      for (const [key, value] of envFileEntries(example)) data[key] = Buffer.from(value).toString("base64");
    }
    return { apiVersion: "v1", kind: "Secret", metadata: { name: generator.name }, type: "Opaque", data };
  });
}

const objects: Manifest[] = [
  ...kustomization.resources.flatMap((file: string) =>
    parseAllDocuments(readFileSync(join(DIR, file), "utf8")).map((doc) => doc.toJS() as Manifest),
  ),
  ...generatedSecrets(),
];
const find = (kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  expect(found, `${kind} ${name}`).toBeDefined();
  return found!;
};
const api = find("Deployment", "agent-platform-api");
const worker = find("Deployment", "agent-platform-worker");
const job = find("Job", "agent-platform-migrate");
const config = find("ConfigMap", "agent-platform");
const secret = find("Secret", "agent-platform");
const containerOf = (workload: Manifest) => workload.spec.template.spec.containers[0] as Manifest;
const envOf = (workload: Manifest) =>
  Object.fromEntries((containerOf(workload).env ?? []).map((e: Manifest) => [e.name, e.value]));
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels?.[key] === value);

describe("deploy/kubernetes", () => {
  it("lists files that exist, and each object is valid against the Kubernetes API schemas", () => {
    expect(kustomization.kind).toBe("Kustomization");
    for (const file of kustomization.resources) expect(existsSync(join(DIR, file)), file).toBe(true);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, `a schema for ${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata?.name}`).not.toThrow();
    }
    // The check can fail: a malformed object is refused.
    const broken = structuredClone(api);
    broken.spec.replicas = "two";
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it("names no field the Kubernetes API does not know (kubectl's strict validation)", () => {
    const typed = objects.map((object) => ({ model: MODEL_PATHS[`${object.apiVersion}/${object.kind}`]!, object }));
    expect(unknownFields(typed)).toEqual([]);
    // The check can fail: a misspelt probe is named.
    const misspelt = structuredClone(api);
    misspelt.spec.template.spec.containers[0].readinesProbe = misspelt.spec.template.spec.containers[0].readinessProbe;
    expect(unknownFields([{ model: "apps/v1/Deployment", object: misspelt }]).join("\n")).toMatch(
      /readinesProbe.* does not exist/,
    );
  }, 60_000);

  it("runs every workload as the image's unprivileged user with the image kustomize sets", () => {
    expect(kustomization.images).toEqual([expect.objectContaining({ name: "agent-platform" })]);
    for (const workload of [api, worker, job]) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: imageUid() });
      expect(containerOf(workload).image).toBe("agent-platform");
      expect(containerOf(workload).securityContext).toMatchObject({ allowPrivilegeEscalation: false });
    }
  });

  it("takes the secrets from the Secret and the settings from the ConfigMap, all of them documented", () => {
    for (const key of ["DATABASE_URL", "SECRETS_KEY", "BOOTSTRAP_API_KEY"]) expect(secret.data).toHaveProperty(key);
    for (const workload of [api, worker, job]) {
      const refs = containerOf(workload).envFrom.map((e: Manifest) => e.secretRef?.name ?? e.configMapRef?.name);
      expect(refs).toContain(secret.metadata.name);
    }
    for (const workload of [api, worker]) {
      expect(containerOf(workload).envFrom.map((e: Manifest) => e.configMapRef?.name)).toContain(config.metadata.name);
    }
    const documented = documentedVariables();
    const names = [
      ...Object.keys(secret.data),
      ...Object.keys(config.data),
      ...[api, worker].flatMap((w) => Object.keys(envOf(w))),
    ];
    for (const name of names) expect(documented.has(name), `${name} in docs/operating.md`).toBe(true);
  });

  it("serves the API behind a Service, ready on /readyz and alive on /healthz, one process per pod", () => {
    expect(envOf(api)).toMatchObject({ ROLE: "api", PROCESSES: "1" });
    const container = containerOf(api);
    const port = container.ports.find((p: Manifest) => p.name === "http");
    expect(port.containerPort).toBe(3000);
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    const service = find("Service", "agent-platform-api");
    expect(matches(service.spec.selector, api.spec.template.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].targetPort).toBe("http");
  });

  it("runs the workers without HTTP, one process per pod", () => {
    expect(envOf(worker)).toMatchObject({ ROLE: "worker", PROCESSES: "1" });
    expect(containerOf(worker).ports).toBeUndefined();
    expect(containerOf(worker).readinessProbe).toBeUndefined();
  });

  it("sizes every container with requests (and memory limits above them)", () => {
    const bytes = (q: string) => Number.parseFloat(q) * (q.endsWith("Gi") ? 1024 ** 3 : 1024 ** 2);
    for (const workload of [api, worker, job]) {
      const { requests, limits } = containerOf(workload).resources;
      expect(requests.cpu).toBeDefined();
      expect(bytes(limits.memory)).toBeGreaterThan(bytes(requests.memory));
      // A process peaked at 192–256 MiB of RSS under the benchmarks: the servers' requests hold that.
      if (workload !== job) expect(bytes(requests.memory)).toBeGreaterThanOrEqual(bytes("256Mi"));
    }
  });

  it("rolls out without losing capacity and drains within the grace period", () => {
    const shutdownMs = Number(config.data.SHUTDOWN_GRACE_MS);
    const drainMs = Number(config.data.WORKER_DRAIN_MS);
    for (const workload of [api, worker]) {
      expect(workload.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    }
    const preStop = containerOf(api).lifecycle.preStop.exec.command;
    expect(preStop[0]).toBe("sleep");
    const apiGrace = api.spec.template.spec.terminationGracePeriodSeconds;
    expect(apiGrace * 1000).toBeGreaterThan(Number(preStop[1]) * 1000 + shutdownMs);
    expect(worker.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
  });

  it("keeps pods through voluntary disruptions without blocking a node drain", () => {
    for (const workload of [api, worker]) {
      const budgets = objects.filter(
        (o) =>
          o.kind === "PodDisruptionBudget" &&
          matches(o.spec.selector.matchLabels, workload.spec.template.metadata.labels),
      );
      expect(budgets).toHaveLength(1);
      const { minAvailable, maxUnavailable } = budgets[0]!.spec;
      if (minAvailable !== undefined) expect(minAvailable).toBeLessThan(workload.spec.replicas);
      else expect(maxUnavailable).toBeGreaterThan(0);
    }
  });

  it("migrates with a Job running the image's migration command", () => {
    expect(containerOf(job).command).toEqual(IMAGE_MIGRATE_COMMAND);
    expect(["OnFailure", "Never"]).toContain(job.spec.template.spec.restartPolicy);
    // The command is packages/db's CLI, built from this source file.
    const source = IMAGE_MIGRATE_COMMAND[1]!.replace("/app/node_modules/@agent-platform/db/dist/", "packages/db/src/");
    expect(existsSync(repoFile(join(dirname(source), "migrate.ts")))).toBe(true);
  });
});
