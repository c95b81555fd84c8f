import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/** The path whose heading last took focus: the first page of a load keeps focus where the browser put it. */
let focusedPath = typeof window === "undefined" ? "" : window.location.pathname;

/**
 * A page's `<h1>`: it names the browser tab (`title · Agent Platform`) and, after a navigation inside the console,
 * takes the focus, so that a screen reader announces the new page and Tab continues from its top (the browser does
 * neither for a single-page app).
 */
export function PageHeading({ children, title }: { children?: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${title} · Agent Platform`;
  }, [title]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the heading takes focus when the path changes
  useEffect(() => {
    const path = window.location.pathname;
    if (path !== focusedPath) {
      focusedPath = path;
      ref.current?.focus();
    }
  }, [pathname]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children ?? title}
    </h1>
  );
}
