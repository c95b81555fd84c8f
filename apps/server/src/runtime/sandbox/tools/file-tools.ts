import { z } from "zod";
import { defineBuiltinTool } from "../../tools/define-tool.js";
import { fail, ok } from "../../tools/tool-result.js";
import type { RuntimeTool, ToolResult } from "../../tools/types.js";
import type { CodeExecution, ExecResult } from "../code-execution.js";
import { quotaNote, redact, stoppedBy } from "./exec-text.js";
import { runInSandbox } from "./run-in-sandbox.js";

export const FILE_TOOL_LIMITS = {
  pathLength: 4096,
  readLines: 2000,
  readBytes: 256 * 1024,
  writeBytes: 5 * 1024 * 1024,
  editBytes: 2 * 1024 * 1024,
  listed: 1000,
} as const;

const Path = z.string().min(1).max(FILE_TOOL_LIMITS.pathLength);
const PATH_DOC = "Path relative to /workspace (or absolute inside the sandbox)";

/** A failed call's reason: what the script said on stderr, or the limit that stopped it. */
function failure(result: ExecResult): ToolResult {
  const stop = stoppedBy(result);
  return fail(
    stop ?? (redact(result.stderr.toString("utf8"), result.secrets).trim() || `exit code ${result.exitCode}`),
  );
}

const READ = `f="$1"; start="$2"; count="$3"
[ -e "$f" ] || { echo "No such file: $f" >&2; exit 3; }
[ -f "$f" ] || { echo "Not a regular file: $f" >&2; exit 3; }
size=$(stat -c %s -- "$f")
if [ "$size" -gt 0 ] && ! head -c 8192 -- "$f" | grep -qI . ; then echo "BINARY $size"; exit 0; fi
echo "LINES $(wc -l < "$f") $size"
sed -n "\${start},$((start + count - 1))p" -- "$f"`;

export function fileReadTool(execution: CodeExecution): RuntimeTool {
  return defineBuiltinTool({
    name: "file_read",
    description:
      `Read a text file of the session's workspace: lines from \`offset\` (1-based, default 1), at most \`limit\` ` +
      `(default and most ${FILE_TOOL_LIMITS.readLines}). The result says how many lines the file has.`,
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: PATH_DOC },
        offset: { type: "integer", minimum: 1, description: "First line (default 1)" },
        limit: { type: "integer", minimum: 1, maximum: FILE_TOOL_LIMITS.readLines, description: "Lines to read" },
      },
      required: ["path"],
      additionalProperties: false,
    },
    input: z
      .object({
        path: Path,
        offset: z.number().int().min(1).optional(),
        limit: z.number().int().min(1).max(FILE_TOOL_LIMITS.readLines).optional(),
      })
      .strict(),
    run: (input, run) => {
      const start = input.offset ?? 1;
      const count = input.limit ?? FILE_TOOL_LIMITS.readLines;
      return runInSandbox(
        execution,
        run,
        {
          script: READ,
          args: [input.path, String(start), String(count)],
          writes: false,
          maxOutputBytes: FILE_TOOL_LIMITS.readBytes,
        },
        (result) => {
          if (result.exitCode !== 0) return failure(result);
          const text = redact(result.stdout.toString("utf8"), result.secrets);
          const newline = text.indexOf("\n");
          const head = newline === -1 ? text : text.slice(0, newline);
          if (head.startsWith("BINARY "))
            return ok(`${input.path} is a binary file (${head.slice(7)} bytes): not shown`);
          const [, lines, bytes] = head.split(" ");
          const body = newline === -1 ? "" : text.slice(newline + 1);
          const shownLines = body === "" ? 0 : body.split("\n").length - (body.endsWith("\n") ? 1 : 0);
          const end = start + shownLines - 1;
          const cut = result.stdoutDropped > 0 ? ` (cut after ${FILE_TOOL_LIMITS.readBytes} bytes)` : "";
          const range =
            shownLines > 0 ? `lines ${start}–${end} of ${lines}` : `no lines from ${start} (the file has ${lines})`;
          return ok(`${input.path}: ${range}, ${bytes} bytes${cut}\n${body}`);
        },
      );
    },
  });
}

const WRITE = `f="$1"; mkdir -p -- "$(dirname -- "$f")" && cat > "$f"`;

export function fileWriteTool(execution: CodeExecution): RuntimeTool {
  return defineBuiltinTool({
    name: "file_write",
    description:
      "Create or replace a file of the session's workspace with the given text (parent folders are created). Files " +
      "under /workspace/outputs become artifacts of the session at the end of the turn.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: PATH_DOC },
        content: { type: "string", description: "The whole new content" },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    input: z
      .object({
        path: Path,
        content: z.string().refine((c) => Buffer.byteLength(c) <= FILE_TOOL_LIMITS.writeBytes, {
          message: `at most ${FILE_TOOL_LIMITS.writeBytes} bytes`,
        }),
      })
      .strict(),
    run: (input, run) =>
      runInSandbox(
        execution,
        run,
        { script: WRITE, args: [input.path], stdin: input.content, writes: true },
        (result) => {
          if (result.exitCode !== 0) return failure(result);
          const quota = quotaNote(result);
          const written = `Wrote ${Buffer.byteLength(input.content)} bytes to ${input.path}.`;
          return quota ? fail(`${written} ${quota}`) : ok(written);
        },
      ),
  });
}

const CAT = `f="$1"; [ -f "$f" ] || { echo "No such file: $f" >&2; exit 3; }; cat -- "$f"`;

export function fileEditTool(execution: CodeExecution): RuntimeTool {
  return defineBuiltinTool({
    name: "file_edit",
    description:
      "Replace an exact string in a text file of the session's workspace. `oldText` must occur exactly once (give " +
      "enough surrounding text), unless `replaceAll` is true.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: PATH_DOC },
        oldText: { type: "string", description: "The exact text to replace" },
        newText: { type: "string", description: "The replacement" },
        replaceAll: { type: "boolean", description: "Replace every occurrence (default false)" },
      },
      required: ["path", "oldText", "newText"],
      additionalProperties: false,
    },
    input: z
      .object({ path: Path, oldText: z.string().min(1), newText: z.string(), replaceAll: z.boolean().optional() })
      .strict(),
    async run(input, run) {
      let current: string | undefined;
      const read = await runInSandbox(
        execution,
        run,
        { script: CAT, args: [input.path], writes: false, maxOutputBytes: FILE_TOOL_LIMITS.editBytes },
        (result) => {
          if (result.exitCode !== 0) return failure(result);
          if (result.stdoutDropped > 0)
            return fail(`${input.path} is larger than ${FILE_TOOL_LIMITS.editBytes} bytes: edit it with bash`);
          current = result.stdout.toString("utf8");
          return ok("");
        },
      );
      if (current === undefined) return read;
      const count = current.split(input.oldText).length - 1;
      if (count === 0) return fail(`oldText was not found in ${input.path}`);
      if (count > 1 && !input.replaceAll) {
        return fail(`oldText occurs ${count} times in ${input.path}: give more surrounding text, or set replaceAll`);
      }
      const updated = input.replaceAll
        ? current.split(input.oldText).join(input.newText)
        : current.replace(input.oldText, () => input.newText);
      return runInSandbox(
        execution,
        run,
        { script: WRITE, args: [input.path], stdin: updated, writes: true },
        (result) =>
          result.exitCode !== 0
            ? failure(result)
            : ok(`Replaced ${input.replaceAll ? count : 1} occurrence(s) in ${input.path}.`),
      );
    },
  });
}

const LIST = `shopt -s globstar nullglob dotglob
cd /workspace || exit 3
n=0
for f in $1; do
  [ -f "$f" ] || continue
  if [ "$n" -ge "$2" ]; then echo "MORE"; break; fi
  stat -c '%s %n' -- "$f"
  n=$((n + 1))
done`;

export function fileListTool(execution: CodeExecution): RuntimeTool {
  return defineBuiltinTool({
    name: "file_list",
    description:
      `List the files of the session's workspace matching a glob (bash globstar: \`**/*.py\`, \`src/*\`; default ` +
      `\`**\`: every file), with their sizes; at most ${FILE_TOOL_LIMITS.listed}.`,
    inputSchema: {
      type: "object",
      properties: { pattern: { type: "string", description: "Glob relative to /workspace (default `**`)" } },
      additionalProperties: false,
    },
    input: z.object({ pattern: z.string().min(1).max(1_000).optional() }).strict(),
    run: (input, run) =>
      runInSandbox(
        execution,
        run,
        {
          script: LIST,
          args: [input.pattern ?? "**", String(FILE_TOOL_LIMITS.listed)],
          writes: false,
          maxOutputBytes: 512 * 1024,
        },
        (result) => {
          if (result.exitCode !== 0) return failure(result);
          const lines = result.stdout.toString("utf8").split("\n").filter(Boolean);
          const more = lines.at(-1) === "MORE";
          const files = (more ? lines.slice(0, -1) : lines).map((line) => {
            const space = line.indexOf(" ");
            return `${line.slice(space + 1)} (${line.slice(0, space)} bytes)`;
          });
          if (files.length === 0) return ok(`No file matches ${input.pattern ?? "**"}`);
          const note = more ? `\n[only the first ${FILE_TOOL_LIMITS.listed} files are listed]` : "";
          return ok(`${files.join("\n")}${note}`);
        },
      ),
  });
}
