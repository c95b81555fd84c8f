import http from "node:http";

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  medianMs: number;
  p95Ms: number;
}

export interface LoadRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

function send(agent: http.Agent, origin: URL, req: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const r = http.request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: req.method,
        path: req.path,
        headers: {
          ...req.headers,
          ...(req.body ? { "content-type": "application/json", "content-length": Buffer.byteLength(req.body) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`${req.method} ${req.path} answered ${res.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

/** `total` requests from `concurrency` keep-alive clients; `next(i)` builds request i. Bounded and self-stopping. */
export async function runLoad(
  baseUrl: string,
  total: number,
  concurrency: number,
  next: (i: number) => LoadRequest,
): Promise<LoadResult> {
  const origin = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < total) {
        const i = issued++;
        latencies.push(await send(agent, origin, next(i)));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    seconds,
    perSecond: total / seconds,
    medianMs: latencies[Math.floor(latencies.length / 2)]!,
    p95Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.95) - 1)]!,
  };
}
