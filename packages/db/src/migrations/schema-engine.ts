import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";

// Prisma's schema engine compiled to WebAssembly, driven through the pg driver adapter. The native engine cannot be
// downloaded on our machines, and the package's own entry imports `.wasm` as ESM, which Node 20 cannot load, so the
// module is instantiated here by hand.
type Bindings = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

let bindings: Promise<Bindings> | undefined;

function packageDir(): string {
  const require = createRequire(import.meta.url);
  // The package does not export its package.json; resolve its main file instead.
  return dirname(require.resolve("@prisma/schema-engine-wasm"));
}

async function loadBindings(): Promise<Bindings> {
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
  g.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message(message: string) {
      lastPanic = message;
    },
  };
  const dir = packageDir();
  const bg = (await import(pathToFileURL(join(dir, "schema_engine_bg.js")).href)) as Bindings & {
    __wbg_set_wasm(exports: Record<string, unknown>): void;
  };
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const module = new wasm.Module(readFileSync(join(dir, "schema_engine_bg.wasm")));
  const instance = new wasm.Instance(module, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bg;
}

let lastPanic: string | undefined;

// Node's types do not declare the WebAssembly global; this is the part used here.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, unknown>) => { exports: Record<string, unknown> };
}

export type EngineLog = (line: string) => void;

export interface EngineOptions {
  schema: { path: string; content: string }[];
  connectionString: string;
}

interface ScriptAdapter {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(sql: string): Promise<unknown> };
  onError(error: unknown): never;
}

/**
 * The stock adapter runs a migration script by splitting it on every `;`, which breaks semicolons inside comments,
 * strings and function bodies. Send the script whole instead: PostgreSQL's simple query protocol runs it as one
 * implicit transaction, so a failing migration also leaves nothing half-applied.
 */
function wholeScriptAdapter(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const scriptable = adapter as unknown as ScriptAdapter;
    scriptable.executeScript = async (script: string) => {
      try {
        await scriptable.underlyingDriver().query(script);
      } catch (error) {
        scriptable.onError(error);
      }
    };
    return adapter;
  };
  return factory;
}

export async function openSchemaEngine(
  options: EngineOptions,
): Promise<{ engine: SchemaEngine; close(): Promise<void> }> {
  bindings ??= loadBindings();
  const bg = await bindings;
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  pool.on("error", () => {});
  const factory = wholeScriptAdapter(new PrismaPg(pool));
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  try {
    const engine = (await bg.SchemaEngine.new(
      { datamodels: options.schema.map((f) => [f.path, f.content] as [string, string]) },
      () => {},
      adapter,
    )) as SchemaEngine;
    return {
      engine,
      async close() {
        engine.free();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    if (lastPanic) throw new Error(`Prisma schema engine panicked: ${lastPanic}`);
    throw error;
  }
}
