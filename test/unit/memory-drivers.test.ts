/**
 * The embedded default never loads a driver it does not use (docs/stores.md#embedded-memory):
 * building the memory services on PGlite's defaults leaves neo4j-driver and the Milvus SDK
 * unloaded; MEMORY_STORE=neo4j with VECTOR_INDEX=milvus builds synchronously too and loads a
 * driver on the first call of a store that uses it, with the store's own result or error (here:
 * no server).
 * Each case runs in a fresh process, whose CommonJS module cache names every driver it loaded
 * (no statement runs: the relational handle is a placeholder).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function run(env: Record<string, string>, callStore: boolean): { loaded: string[]; kinds: string[]; error?: string } {
  const script = `
    import { createRequire } from "node:module";
    import { buildMemoryServices } from "./main/memory.ts";
    import { loadConfig } from "./core/config.ts";
    import { silentLogger } from "./core/log.ts";
    import { systemClock } from "./core/clock.ts";
    const services = buildMemoryServices(loadConfig(${JSON.stringify(env)}), {}, systemClock, silentLogger());
    let error;
    if (${callStore}) await services.vectors.ping().catch((err) => (error = err.code ?? err.name));
    const loaded = Object.keys(createRequire(import.meta.url).cache)
      .map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1])
      .filter((p) => p === "neo4j-driver" || p === "@zilliz/milvus2-sdk-node");
    services.close();
    console.log(JSON.stringify({ loaded: [...new Set(loaded)].sort(), kinds: [services.store.kind, services.vectors.kind], error }));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

describe("memory drivers are loaded only when configured", () => {
  it("the embedded default (postgres memory, local vectors) loads neither neo4j-driver nor the Milvus SDK", () => {
    expect(run({}, false)).toEqual({ loaded: [], kinds: ["postgres", "local"] });
  }, 60_000);

  it("neo4j + milvus build without loading either; the vector index's first call loads the Milvus SDK alone and answers as the real index does", () => {
    const env = { MEMORY_STORE: "neo4j", NEO4J_URL: "bolt://127.0.0.1:1", VECTOR_INDEX: "milvus", MILVUS_URL: "127.0.0.1:1" };
    expect(run(env, false)).toEqual({ loaded: [], kinds: ["neo4j", "milvus"] });
    const called = run(env, true);
    expect(called.loaded).toEqual(["@zilliz/milvus2-sdk-node"]);
    expect(called.error).toBeDefined();
  }, 60_000);
});
