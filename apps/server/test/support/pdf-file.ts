/** A PDF with one line of text per page (Helvetica, uncompressed), as a generator would write it. */
export function pdfOf(pages: string[]): string {
  const objects = ["<</Type/Catalog/Pages 2 0 R>>", ""];
  const kids: string[] = [];
  for (const text of pages) {
    const stream = `BT /F1 12 Tf 72 700 Td (${text}) Tj ET`;
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    objects.push(
      `<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents ${page + 1} 0 R/Resources<</Font<</F1 99 0 R>>>>>>`,
    );
    objects.push(`<</Length ${stream.length}>>\nstream\n${stream}\nendstream`);
  }
  objects[1] = `<</Type/Pages/Kids[${kids.join(" ")}]/Count ${pages.length}>>`;
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  const all = [
    ...objects.map((o, i) => [i + 1, o] as const),
    [99, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"] as const,
  ];
  for (const [n, o] of all) {
    offsets[n] = pdf.length;
    pdf += `${n} 0 obj\n${o}\nendobj\n`;
  }
  const xref = pdf.length;
  pdf += `xref\n0 100\n0000000000 65535 f \n`;
  for (let n = 1; n < 100; n++) {
    pdf += offsets[n] !== undefined ? `${String(offsets[n]).padStart(10, "0")} 00000 n \n` : "0000000000 65535 f \n";
  }
  pdf += `trailer\n<</Size 100/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1").toString("base64");
}
