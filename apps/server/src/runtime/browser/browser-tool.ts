import type { Page } from "playwright-core";
import { z } from "zod";
import { ArtifactLimitError, writeArtifact } from "../../artifacts/index.js";
import { checkEgress } from "../../governance/index.js";
import { defineBuiltinTool } from "../tools/define-tool.js";
import { sessionEgressPolicy } from "../tools/egress/session-egress.js";
import { fail, ok } from "../tools/tool-result.js";
import type { RuntimeTool, ToolResult, ToolRunContext } from "../tools/types.js";
import { BrowserUnavailable } from "./browser-provider.js";
import type { BrowserTooling } from "./browser-tooling.js";
import { landingChecked, lostOrFailed } from "./call-outcome.js";
import {
  type ActionTimeouts,
  BROWSER_LIMITS,
  click,
  goBack,
  navigate,
  PageActionError,
  pageText,
  screenshot,
  typeInto,
} from "./page-actions.js";
import { sessionOpenRequest } from "./session-request.js";
import { hasCrashed } from "./traced-context.js";

export { RECORDING_ARTIFACT } from "./session-request.js";
export const SCREENSHOT_ARTIFACT = "browser-screenshot.png";

const READ_ACTIONS = ["navigate", "read", "back", "screenshot"] as const;
const ALL_ACTIONS = [...READ_ACTIONS, "click", "type"] as const;

const text = (max: number) => z.string().min(1).max(max);

const Input = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("navigate"), url: text(BROWSER_LIMITS.urlLength) }).strict(),
    z
      .object({
        action: z.literal("read"),
        offset: z.number().int().min(0).optional(),
        maxChars: z.number().int().min(1).max(BROWSER_LIMITS.maxReadChars).optional(),
      })
      .strict(),
    z.object({ action: z.literal("back") }).strict(),
    z.object({ action: z.literal("screenshot"), fullPage: z.boolean().optional() }).strict(),
    z
      .object({
        action: z.literal("click"),
        text: text(BROWSER_LIMITS.textLength).optional(),
        selector: text(1_000).optional(),
      })
      .strict(),
    z
      .object({
        action: z.literal("type"),
        label: text(1_000).optional(),
        selector: text(1_000).optional(),
        text: z.string().max(BROWSER_LIMITS.textLength),
        submit: z.boolean().optional(),
      })
      .strict(),
  ])
  .superRefine((input, issues) => {
    if (input.action === "click" && (input.text === undefined) === (input.selector === undefined)) {
      issues.addIssue({ code: "custom", message: "give exactly one of `text` and `selector`", path: ["text"] });
    }
    if (input.action === "type" && (input.label === undefined) === (input.selector === undefined)) {
      issues.addIssue({ code: "custom", message: "give exactly one of `label` and `selector`", path: ["label"] });
    }
  });

type BrowserInput = z.output<typeof Input>;

function inputSchema(actions: readonly string[]): Record<string, unknown> {
  const interactive = actions.includes("click");
  return {
    type: "object",
    properties: {
      action: { type: "string", enum: [...actions], description: "What to do" },
      url: { type: "string", description: "navigate: absolute http(s) URL", maxLength: BROWSER_LIMITS.urlLength },
      offset: { type: "integer", minimum: 0, description: "read: first character (default 0)" },
      maxChars: {
        type: "integer",
        minimum: 1,
        maximum: BROWSER_LIMITS.maxReadChars,
        description: `read: at most this many characters (default ${BROWSER_LIMITS.readChars})`,
      },
      fullPage: { type: "boolean", description: "screenshot: the whole page rather than the viewport" },
      ...(interactive
        ? {
            text: {
              type: "string",
              description: "click: visible text of the link or button; type: the text to enter",
            },
            selector: { type: "string", description: "click/type: a CSS selector, instead of `text`/`label`" },
            label: { type: "string", description: "type: the field's label, placeholder or name" },
            submit: { type: "boolean", description: "type: press Enter afterwards (submits the form)" },
          }
        : {}),
    },
    required: ["action"],
    additionalProperties: false,
  };
}

function description(actions: readonly string[]): string {
  const interactive = actions.includes("click");
  return (
    "Use a real web browser (JavaScript runs). The page stays open between calls of this turn. Actions: " +
    "`navigate` {url} opens a page; `read` {offset?, maxChars?} returns the page as text with links as " +
    "[text](href) and its form fields; `back` goes to the previous page; `screenshot` {fullPage?} saves a PNG of " +
    `the page as the session artifact "${SCREENSHOT_ARTIFACT}"` +
    (interactive
      ? "; `click` {text | selector} clicks a link or button; `type` {label | selector, text, submit?} fills a field."
      : ".") +
    " After a navigation" +
    (interactive ? ", click or typing" : "") +
    ` the page's text (first ${BROWSER_LIMITS.snapshotChars} characters) comes back. Only hosts allowed by the egress ` +
    "policy are reached, never internal addresses; downloads are refused."
  );
}

function timeouts(tooling: BrowserTooling): ActionTimeouts {
  return { navigationMs: tooling.settings.navigationTimeoutMs, actionMs: tooling.settings.actionTimeoutMs };
}

/** The page of the context: the newest tab (a link opening a new tab moves there), or a new one. */
async function currentPage(pages: Page[], open: () => Promise<Page>): Promise<Page> {
  const live = pages.filter((p) => !p.isClosed() && !hasCrashed(p));
  return live[live.length - 1] ?? open();
}

async function act(tooling: BrowserTooling, input: BrowserInput, page: Page, run: ToolRunContext): Promise<ToolResult> {
  const t = timeouts(tooling);
  switch (input.action) {
    case "navigate":
      return ok(await navigate(page, input.url, t));
    case "read":
      return ok(await pageText(page, input.offset ?? 0, input.maxChars ?? BROWSER_LIMITS.readChars));
    case "back":
      return ok(await goBack(page, t));
    case "click":
      return ok(await click(page, input, t));
    case "type":
      return ok(await typeInto(page, input, input.text, input.submit ?? false, t));
    default: {
      const png = await screenshot(page, input.fullPage ?? false);
      const written = await writeArtifact(run.ctx.db.pool, {
        sessionId: run.session.id,
        projectId: run.session.projectId,
        name: SCREENSHOT_ARTIFACT,
        content: png,
        contentType: "image/png",
      });
      return ok(
        `Screenshot of ${page.url()} saved as artifact "${written.name}" version ${written.version} ` +
          `(${written.bytes} bytes, PNG).`,
      );
    }
  }
}

function checkNavigation(url: string, policy: Parameters<typeof checkEgress>[0]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Not a valid absolute URL: ${url.slice(0, 200)}`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `Only http and https URLs can be opened (got ${parsed.protocol})`;
  }
  const decision = checkEgress(policy, parsed);
  return decision.allowed ? null : `${decision.reason}. URL not opened: ${parsed.href}`;
}

function makeTool(tooling: BrowserTooling, actions: readonly string[]): RuntimeTool {
  const tool = defineBuiltinTool({
    name: "browser",
    description: description(actions),
    inputSchema: inputSchema(actions),
    input: Input,
    async run(input, run) {
      if (!actions.includes(input.action)) {
        return fail(`The browser action "${input.action}" is not available here (read-only: ${actions.join(", ")})`);
      }
      const sessionId = run.session.id;
      const policy = await sessionEgressPolicy(run);
      tooling.policies.set(sessionId, policy);
      if (input.action === "navigate") {
        const refused = checkNavigation(input.url, policy);
        if (refused) return fail(refused);
      }
      try {
        return await tooling.contexts.use(
          sessionId,
          () => sessionOpenRequest(tooling, run, policy),
          run.signal,
          async (opened) => {
            const attempt = async () => {
              const page = await currentPage(opened.context.pages(), () => opened.context.newPage());
              const done = await act(tooling, input, page, run);
              return opened.checksLanding ? landingChecked(done, page, tooling, sessionId) : done;
            };
            const result = await attempt().catch((error: unknown) => {
              if (error instanceof ArtifactLimitError) return fail(error.message);
              if (error instanceof PageActionError) return fail(error.message);
              if (run.signal.aborted) throw error;
              return lostOrFailed(tooling, sessionId, opened, input.action, error);
            });
            const refusals = opened.takeRefusals();
            if (refusals.length === 0) return result;
            const note = `\n\nBlocked by the egress rules (not contacted):\n${refusals.map((r) => `- ${r}`).join("\n")}`;
            return { ...result, content: `${result.content}${note}` };
          },
        );
      } catch (error) {
        if (error instanceof BrowserUnavailable) return fail(error.message);
        throw error;
      }
    },
  });
  return tool;
}

/**
 * The `browser` tool of a session. Under read confinement only its read-only actions remain (navigate, read, back,
 * screenshot): `readOnlyView`.
 */
export function browserTool(tooling: BrowserTooling): RuntimeTool {
  const readOnlyView = { ...makeTool(tooling, READ_ACTIONS), readOnly: true };
  return { ...makeTool(tooling, ALL_ACTIONS), readOnlyView };
}
