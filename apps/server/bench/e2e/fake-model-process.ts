// An OpenAI-compatible model on loopback (the tests' fake: it echoes the last user message), in its own process.
// FAKE_MODEL_DELAY_MS makes every reply wait that long first (a real provider's latency); instant by default.
import { lastUserText, startFakeOpenAI } from "../../test/support/fake-openai.js";

const fake = await startFakeOpenAI();
const delayMs = Number(process.env.FAKE_MODEL_DELAY_MS ?? 0);
if (delayMs > 0) fake.respondWith((request) => ({ text: lastUserText(request.body), delayMs }));
// The load runs for a while: keep no record of requests.
setInterval(() => {
  fake.requests.length = 0;
}, 5_000).unref();
process.stdout.write(`LISTENING ${fake.url}\n`);
