// biome-ignore-all lint/suspicious/noUndeclaredEnvVars: read in the container at run time, not by a turbo task
// The container image's HEALTHCHECK: GET /healthz on the port the server listens on (exit 0 when it answers 200).
// A ROLE=worker process serves no HTTP: it is healthy while it runs (the container stops when it exits).
if (process.env.ROLE === "worker") process.exit(0);
const host = !process.env.HOST || process.env.HOST === "0.0.0.0" ? "127.0.0.1" : process.env.HOST;
const url = `http://${host.includes(":") ? `[${host === "::" ? "::1" : host}]` : host}:${process.env.PORT || 3000}/healthz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2500) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
