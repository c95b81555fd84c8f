import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * Fields the Kubernetes API does not know, in manifests (what `kubectl apply --validate=strict` and kubeconform's
 * `-strict` refuse). The JSON schemas of kubernetes-models accept unknown fields, so each object is written as an object
 * literal typed with the same models' TypeScript interfaces, and TypeScript's excess-property check, which applies at
 * every depth of a literal, names each unknown field. Returns the compiler's messages (none: every field is known).
 */
export function unknownFields(objects: { model: string; object: unknown }[]): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, "manifests.check.ts");
  const text = objects
    .map(({ model, object }, i) => {
      const kind = model.split("/").at(-1);
      return `export const object${i}: import("kubernetes-models/${model}").I${kind} = ${JSON.stringify(object)};`;
    })
    .join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists;
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram({ rootNames: [file], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
}
