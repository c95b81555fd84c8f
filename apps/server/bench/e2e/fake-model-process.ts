// An instant OpenAI-compatible model on loopback (the tests' fake: it echoes the last user message), in its own process.
import { startFakeOpenAI } from "../../test/support/fake-openai.js";

const fake = await startFakeOpenAI();
process.stdout.write(`LISTENING ${fake.url}\n`);
