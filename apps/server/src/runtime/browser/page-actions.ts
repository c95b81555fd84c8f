import type { Locator, Page, Request, Response } from "playwright-core";
import { htmlToText } from "../tools/http/html-to-text.js";

export const BROWSER_LIMITS = {
  /** Characters of page text returned after a navigation, click, typing or going back. */
  snapshotChars: 8_000,
  /** Characters `read` returns by default, and at most. */
  readChars: 20_000,
  maxReadChars: 100_000,
  /** Form fields and buttons listed under the text. */
  fields: 40,
  urlLength: 4096,
  textLength: 10_000,
} as const;

export interface ActionTimeouts {
  navigationMs: number;
  actionMs: number;
}

/** The proxy marks the responses it refused itself; their body is the reason. */
export const EGRESS_REFUSED_HEADER = "x-agent-platform-egress";

export class PageActionError extends Error {}

interface FieldInfo {
  tag: string;
  type: string;
  label: string;
  name: string;
  placeholder: string;
}

/**
 * Runs in the page: inputs, text areas, selects and buttons, as the model can name them for `type` and `click`. Kept as
 * source text: it is evaluated in the browser, not in Node.js.
 */
const FIELDS_SCRIPT = `(max) => Array.from(document.querySelectorAll(
  "input:not([type=hidden]), textarea, select, button, [role=button]")).slice(0, max).map((el) => {
    const labelled = (el.labels && el.labels[0] && el.labels[0].textContent) || el.getAttribute("aria-label") || "";
    const button = el.tagName === "BUTTON" || el.getAttribute("role") === "button";
    const text = button ? el.textContent || "" : el.type === "submit" ? el.value || "" : "";
    return {
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute("type") || "",
      label: (labelled || text).trim().replace(/\\s+/g, " ").slice(0, 80),
      name: el.getAttribute("name") || "",
      placeholder: el.getAttribute("placeholder") || "",
    };
  })`;

async function listFields(page: Page): Promise<string[]> {
  const fields = await page
    .evaluate<FieldInfo[]>(`(${FIELDS_SCRIPT})(${BROWSER_LIMITS.fields})`)
    .catch(() => [] as FieldInfo[]);
  return fields.map((f) => {
    const parts = [f.type ? `${f.tag}[type=${f.type}]` : f.tag];
    if (f.label) parts.push(`"${f.label}"`);
    if (f.name) parts.push(`name=${f.name}`);
    if (f.placeholder) parts.push(`placeholder="${f.placeholder.slice(0, 80)}"`);
    return `- ${parts.join(" ")}`;
  });
}

/** The page as readable text (links kept as `[text](href)`), from `offset`, at most `maxChars`, with its fields. */
export async function pageText(page: Page, offset: number, maxChars: number): Promise<string> {
  const url = page.url();
  const [title, html] = await Promise.all([page.title().catch(() => ""), page.content()]);
  const text = htmlToText(html, url);
  const slice = text.slice(offset, offset + maxChars);
  const header = [`URL: ${url}`, `Title: ${title || "(none)"}`];
  if (offset > 0 || offset + maxChars < text.length) {
    header.push(
      `Text: characters ${offset}–${offset + slice.length} of ${text.length}` +
        (offset + maxChars < text.length ? ` (cut: read with offset ${offset + slice.length} for more)` : ""),
    );
  }
  const fields = await listFields(page);
  const form = fields.length > 0 ? `\n\nFields and buttons:\n${fields.join("\n")}` : "";
  return `${header.join("\n")}\n\n${slice}${form}`;
}

/** How long an action may take to start a navigation before the page is taken as it is. */
const NAVIGATION_GRACE_MS = 500;

/**
 * Watches for a navigation that the action about to run may start (a link, a submit): once it has run, `settled()`
 * waits for that navigation's document to load, or returns after a short grace when none started.
 */
function watchNavigation(page: Page, timeouts: ActionTimeouts): { settled(): Promise<void> } {
  let onStart: () => void = () => {};
  const started = new Promise<boolean>((resolve) => {
    onStart = () => resolve(true);
  });
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) onStart();
  };
  page.on("request", onRequest);
  // Registered now: the new document may load before `settled()` is called.
  const loaded = page.waitForEvent("domcontentloaded", { timeout: timeouts.navigationMs }).catch(() => {});
  return {
    async settled() {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), NAVIGATION_GRACE_MS);
      });
      const navigating = await Promise.race([started, grace]);
      clearTimeout(timer);
      page.off("request", onRequest);
      if (navigating) await loaded;
    },
  };
}

async function refusalOf(response: Response | null): Promise<string | null> {
  if (!response) return null;
  if (response.headers()[EGRESS_REFUSED_HEADER] !== "refused") return null;
  return (await response.text().catch(() => "Refused by the egress rules")).slice(0, 1_000);
}

export async function navigate(page: Page, url: string, timeouts: ActionTimeouts): Promise<string> {
  const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeouts.navigationMs });
  const refused = await refusalOf(response);
  if (refused) throw new PageActionError(`${refused} URL not opened: ${url}`);
  const status = response ? `Status: ${response.status()}\n` : "";
  return `${status}${await pageText(page, 0, BROWSER_LIMITS.snapshotChars)}`;
}

export async function goBack(page: Page, timeouts: ActionTimeouts): Promise<string> {
  const response = await page.goBack({ waitUntil: "domcontentloaded", timeout: timeouts.navigationMs });
  if (!response && page.url() === "about:blank") throw new PageActionError("There is no page to go back to");
  return pageText(page, 0, BROWSER_LIMITS.snapshotChars);
}

function cssLocator(page: Page, selector: string): Locator {
  return page.locator(selector).first();
}

/** A link or button by its accessible name, else any element with that visible text. */
function byText(page: Page, text: string): Locator {
  return page
    .getByRole("link", { name: text })
    .or(page.getByRole("button", { name: text }))
    .or(page.getByText(text))
    .first();
}

/** A field by its label, placeholder or name attribute. */
function fieldByLabel(page: Page, label: string): Locator {
  const quoted = JSON.stringify(label);
  return page
    .getByLabel(label)
    .or(page.getByPlaceholder(label))
    .or(page.locator(`[name=${quoted}]`))
    .first();
}

async function found(locator: Locator, what: string, timeouts: ActionTimeouts): Promise<Locator> {
  try {
    await locator.waitFor({ state: "visible", timeout: timeouts.actionMs });
    return locator;
  } catch {
    throw new PageActionError(`No visible element ${what} on the page (waited ${timeouts.actionMs} ms)`);
  }
}

export async function click(
  page: Page,
  target: { text?: string | undefined; selector?: string | undefined },
  timeouts: ActionTimeouts,
): Promise<string> {
  const what = target.selector ? `matches the selector ${target.selector}` : `has the text "${target.text}"`;
  const locator = await found(
    target.selector ? cssLocator(page, target.selector) : byText(page, target.text!),
    what,
    timeouts,
  );
  const navigation = watchNavigation(page, timeouts);
  await locator.click({ timeout: timeouts.actionMs });
  await navigation.settled();
  return pageText(page, 0, BROWSER_LIMITS.snapshotChars);
}

export async function typeInto(
  page: Page,
  target: { label?: string | undefined; selector?: string | undefined },
  text: string,
  submit: boolean,
  timeouts: ActionTimeouts,
): Promise<string> {
  const what = target.selector ? `matches the selector ${target.selector}` : `is labelled "${target.label}"`;
  const locator = await found(
    target.selector ? cssLocator(page, target.selector) : fieldByLabel(page, target.label!),
    what,
    timeouts,
  );
  await locator.fill(text, { timeout: timeouts.actionMs });
  if (submit) {
    const navigation = watchNavigation(page, timeouts);
    await locator.press("Enter", { timeout: timeouts.actionMs });
    await navigation.settled();
  }
  return pageText(page, 0, BROWSER_LIMITS.snapshotChars);
}

export async function screenshot(page: Page, fullPage: boolean): Promise<Uint8Array> {
  return page.screenshot({ type: "png", fullPage });
}
