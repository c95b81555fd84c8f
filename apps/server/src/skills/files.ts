import { createHash } from "node:crypto";
import { contentTypeOf } from "./content-type.js";

/** A file as stored: its text plus what the platform derives from it. */
export interface StoredSkillFile {
  path: string;
  content: string;
  contentType: string;
  /** UTF-8 byte length of `content`. */
  bytes: number;
  /** Hex SHA-256 of the UTF-8 bytes of `content`. */
  sha256: string;
}

/** Orders paths by UTF-16 code units: deterministic and independent of any database collation. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Derives content type, byte length and digest of each file (already validated by the contract); path order. */
export function prepareSkillFiles(files: readonly { path: string; content: string }[]): StoredSkillFile[] {
  return files
    .map((file) => ({
      path: file.path,
      content: file.content,
      contentType: contentTypeOf(file.path),
      bytes: Buffer.byteLength(file.content, "utf8"),
      sha256: createHash("sha256").update(file.content, "utf8").digest("hex"),
    }))
    .sort((a, b) => comparePaths(a.path, b.path));
}

export function totalBytesOf(files: readonly { bytes: number }[]): number {
  return files.reduce((sum, file) => sum + file.bytes, 0);
}
