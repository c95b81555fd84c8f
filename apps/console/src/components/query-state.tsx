import { isApiError } from "@agent-platform/sdk";
import type { ReactNode } from "react";

export function errorMessage(error: unknown): string {
  if (isApiError(error)) return `${error.message} (${error.code})`;
  return (error as Error)?.message ?? String(error);
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {errorMessage(error)}
    </p>
  );
}

/** Loading and error states of a query, then its data. */
export function QueryState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p className="loading">Loading…</p>;
  if (query.isError) return <ErrorNote error={query.error} />;
  return <>{children(query.data as T)}</>;
}
