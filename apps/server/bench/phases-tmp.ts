import { HttpClient } from "./e2e/targets.ts";

const [url, key] = process.argv.slice(2);
const auth = { authorization: `Bearer ${key}` };
const c = new HttpClient(url!, auth, 1);
const ctx = JSON.parse((await c.request("GET", "/v1/platform/context")).body);
const base = `/v1/projects/${ctx.project.id}`;
const agent = JSON.parse(
  (await c.request("POST", `${base}/agents`, { name: "a", model: "openai-compatible/fake-model", system: "x" })).body,
).id;
const t = { create: [] as number[], post: [] as number[], follow: [] as number[] };
for (let i = 0; i < 120; i++) {
  const t0 = performance.now();
  const s = JSON.parse((await c.request("POST", `${base}/sessions`, { agent })).body).id;
  const t1 = performance.now();
  const res = await c.request("POST", `${base}/sessions/${s}/events`, {
    events: [{ type: "user.message", content: [{ type: "text", text: "hi" }] }],
  });
  const t2 = performance.now();
  const after = JSON.parse(res.body).events[0].seq;
  await c.follow(`${base}/sessions/${s}/events/stream?afterSeq=${after}`, (x) => x.includes("session.status_idle"));
  const t3 = performance.now();
  if (i >= 20) {
    t.create.push(t1 - t0);
    t.post.push(t2 - t1);
    t.follow.push(t3 - t2);
  }
}
const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(2);
console.log("create", med(t.create), "post", med(t.post), "follow", med(t.follow));
c.close();
