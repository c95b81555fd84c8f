import type { Artifact } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useClient } from "../auth/session.js";
import { LongText } from "../components/long-text.js";
import { Markdown } from "../components/markdown.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatBytes, formatTime } from "../lib/format.js";

/** Text shown in the page is read whole up to this size; larger artifacts open in their own tab. */
const PREVIEW_BYTES = 512 * 1024;

const isText = (type: string) => /^text\/|\/(json|xml|yaml|x-yaml|csv|markdown)\b/.test(type);
const isImage = (type: string) => /^image\/(png|jpeg|gif|webp)$/.test(type);

/**
 * The session's deliverables (`artifact_write`, browser screenshots): each with its versions, opened in a new tab from
 * its signed link, or read here. Their content is untrusted like any model output: Markdown is rendered without HTML,
 * other text shown as text.
 */
export function ArtifactsPanel({ sessionId, version }: { sessionId: string; version: number }) {
  const client = useClient();
  const artifacts = useQuery({
    queryKey: ["session", sessionId, "artifacts", version],
    queryFn: () => client.artifacts.list(sessionId),
    placeholderData: (previous) => previous,
  });
  return (
    <section aria-labelledby="artifacts-heading">
      <h2 id="artifacts-heading">Artifacts</h2>
      <QueryState query={artifacts}>
        {(list) =>
          list.data.length === 0 ? (
            <p className="muted">No artifact yet: agents write them with the artifact_write tool.</p>
          ) : (
            <ul className="artifacts">
              {list.data.map((artifact) => (
                <ArtifactItem key={artifact.name} artifact={artifact} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function ArtifactItem({ artifact }: { artifact: Artifact }) {
  const [open, setOpen] = useState(false);
  const sameOrigin = new URL(artifact.url, window.location.href).origin === window.location.origin;
  const readable =
    sameOrigin && artifact.bytes <= PREVIEW_BYTES && (isText(artifact.contentType) || isImage(artifact.contentType));
  return (
    <li>
      <strong>{artifact.name}</strong>{" "}
      <span className="muted small">
        v{artifact.latestVersion} · {artifact.contentType} · {formatBytes(artifact.bytes)} ·{" "}
        {formatTime(artifact.updatedAt)}
      </span>
      <div>
        <a href={artifact.url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
        {readable && (
          <>
            {" · "}
            <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? "Hide" : "Read here"}
            </button>
          </>
        )}
        {artifact.versions.length > 1 && <span className="muted small"> · {artifact.versions.length} versions</span>}
      </div>
      {open && <ArtifactContent artifact={artifact} />}
    </li>
  );
}

function ArtifactContent({ artifact }: { artifact: Artifact }) {
  const content = useQuery({
    queryKey: ["artifact", artifact.url],
    enabled: isText(artifact.contentType),
    queryFn: async () => {
      const response = await fetch(artifact.url);
      if (!response.ok) throw new Error(`The link answered ${response.status}`);
      return response.text();
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (isImage(artifact.contentType)) return <img src={artifact.url} alt={artifact.name} className="artifact-image" />;
  if (content.isPending) return <p className="loading">Reading…</p>;
  if (content.isError) return <ErrorNote error={content.error} />;
  return /markdown|\.md$/.test(`${artifact.contentType} ${artifact.name}`) ? (
    <div className="artifact-text">
      <Markdown text={content.data} />
    </div>
  ) : (
    <LongText text={content.data} />
  );
}
