import type { KnowledgeDocument } from "@agent-platform/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useClient } from "../auth/session.js";
import { fieldErrors } from "../components/field-errors.js";
import { FieldMessages } from "../components/field-messages.js";
import { FormErrors } from "../components/form-errors.js";
import { PairsEditor } from "../components/pairs-editor.js";
import { formatBytes } from "../lib/format.js";

type ContentType = KnowledgeDocument["contentType"];

const TYPES: { value: ContentType; label: string }[] = [
  { value: "text", label: "text (split by paragraphs)" },
  { value: "markdown", label: "Markdown (split by headings)" },
  { value: "html", label: "HTML (stored as the text it shows)" },
  { value: "pdf", label: "PDF (a file: the text of its pages)" },
];

/** The API takes a PDF of at most 7.5 MiB (in base64, within the request's limit). */
const PDF_MAX_BYTES = 7.5 * 1024 * 1024;

function typeOfFile(name: string): ContentType {
  const extension = name.toLowerCase().split(".").at(-1);
  if (extension === "pdf") return "pdf";
  if (extension === "md" || extension === "markdown") return "markdown";
  if (extension === "html" || extension === "htm") return "html";
  return "text";
}

/** Bytes as base64 (in slices: one `fromCharCode` call per byte of a 7 MB file would overflow the stack). */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/**
 * Adds a document: typed or pasted text, Markdown or HTML, or a file (a PDF is sent as base64; a text file is read into
 * the box). It is searchable by its words at once; the page shows its passages being embedded.
 */
export function AddDocument({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const client = useClient();
  const queries = useQueryClient();
  const [title, setTitle] = useState("");
  const [contentType, setContentType] = useState<ContentType>("markdown");
  const [content, setContent] = useState("");
  const [pdf, setPdf] = useState<{ name: string; base64: string; bytes: number } | undefined>();
  const [fileError, setFileError] = useState("");
  const [metadata, setMetadata] = useState<{ key: string; value: string }[]>([]);
  const add = useMutation({
    mutationFn: () =>
      client.knowledgeBases.createDocument(knowledgeBaseId, {
        title: title.trim(),
        contentType,
        content: contentType === "pdf" ? (pdf?.base64 ?? "") : content,
        ...(metadata.some((m) => m.key.trim())
          ? { metadata: Object.fromEntries(metadata.filter((m) => m.key.trim()).map((m) => [m.key.trim(), m.value])) }
          : {}),
      }),
    onSuccess: () => {
      setTitle("");
      setContent("");
      setPdf(undefined);
      setMetadata([]);
      void queries.invalidateQueries({ queryKey: ["knowledge-base", knowledgeBaseId] });
    },
  });
  const errors = fieldErrors(add.error, ["title", "content", "contentType", "metadata"]);
  const show = (field: string) => <FieldMessages messages={errors.byField.get(field)} />;

  async function readFile(file: File | undefined) {
    setFileError("");
    if (!file) return;
    const type = typeOfFile(file.name);
    setContentType(type);
    if (!title.trim()) setTitle(file.name.replace(/\.[^.]+$/, ""));
    if (type === "pdf") {
      if (file.size > PDF_MAX_BYTES) {
        setFileError(`${file.name} is ${formatBytes(file.size)}: a PDF may be at most 7.5 MB.`);
        return;
      }
      setPdf({ name: file.name, base64: base64Of(new Uint8Array(await file.arrayBuffer())), bytes: file.size });
    } else {
      setPdf(undefined);
      setContent(await file.text());
    }
  }

  const ready = title.trim() && (contentType === "pdf" ? pdf !== undefined : content.length > 0);
  return (
    <section aria-labelledby="add-document-heading">
      <h2 id="add-document-heading">Add a document</h2>
      <form
        className="inline-form add-document"
        aria-label="Add a document"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) add.mutate();
        }}
      >
        <label className="grow">
          Title
          <input value={title} maxLength={500} onChange={(e) => setTitle(e.target.value)} />
          {show("title")}
        </label>
        <label>
          Type
          <select value={contentType} onChange={(e) => setContentType(e.target.value as ContentType)}>
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From a file (optional)
          <input
            type="file"
            accept=".pdf,.md,.markdown,.html,.htm,.txt,text/plain,text/markdown,text/html,application/pdf"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
          {fileError && (
            <span className="field-error" role="alert">
              {fileError}
            </span>
          )}
        </label>
        {contentType === "pdf" ? (
          <p className="muted small full">
            {pdf
              ? `${pdf.name}, ${formatBytes(pdf.bytes)}: sent as base64.`
              : "Choose a PDF file (one with a text layer: scans are refused)."}
          </p>
        ) : (
          <label className="full">
            Content
            <textarea rows={8} value={content} onChange={(e) => setContent(e.target.value)} />
          </label>
        )}
        {show("content")}
        <div className="full">
          <span className="small muted">Metadata (searches can filter on it)</span>
          <PairsEditor
            pairs={metadata}
            onChange={setMetadata}
            labels={["Metadata key", "Metadata value"]}
            noun="metadata entry"
          />
          {show("metadata")}
        </div>
        <button type="submit" className="primary" disabled={add.isPending || !ready}>
          {add.isPending ? "Adding…" : "Add document"}
        </button>
        <FormErrors error={add.error} other={errors.other} />
        {add.isSuccess && (
          <p className="notice" role="status">
            Added “{add.data.title}”: {add.data.chunkCount} passages, searchable by their words now and by their meaning
            once embedded.
          </p>
        )}
      </form>
    </section>
  );
}
