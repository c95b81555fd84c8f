import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Markdown } from "../components/markdown.js";
import { formatTime } from "../lib/format.js";
import { EventRow } from "./event-row.js";
import type { PendingAction } from "./pending.js";
import type { TimelineRow } from "./timeline-rows.js";
import { ToolRow } from "./tool-row.js";

/**
 * The log as a virtualised list: only the rows in view (and a few around) are in the DOM, each measured once shown,
 * so a log of thousands of entries scrolls as smoothly as a short one. While the view is at the bottom, new rows keep
 * it there (a live log reads like a chat).
 */
export function Timeline({
  rows,
  childSessions,
  pending,
  renderPending,
}: {
  rows: TimelineRow[];
  /** Child session of a delegation, by tool-use id (when its result does not name it). */
  childSessions: Map<string, string>;
  pending: PendingAction[];
  renderPending(action: PendingAction): ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 80,
    overscan: 8,
    // Rows render in React's next batch rather than synchronously inside each scroll event: a fast scroll then renders
    // once per frame instead of once per event (long tasks on a long log).
    useFlushSync: false,
    getItemKey: (index) => rows[index]!.key,
  });

  useEffect(() => {
    if (atBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  }, [rows.length, virtualizer]);

  const toggle = (key: string) =>
    setCollapsed((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const pendingById = new Map(pending.map((action) => [action.toolUseId, action]));

  return (
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
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="row"
              style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${item.start}px)` }}
            >
              <RowView
                row={row}
                open={!collapsed.has(row.key)}
                onToggle={() => toggle(row.key)}
                pendingAction={row.kind === "tool" ? pendingById.get(row.use.id) : undefined}
                child={row.kind === "tool" ? childSessions.get(row.use.id) : undefined}
                renderPending={renderPending}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RowView({
  row,
  open,
  onToggle,
  pendingAction,
  child,
  renderPending,
}: {
  row: TimelineRow;
  open: boolean;
  onToggle(): void;
  pendingAction: PendingAction | undefined;
  child: string | undefined;
  renderPending(action: PendingAction): ReactNode;
}) {
  if (row.kind === "message") {
    return (
      <article className={`entry message ${row.role}`} aria-label={`${row.role} message`}>
        <header>
          <strong>{row.role === "user" ? "User" : "Agent"}</strong>{" "}
          <time dateTime={row.entry.createdAt}>{formatTime(row.entry.createdAt)}</time>
        </header>
        <Markdown text={row.text} />
      </article>
    );
  }
  if (row.kind === "tool") {
    return (
      <ToolRow
        row={
          child && !row.childSessions.includes(child) ? { ...row, childSessions: [...row.childSessions, child] } : row
        }
        open={open}
        onToggle={onToggle}
        actions={pendingAction ? renderPending(pendingAction) : null}
      />
    );
  }
  return <EventRow entry={row.entry} />;
}
