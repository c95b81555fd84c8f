import { type ReactNode, useState } from "react";

export type SearchMode = "hybrid" | "semantic" | "fulltext";

export interface SearchRequest {
  query: string;
  mode: SearchMode;
  limit: number;
}

const MODES: { value: SearchMode; label: string }[] = [
  { value: "hybrid", label: "hybrid (words and meaning)" },
  { value: "semantic", label: "semantic (meaning only)" },
  { value: "fulltext", label: "full text (words only)" },
];

/**
 * The search box of a knowledge base or memory store: the query, the mode and how many hits, plus the caller's
 * filters (`children`); searches on submit.
 */
export function SearchForm({
  label,
  maxLimit,
  pending,
  onSearch,
  children,
}: {
  label: string;
  maxLimit: number;
  pending: boolean;
  onSearch(request: SearchRequest): void;
  children?: ReactNode;
}) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<SearchMode>("hybrid");
  const [limit, setLimit] = useState(Math.min(10, maxLimit));
  return (
    <search aria-label={label}>
      <form
        className="inline-form search-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) onSearch({ query: query.trim(), mode, limit });
        }}
      >
        <label className="grow">
          Search
          <input
            type="search"
            value={query}
            maxLength={1000}
            placeholder="a question, or words"
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as SearchMode)}>
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Hits
          <input
            type="number"
            min={1}
            max={maxLimit}
            value={limit}
            onChange={(e) => setLimit(Math.max(1, Math.min(maxLimit, Number(e.target.value) || 1)))}
          />
        </label>
        {children}
        <button type="submit" className="primary" disabled={pending || !query.trim()}>
          {pending ? "Searching…" : "Search"}
        </button>
      </form>
    </search>
  );
}
