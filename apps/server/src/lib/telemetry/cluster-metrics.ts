import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";
import { mergePrometheusTexts } from "./prometheus-merge.js";

// `GET /metrics` under a supervisor (PROCESSES > 1): the child that takes the scrape asks the supervisor, which asks
// every child for its own text and answers with them merged (each sample labelled `child="<index>"`), so one scrape of
// the shared port sees every process.

const ASK = "agent-platform:metrics-ask"; // child → supervisor: every child's metrics, please
const REQUEST = "agent-platform:metrics-request"; // supervisor → each child: yours
const REPLY = "agent-platform:metrics-reply"; // child → supervisor: mine
const GATHERED = "agent-platform:metrics-gathered"; // supervisor → the asking child: everyone's, merged

interface Message {
  type: string;
  id: string;
  text?: string;
}

const isMessage = (m: unknown, type: string): m is Message =>
  (m as Message | null)?.type === type && typeof (m as Message).id === "string";

/** How long the supervisor waits for a child's text (one that does not answer is left out, and said so). */
const CHILD_TIMEOUT_MS = 2_000;
/** How long a child waits for the supervisor before it answers with its own metrics alone. */
const GATHER_TIMEOUT_MS = 5_000;

/**
 * The metrics text `GET /metrics` answers with: in a child of the supervisor, every child's, merged (the child also
 * answers the supervisor's requests for its own from now on); otherwise the process's own.
 */
export function clusterMetrics(own: () => Promise<string>): () => Promise<string> {
  if (!cluster.isWorker || !process.send) return own;
  const waiting = new Map<string, (text: string | null) => void>();
  process.on("message", (message: unknown) => {
    if (isMessage(message, REQUEST)) {
      own().then(
        (text) => process.send?.({ type: REPLY, id: message.id, text }),
        (error: unknown) => process.send?.({ type: REPLY, id: message.id, text: `# failed to collect: ${error}\n` }),
      );
    } else if (isMessage(message, GATHERED)) {
      waiting.get(message.id)?.(message.text ?? null);
    }
  });
  return () =>
    new Promise<string | null>((resolve) => {
      const id = randomUUID();
      // Settled either way, the request is forgotten (a late answer finds nothing waiting).
      const settle = (text: string | null) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(text);
      };
      const timer = setTimeout(() => settle(null), GATHER_TIMEOUT_MS);
      waiting.set(id, settle);
      process.send!({ type: ASK, id });
      // A supervisor that did not answer leaves this child's own metrics.
    }).then((text) => text ?? own());
}

/**
 * The supervisor's side: answers a child's request for every child's metrics. `children()` lists the live children
 * with their index (the `child` label). Call `handle` with each message a child sends.
 */
export function metricsHub(children: () => { index: number; worker: Worker }[]) {
  const pending = new Map<string, (text: string) => void>();
  return {
    handle(from: Worker, message: unknown): void {
      if (isMessage(message, REPLY)) {
        pending.get(message.id)?.(message.text ?? "");
        return;
      }
      if (!isMessage(message, ASK)) return;
      const asked = children().map(
        ({ index, worker }) =>
          new Promise<{ child: string; text: string }>((resolve) => {
            const id = randomUUID();
            const done = (text: string) => {
              clearTimeout(timer);
              pending.delete(id);
              resolve({ child: String(index), text });
            };
            const timer = setTimeout(() => done(`# child ${index} did not answer in time\n`), CHILD_TIMEOUT_MS);
            pending.set(id, done);
            try {
              worker.send({ type: REQUEST, id });
            } catch {
              done(`# child ${index} could not be asked\n`);
            }
          }),
      );
      void Promise.all(asked).then((parts) => {
        if (!from.isDead()) from.send({ type: GATHERED, id: message.id, text: mergePrometheusTexts(parts) });
      });
    },
  };
}
