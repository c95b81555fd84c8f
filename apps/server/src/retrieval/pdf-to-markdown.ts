import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A file that is not a PDF pdf.js can read (or one without any text). */
export class UnreadablePdf extends Error {}

/**
 * The text of a PDF's pages as Markdown-like text, one `## Page n` section per page (so that a passage's heading path
 * says which page it is on), read with Mozilla's pdf.js (`pdfjs-dist`, imported when the first PDF arrives). Scripts
 * are not evaluated (`isEvalSupported: false`), fonts are not loaded into anything: only the text layer is read.
 */
export async function pdfToMarkdown(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const fonts = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;
  let document: Awaited<ReturnType<typeof getDocument>["promise"]>;
  try {
    document = await getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: fonts,
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw new UnreadablePdf(`not a PDF that can be read (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str + (item.hasEOL ? "\n" : item.str.endsWith(" ") || item.str === "" ? "" : " ");
      }
      const cleaned = text
        .replace(/[ \t]+\n/g, "\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      if (cleaned) pages.push(`## Page ${n}\n\n${cleaned}`);
      page.cleanup();
    }
    if (pages.length === 0) throw new UnreadablePdf("the PDF has no text (a scan needs OCR, which is not done here)");
    return pages.join("\n\n");
  } finally {
    await document.destroy();
  }
}
