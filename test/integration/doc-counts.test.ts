/**
 * The numbers and lists in the docs are the server's: every "N tools" in README.md and docs/*.md
 * is the number of tools a running server lists (`tools/list`), every list of the tools (the
 * README's, docs/mcp.md's table, the client guide's table) is exactly that set, every
 * "N operations" is the catalog's size, and docs/memory.md's limits table and the numbers derived
 * from the limits are core/limits.ts's values. A doc that drifts fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { isTool } from "../../api/mcp/tools/operations";
import { systemClock } from "../../core/clock";
import * as L from "../../core/limits";
import { CATALOG } from "../../ops/catalog";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { call, listen, type TestServer } from "../support/http";

const ROOT = new URL("../../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), "utf8");
const DOCS = ["README.md", ...readdirSync(new URL("docs/", ROOT)).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const fmt = (n: number) => n.toLocaleString("en-US");

/** The backticked names in the rows of the markdown table that follows `heading` (first cell, first word). */
function tableNames(doc: string, heading: string): string[] {
  const at = doc.indexOf(heading);
  expect(at, heading).toBeGreaterThan(-1);
  const lines = doc.slice(at).split("\n").slice(1);
  const start = lines.findIndex((l) => l.startsWith("|"));
  const rows = [];
  for (const l of lines.slice(start)) {
    if (!l.startsWith("|")) break;
    rows.push(l);
  }
  return rows.slice(2).map((r) => /^\|\s*`([a-z_]+)/.exec(r)?.[1] ?? `(no name: ${r.slice(0, 40)})`);
}

describe("counts and lists in the docs agree with the server and the catalog", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let listed: string[];

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContext(database.db, { clock: systemClock })));
    // What a client sees: tools/list over /mcp (2026-07-28: no identity needed to list).
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "docs", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const r = await call(srv.url, "POST", "/mcp", {
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } },
    });
    const data = r.text.split("\n").find((l) => l.startsWith("data: "));
    listed = (JSON.parse(data ? data.slice(6) : r.text).result.tools as { name: string }[]).map((t) => t.name);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await database?.close();
  });

  it("the server lists exactly the catalog's tools", () => {
    expect(listed.length).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual(CATALOG.filter(isTool).map((o) => o.mcp!.tool).sort());
  });

  it('every "N tools" and "N operations" in README.md and docs/*.md is the real number', () => {
    const wrong: string[] = [];
    for (const file of DOCS) {
      const text = read(file);
      for (const m of text.matchAll(/(?<![\d.])\b(\d[\d,]*)\**\s+(?:MCP\s+)?tools\b/g)) {
        if (Number(m[1]!.replace(/,/g, "")) !== listed.length) wrong.push(`${file}: "${m[0]}" (the server lists ${listed.length})`);
      }
      for (const m of text.matchAll(/(?<![\d.])\b(\d[\d,]*)\**\s+(?:catalog\s+|REST\s+)?operations\b/g)) {
        if (Number(m[1]!.replace(/,/g, "")) !== CATALOG.length) wrong.push(`${file}: "${m[0]}" (the catalog holds ${CATALOG.length})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("every list of the tools is the whole set", () => {
    const want = [...listed].sort();
    const readme = read("README.md");
    const para = readme.slice(readme.indexOf("tools/call` and `tasks/*` request is resolved"), readme.indexOf("Client setup with `mcpServers`"));
    expect([...para.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]!).sort(), "README.md").toEqual(want);
    expect(tableNames(read("docs/mcp.md"), "### Tools").sort(), "docs/mcp.md").toEqual(want);
    expect(tableNames(read("docs/mcp-client-guide.md"), "## 4. The tools").sort(), "docs/mcp-client-guide.md").toEqual(want);
  });

  it("docs/memory.md's limits are core/limits.ts's", () => {
    const byName: Record<string, number> = {
      facts_per_namespace: L.MAX_FACTS_PER_NAMESPACE,
      entities_per_namespace: L.MAX_ENTITIES_PER_NAMESPACE,
      snapshot_bytes: L.MAX_SNAPSHOT_BYTES,
      namespaces_per_session: L.MAX_NAMESPACES_PER_SESSION,
      live_facts_per_session: L.MAX_LIVE_FACTS_PER_SESSION,
      scope_roots_per_tenant: L.MAX_SCOPE_ROOTS_PER_TENANT,
      live_facts_per_tenant: L.MAX_LIVE_FACTS_PER_TENANT,
      history_per_namespace: L.MAX_HISTORY_PER_NAMESPACE,
      history_bytes: L.MAX_HISTORY_BYTES,
      single_valued_predicates: L.MAX_SINGLE_VALUED_PREDICATES,
      repo_nodes: L.MAX_REPO_NODES,
      repo_facts: L.MAX_REPO_FACTS,
      repo_history: L.MAX_REPO_HISTORY,
      repo_history_bytes: L.MAX_REPO_HISTORY_BYTES,
      repo_transfer_facts: L.MAX_REPO_TRANSFER_FACTS,
      import_chars: L.MAX_IMPORT_CHARS,
    };
    const memory = read("docs/memory.md");
    const table = memory.slice(memory.indexOf("## Limits"), memory.indexOf("\n\n", memory.indexOf("## Limits")));
    const rows = [...table.matchAll(/^\| `([a-z_]+)` \| ([\d,]+) \|/gm)].map((m) => [m[1]!, Number(m[2]!.replace(/,/g, ""))] as const);
    expect(Object.fromEntries(rows)).toEqual(byName);
    // The numbers derived from them, said in words.
    for (const n of [L.IMPORT_BODY_BYTES, L.OFFLOAD_BODY_BYTES, L.MAX_IMPORT_LINES, L.MAX_IMPORT_CHARS, L.BODY_LIMIT_BYTES, L.MAX_OFFLOAD_TURN_CHARS, L.MAX_OFFLOAD_TOTAL_CHARS]) {
      expect(memory, String(n)).toContain(fmt(n));
    }
    for (const file of ["docs/mcp.md", "docs/security.md"]) expect(read(file), file).toContain(fmt(L.IMPORT_BODY_BYTES));
    expect(read("docs/security.md")).toContain(fmt(L.OFFLOAD_BODY_BYTES));
    expect(memory).toContain(`import ≤${fmt(L.MAX_IMPORT_LINES)} lines (header + ${fmt(L.MAX_ENTITIES_PER_NAMESPACE)} entities + ${L.MAX_FACTS_PER_NAMESPACE} facts + ${L.MAX_HISTORY_PER_NAMESPACE} history)`);
    expect(memory).toContain(`offload ≤${L.MAX_OFFLOAD_TURNS}\nturns / ${fmt(L.MAX_OFFLOAD_TURN_CHARS)} chars per turn / ${fmt(L.MAX_OFFLOAD_TOTAL_CHARS)} per request / ${L.MAX_OFFLOAD_QUEUE_BATCHES} pending batches`);
  });
});
