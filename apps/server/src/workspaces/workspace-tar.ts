import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { extract, pack } from "tar-stream";

/**
 * Workspace archives are read and written in memory, on the host: their entries are data, never paths on the host's
 * disk, so a symbolic link planted in a workspace is only ever an entry of type `symlink` here.
 */
export interface TarEntry {
  /** Relative to /workspace, without `./`. */
  path: string;
  type: "file" | "directory" | "symlink" | "other";
  /** Regular files only. */
  content?: Buffer;
  size: number;
  mode: number;
  mtime: Date;
  linkname?: string;
}

export function normalizeEntryPath(name: string): string {
  return name
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "")
    .replace(/\/+$/, "");
}

export async function readTar(gz: Buffer): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const path = normalizeEntryPath(header.name);
        if (path) {
          const type =
            header.type === "file" || header.type === "contiguous-file"
              ? "file"
              : header.type === "directory"
                ? "directory"
                : header.type === "symlink"
                  ? "symlink"
                  : "other";
          entries.push({
            path,
            type,
            ...(type === "file" ? { content: Buffer.concat(chunks) } : {}),
            size: header.size ?? 0,
            mode: header.mode ?? 0o644,
            mtime: header.mtime ?? new Date(0),
            ...(header.linkname ? { linkname: header.linkname } : {}),
          });
        }
        next();
      });
      stream.resume();
    });
    ex.on("finish", resolve);
    ex.on("error", reject);
  });
  Readable.from([gunzipSync(gz)]).pipe(ex);
  await done;
  return entries;
}

/** A tar.gz of the entries (files, folders and links, as they are). */
export async function writeTar(entries: TarEntry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    p.on("end", resolve);
    p.on("error", reject);
  });
  for (const entry of entries) {
    if (entry.type === "file") {
      p.entry(
        { name: entry.path, type: "file", mode: entry.mode, mtime: entry.mtime },
        entry.content ?? Buffer.alloc(0),
      );
    } else if (entry.type === "directory") {
      p.entry({ name: entry.path, type: "directory", mode: entry.mode, mtime: entry.mtime });
    } else if (entry.type === "symlink" && entry.linkname) {
      p.entry({ name: entry.path, type: "symlink", linkname: entry.linkname, mode: entry.mode, mtime: entry.mtime });
    }
  }
  p.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}
