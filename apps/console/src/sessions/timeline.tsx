import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { LiveReplyEntry } from "./entries/live-reply-entry.js";
import { MessageEntry } from "./entries/message-entry.js";
import { EntryView, QUIET_TYPES } from "./entries/registry.js";
import { ToolEntry } from "./entries/tool-entry.js";
import type { LiveReply } from "./live-reply.js";
import type { PendingAction } from "./pending.js";
import { rowSearchText, type TimelineRow } from "./timeline-rows.js";

type Item = TimelineRow | { kind: "live"; key: string; reply: LiveReply };

const searchTexts = new WeakMap<TimelineRow, string>();
function searchTextOf(row: TimelineRow): string {
  let text = searchTexts.get(row);
  if (text === undefined) {
    text = rowSearchText(row);
    searchTexts.set(row, text);
  }
  return text;
}

/**
 * The log as a virtualised list: only the rows in view (and a few around) are in the DOM, each measured once shown,
 * so a log of thousands of entries scrolls as smoothly as a short one. While the view is at the bottom, new rows and
 * the reply being written keep it there (a live log reads like a chat). Rows out of view are out of reach of the
 * browser's find, so the log has its own search (every row, jumping to each match), and the usage and turn status rows
 * can be hidden.
 */
export function Timeline({
  rows,
  replies,
  durations,
  childSessions,
  pending,
  renderPending,
  actionsFor,
  provisional = false,
}: {
  rows: TimelineRow[];
  replies: LiveReply[];
  durations: Map<number, number>;
  /** Child session of a delegation, by tool-use id (when its result does not name it). */
  childSessions: Map<string, string>;
  pending: PendingAction[];
  renderPending(action: PendingAction): ReactNode;
  actionsFor(row: TimelineRow): ReactNode;
  /** Live text may be withdrawn: the agent's output guardrails check each reply before it is final. */
  provisional?: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [hideUsage, setHideUsage] = useState(false);
  const [hideStatus, setHideStatus] = useState(false);
  const [query, setQuery] = useState("");
  const needle = useDeferredValue(query.trim().toLowerCase());
  const [current, setCurrent] = useState(0);
  const atBottom = useRef(true);

  const items = useMemo<Item[]>(() => {
    const hidden = (row: TimelineRow) =>
      row.kind === "event" &&
      ((hideUsage && QUIET_TYPES.usage.has(row.entry.type)) || (hideStatus && QUIET_TYPES.status.has(row.entry.type)));
    const shown: Item[] = rows.filter((row) => !hidden(row));
    for (const reply of replies) shown.push({ kind: "live", key: `live-${reply.key}`, reply });
    return shown;
  }, [rows, replies, hideUsage, hideStatus]);
  const matches = useMemo(() => {
    if (!needle) return [];
    const found: number[] = [];
    items.forEach((item, index) => {
      if (item.kind !== "live" && searchTextOf(item).includes(needle)) found.push(index);
    });
    return found;
  }, [items, needle]);
  const matchSet = useMemo(() => new Set(matches), [matches]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 80,
    overscan: 8,
    // Rows render in React's next batch rather than synchronously inside each scroll event: a fast scroll then renders
    // once per frame instead of once per event (long tasks on a long log).
    useFlushSync: false,
    getItemKey: (index) => items[index]!.key,
  });

  const liveLength = replies.reduce((n, r) => n + r.text.length + r.reasoning.length, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reply growing (liveLength) keeps the view at the bottom too
  useEffect(() => {
    if (atBottom.current && items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
  }, [items.length, liveLength, virtualizer]);

  const jump = (to: number) => {
    if (matches.length === 0) return;
    const index = (to + matches.length) % matches.length;
    setCurrent(index);
    atBottom.current = false;
    virtualizer.scrollToIndex(matches[index]!, { align: "center" });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the search changes, not when the log grows
  useEffect(() => {
    setCurrent(0);
    if (matches.length > 0) {
      atBottom.current = false;
      virtualizer.scrollToIndex(matches[0]!, { align: "center" });
    }
  }, [needle]);

  const toggle = (key: string) =>
    setCollapsed((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const pendingById = new Map(pending.map((action) => [action.toolUseId, action]));

  return (
    <>
      <div className="log-tools">
        <input
          type="search"
          aria-label="Search the log"
          placeholder="Search the log"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              jump(current + (e.shiftKey ? -1 : 1));
            }
          }}
        />
        {needle && (
          <span aria-live="polite">
            {matches.length === 0 ? "no match" : `match ${current + 1} of ${matches.length}`}
          </span>
        )}
        {matches.length > 1 && (
          <>
            <button type="button" onClick={() => jump(current - 1)}>
              Previous
            </button>
            <button type="button" onClick={() => jump(current + 1)}>
              Next
            </button>
          </>
        )}
        <label className="inline small">
          <input type="checkbox" checked={hideUsage} onChange={(e) => setHideUsage(e.target.checked)} /> Hide usage
        </label>
        <label className="inline small">
          <input type="checkbox" checked={hideStatus} onChange={(e) => setHideStatus(e.target.checked)} /> Hide turn
          starts and ends
        </label>
      </div>
      <div
        ref={scroller}
        className="timeline"
        role="log"
        aria-label="Session log"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus so that keyboards scroll it
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((virtual) => {
            const item = items[virtual.index]!;
            const match = matchSet.has(virtual.index);
            return (
              <div
                key={virtual.key}
                data-index={virtual.index}
                ref={virtualizer.measureElement}
                className={match ? `row match${matches[current] === virtual.index ? " current" : ""}` : "row"}
                style={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  width: "100%",
                  transform: `translateY(${virtual.start}px)`,
                }}
              >
                {item.kind === "live" ? (
                  <LiveReplyEntry reply={item.reply} provisional={provisional} />
                ) : (
                  <RowView
                    row={item}
                    open={!collapsed.has(item.key)}
                    onToggle={() => toggle(item.key)}
                    pendingAction={item.kind === "tool" ? pendingById.get(item.use.id) : undefined}
                    child={item.kind === "tool" ? childSessions.get(item.use.id) : undefined}
                    renderPending={renderPending}
                    durations={durations}
                    actions={actionsFor(item)}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}

function RowView({
  row,
  open,
  onToggle,
  pendingAction,
  child,
  renderPending,
  durations,
  actions,
}: {
  row: TimelineRow;
  open: boolean;
  onToggle(): void;
  pendingAction: PendingAction | undefined;
  child: string | undefined;
  renderPending(action: PendingAction): ReactNode;
  durations: Map<number, number>;
  actions: ReactNode;
}) {
  if (row.kind === "message") return <MessageEntry row={row} actions={actions} />;
  if (row.kind === "tool") {
    return (
      <ToolEntry
        row={
          child && !row.childSessions.includes(child) ? { ...row, childSessions: [...row.childSessions, child] } : row
        }
        open={open}
        onToggle={onToggle}
        actions={pendingAction ? renderPending(pendingAction) : null}
      />
    );
  }
  const duration = durations.get(row.entry.seq);
  return (
    <>
      <EntryView entry={row.entry} {...(duration !== undefined ? { duration } : {})} />
      {actions}
    </>
  );
}
