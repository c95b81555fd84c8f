/**
 * Merges the Prometheus text expositions of several processes into one: each sample gets a `child` label naming its
 * process, and each metric family keeps one `# HELP`/`# TYPE` header with the samples of every process under it (the
 * format wants a family's lines together, once). Families keep the order in which they first appear.
 */
export function mergePrometheusTexts(parts: readonly { child: string; text: string }[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  /** Other comments (a process that did not answer says so), first in the output. */
  const notes: string[] = [];
  const familyOf = (name: string) => {
    let family = families.get(name);
    if (!family) {
      family = { header: [], samples: [] };
      families.set(name, family);
    }
    return family;
  };
  for (const { child, text } of parts) {
    const label = `child="${child.replace(/["\\\n]/g, "")}"`;
    let current: string | undefined;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      const header = /^# (HELP|TYPE|UNIT) (\S+)/.exec(line);
      if (header) {
        current = header[2]!;
        const family = familyOf(current);
        // The first process's header lines stand for all (they are the same in every process).
        const kind = `# ${header[1]} `;
        if (!family.header.some((h) => h.startsWith(kind))) family.header.push(line);
        continue;
      }
      if (line.startsWith("#")) {
        notes.push(line);
        continue;
      }
      const name = /^[^\s{]+/.exec(line)?.[0];
      if (!name) continue;
      // A sample belongs to the family whose header came last (a histogram's _bucket, _sum and _count too), else to
      // a family of its own name.
      const family = familyOf(current && name.startsWith(current) ? current : name);
      const rest = line.slice(name.length);
      const labelled = rest.startsWith("{}")
        ? `${name}{${label}}${rest.slice(2)}`
        : rest.startsWith("{")
          ? `${name}{${label},${rest.slice(1)}`
          : `${name}{${label}}${rest}`;
      family.samples.push(labelled);
    }
  }
  let out = notes.map((line) => `${line}\n`).join("");
  for (const { header, samples } of families.values()) {
    for (const line of header) out += `${line}\n`;
    for (const line of samples) out += `${line}\n`;
  }
  return out;
}
