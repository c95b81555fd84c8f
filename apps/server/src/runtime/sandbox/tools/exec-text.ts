import type { ExecResult } from "../code-execution.js";

/** Characters of stdout and of stderr shown to the model. */
export const SHOWN_CHARS = 30_000;

/** Secret values never reach the model: each is replaced by its variable's name. */
export function redact(text: string, secrets: ExecResult["secrets"]): string {
  let out = text;
  for (const [name, value] of secrets) {
    if (value.length >= 4) out = out.split(value).join(`[secret ${name}]`);
  }
  return out;
}

function shown(bytes: Buffer, dropped: number, secrets: ExecResult["secrets"]): string {
  const text = redact(bytes.toString("utf8"), secrets);
  const cut = text.length > SHOWN_CHARS ? text.slice(0, SHOWN_CHARS) : text;
  const more = text.length - cut.length;
  if (more === 0 && dropped === 0) return cut;
  const notShown = more > 0 ? `${more} more characters` : "";
  const droppedText = dropped > 0 ? `${dropped} more bytes` : "";
  return `${cut}\n[cut: ${[notShown, droppedText].filter(Boolean).join(" and ")} not shown]`;
}

/** Why a call was stopped, when a limit stopped it (null otherwise). */
export function stoppedBy(result: ExecResult): string | null {
  const l = result.limits;
  if (result.aborted) return "Interrupted: every process of the call was stopped.";
  if (result.timedOut) return `Timed out after ${l.timeoutMs} ms: every process of the call was killed.`;
  if (result.oomKilled) return `Killed: the call went past its memory limit (${l.memoryMb} MiB).`;
  if (result.pidsLimited) return `Stopped: the call reached its process limit (${l.pids} processes and threads).`;
  if (result.exitCode === 153 || /File size limit exceeded/.test(result.stderr.toString("utf8"))) {
    return `A file reached the size limit (${l.workspaceMb} MiB).`;
  }
  if (result.signal === "SIGXCPU" || result.exitCode === 152) return "Stopped: the call used up its CPU time.";
  return null;
}

export function quotaNote(result: ExecResult): string | null {
  if (result.overQuota === null) return null;
  const mb = (result.overQuota / (1024 * 1024)).toFixed(1);
  return (
    `The workspace holds ${mb} MiB, more than its ${result.limits.workspaceMb} MiB quota: delete files, or it will ` +
    "not be saved at the end of the turn."
  );
}

/** The result text of a `bash` call: exit code, stdout, stderr, and what stopped it. */
export function bashText(result: ExecResult): { text: string; isError: boolean } {
  const stop = stoppedBy(result);
  const quota = quotaNote(result);
  const parts = [`Exit code: ${result.exitCode ?? `none (killed by ${result.signal ?? "a signal"})`}`];
  if (stop) parts.push(stop);
  if (quota) parts.push(quota);
  const stdout = shown(result.stdout, result.stdoutDropped, result.secrets);
  const stderr = shown(result.stderr, result.stderrDropped, result.secrets);
  parts.push(`--- stdout ---\n${stdout || "(empty)"}`);
  if (stderr) parts.push(`--- stderr ---\n${stderr}`);
  return { text: parts.join("\n"), isError: result.exitCode !== 0 || stop !== null || quota !== null };
}
