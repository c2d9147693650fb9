/**
 * Every documented limit is reachable: a field's limit never lies beyond its route's body limit.
 *  - the class: for every operation of the catalog, every string field at its maxLength, written in
 *    the most expensive JSON encoding (each character a `\uXXXX` escape), fits the body limit of its
 *    REST route and of /mcp; so do the documented totals the schemas cannot say (offload's);
 *  - a full session namespace (512 facts, 1,024 entities, 512 history), exported, imports back;
 *  - at the limit, over the real app: an export padded to exactly 1,048,576 characters, every
 *    character escaped (a 6 MiB body), imports back — session and repository memory, REST and MCP;
 *    one character over is `400 validation_failed`, one byte over the route's body limit is
 *    `413 payload_too_large` naming that limit, and every other route keeps 256 KiB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../api/app";
import { formatBytes, jsonTooLarge } from "../../api/body-errors";
import { bodyLimitOf, bodyRoutes } from "../../api/json-body";
import { MCP_PATH } from "../../api/mcp/http-rules";
import { grantRepo, createRepo } from "../../core/accounts/accounts";
import { systemClock } from "../../core/clock";
import {
  BODY_LIMIT_BYTES,
  IMPORT_BODY_BYTES,
  jsonStringMaxBytes,
  MAX_ENTITIES_PER_NAMESPACE,
  MAX_FACTS_PER_NAMESPACE,
  MAX_HISTORY_PER_NAMESPACE,
  MAX_IMPORT_CHARS,
  MAX_OFFLOAD_TOTAL_CHARS,
  MAX_OFFLOAD_TURNS,
} from "../../core/limits";
import { CATALOG } from "../../ops/catalog";
import { testContextWithMemory } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { identityStore } from "../../db/sql/identity/store";

/** Room the rest of a body takes beside its one field at its limit: other fields, the MCP envelope. */
const REST_OF_BODY = 4096;

/** Every string field with a maxLength in a JSON Schema, by path. */
function stringLimits(s: unknown, path: string, out: Array<[string, number]>): Array<[string, number]> {
  if (!s || typeof s !== "object") return out;
  const o = s as Record<string, unknown>;
  if (o.type === "string" && typeof o.maxLength === "number") out.push([path, o.maxLength]);
  for (const [k, v] of Object.entries((o.properties ?? {}) as Record<string, unknown>)) stringLimits(v, `${path}.${k}`, out);
  if (o.items) stringLimits(o.items, `${path}[]`, out);
  for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(o[k])) for (const x of o[k] as unknown[]) stringLimits(x, path, out);
  return out;
}

describe("no field's limit lies beyond its route's body limit", () => {
  const routes = bodyRoutes();
  it("every string field at its limit, fully escaped, fits its REST route and /mcp", () => {
    const tooBig: string[] = [];
    let checked = 0;
    for (const op of CATALOG) {
      const schema = z.toJSONSchema(z.strictObject(op.input), { io: "input", unrepresentable: "any" });
      for (const [field, max] of stringLimits(schema, "", [])) {
        const need = jsonStringMaxBytes(max) + REST_OF_BODY;
        for (const b of op.http ?? []) {
          if (b.method === "get" || b.raw) continue;
          checked++;
          if (need > bodyLimitOf(routes, b.method.toUpperCase(), b.path.replace(/:[a-z_]+/g, "x"))) tooBig.push(`${op.name} ${b.path} ${field}`);
        }
        if (op.mcp) {
          checked++;
          if (need > bodyLimitOf(routes, "POST", MCP_PATH)) tooBig.push(`${op.mcp.tool} ${field}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(tooBig).toEqual([]);
  });

  it("the documented totals fit too: an import's characters, an offload's characters", () => {
    const offload = CATALOG.find((o) => o.name === "session_memory.offload")!;
    const turnOverhead = MAX_OFFLOAD_TURNS * JSON.stringify({ role: "assistant", content: "", id: "x".repeat(128) }).length;
    expect(jsonStringMaxBytes(MAX_OFFLOAD_TOTAL_CHARS) + turnOverhead).toBeLessThanOrEqual(bodyLimitOf(routes, "POST", "/api/v1/repos/r/session-memory/offload"));
    expect(offload.bodyBytes).toBe(bodyLimitOf(routes, "POST", "/api/v1/repos/r/session-memory/offload"));
    for (const path of ["/api/v1/repos/r/session-memory/import", "/api/v1/repos/r/memory/import", MCP_PATH]) {
      expect(bodyLimitOf(routes, "POST", path), path).toBe(IMPORT_BODY_BYTES);
      expect(jsonStringMaxBytes(MAX_IMPORT_CHARS) + REST_OF_BODY).toBeLessThanOrEqual(IMPORT_BODY_BYTES);
    }
    // Every other route keeps the API's limit.
    expect(bodyLimitOf(routes, "POST", "/api/v1/repos/r/session-memory")).toBe(BODY_LIMIT_BYTES);
    expect(bodyLimitOf(routes, "GET", "/api/v1/repos/r/session-memory/import")).toBe(BODY_LIMIT_BYTES);
  });
});

/** The JSON string literal of `s` with every UTF-16 unit escaped: the most bytes a JSON encoder can spend on it. */
function escapedLiteral(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return `${out}"`;
}

/** An export padded with blank space to exactly `chars` characters (the importer skips blank lines). */
function padded(jsonl: string, chars: number): string {
  const body = `${jsonl.replace(/\n$/, "")}\n`;
  expect(body.length).toBeLessThan(chars);
  return body + " ".repeat(chars - body.length);
}

/** A raw 2026-07-28 tools/call whose body is written by hand (`argsJson`: the arguments object's JSON text). */
function mcpCall(tool: string, argsJson: string): string {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
  return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","_meta":${JSON.stringify(meta)},"arguments":${argsJson}}}`;
}
const mcpHeaders = (h: Record<string, string>, tool: string) => ({
  ...h,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": tool,
});
function rpc(text: string): any {
  const data = text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : text);
}

describe("an export at the import limit imports back (REST and MCP)", () => {
  const clock = systemClock;
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContextWithMemory(database.db, { clock })));
    a = await seedAccount(database.db);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await database?.close();
  });

  /** A repository of a's organisation with no memory yet, on which a may write. */
  async function emptyRepo(): Promise<string> {
    const { repo_id } = await createRepo(identityStore(database.db), { orgId: a.orgId, name: uniq("repo") });
    await grantRepo(identityStore(database.db), { repoId: repo_id, userId: a.userId, level: "write" });
    return repo_id;
  }
  const triples = [
    { subject: "AuthService", predicate: "depends_on", object: "TokenStore", subject_type: "class", object_type: "class" },
    { subject: "Zähler", predicate: "owned_by", object: "チーム認証", subject_type: "module", object_type: "team" },
    { subject: "TokenStore", predicate: "stores", object: "session tokens — 30 min TTL" },
  ];

  it("a full session namespace (512 facts, 1,024 entities, 512 history) exported imports back over REST and MCP", async () => {
    const from = await registerThread(srv.url, a.apiKey);
    const sm = `/api/v1/repos/${a.repoId}/session-memory`;
    const n = MAX_FACTS_PER_NAMESPACE;
    const name = (k: string, i: number) => `${k}${String(i).padStart(4, "0")}`;
    const first = Array.from({ length: n }, (_, i) => ({ subject: name("s", i), predicate: "has", object: name("o", i) }));
    expect((await call(srv.url, "POST", sm, { headers: from.headers, body: { triples: first } })).status).toBe(200);
    // Each subject's single-valued `has` moves to the next object: 512 facts end in the history, the
    // entities stay 1,024.
    const second = Array.from({ length: n }, (_, i) => ({ subject: name("s", i), predicate: "has", object: name("o", (i + 1) % n) }));
    const moved = await call(srv.url, "POST", sm, { headers: from.headers, body: { triples: second, single_valued: ["has"] } });
    expect(moved.status, moved.text.slice(0, 300)).toBe(200);
    const exported = await call(srv.url, "GET", `${sm}/export`, { headers: from.headers });
    expect([exported.body.entities, exported.body.facts, exported.body.history]).toEqual([MAX_ENTITIES_PER_NAMESPACE, n, MAX_HISTORY_PER_NAMESPACE]);
    const jsonl = exported.body.jsonl as string;
    // Over the old 256 KiB body limit as a plain JSON body, and far over it escaped.
    expect(Buffer.byteLength(JSON.stringify({ jsonl }))).toBeGreaterThan(BODY_LIMIT_BYTES);

    const rest = await registerThread(srv.url, a.apiKey);
    const r = await call(srv.url, "POST", `${sm}/import`, { headers: rest.headers, body: { jsonl } });
    expect([r.status, r.body?.facts, r.body?.error?.code]).toEqual([200, n, undefined]);
    const viaMcp = await registerThread(srv.url, a.apiKey);
    const m = await call(srv.url, "POST", MCP_PATH, {
      headers: mcpHeaders(viaMcp.headers, "import_session_memory"),
      rawBody: mcpCall("import_session_memory", `{"repo":"${a.repoId}","jsonl":${escapedLiteral(jsonl)}}`),
    });
    const result = rpc(m.text).result;
    expect([m.status, result.isError ?? false, result.structuredContent?.facts]).toEqual([200, false, n]);
    // What was imported is the same memory: exported again, the same counts.
    const again = await call(srv.url, "GET", `${sm}/export`, { headers: rest.headers });
    expect([again.body.entities, again.body.facts, again.body.history]).toEqual([MAX_ENTITIES_PER_NAMESPACE, n, MAX_HISTORY_PER_NAMESPACE]);
  }, 180_000);

  it("session memory: a padded, fully escaped export imports over REST and MCP; one character over is refused", async () => {
    const from = await registerThread(srv.url, a.apiKey);
    const sm = `/api/v1/repos/${a.repoId}/session-memory`;
    expect((await call(srv.url, "POST", sm, { headers: from.headers, body: { triples } })).status).toBe(200);
    const exported = await call(srv.url, "GET", `${sm}/export`, { headers: from.headers });
    expect(exported.status).toBe(200);
    const text = padded(exported.body.jsonl as string, MAX_IMPORT_CHARS);

    const rest = await registerThread(srv.url, a.apiKey);
    const body = `{"jsonl":${escapedLiteral(text)}}`;
    expect(Buffer.byteLength(body)).toBeGreaterThan(6 * MAX_IMPORT_CHARS);
    const r = await call(srv.url, "POST", `${sm}/import`, { headers: { ...rest.headers, "content-type": "application/json" }, rawBody: body });
    expect([r.status, r.body?.facts, r.body?.error?.code]).toEqual([200, 3, undefined]);

    const viaMcp = await registerThread(srv.url, a.apiKey);
    const m = await call(srv.url, "POST", MCP_PATH, {
      headers: mcpHeaders(viaMcp.headers, "import_session_memory"),
      rawBody: mcpCall("import_session_memory", `{"repo":"${a.repoId}","jsonl":${escapedLiteral(text)}}`),
    });
    expect(m.status).toBe(200);
    const result = rpc(m.text).result;
    expect([result.isError ?? false, result.structuredContent?.facts]).toEqual([false, 3]);

    // One character over the documented limit: the field's own refusal, naming the field.
    const over = await registerThread(srv.url, a.apiKey);
    const tooLong = await call(srv.url, "POST", `${sm}/import`, { headers: over.headers, body: { jsonl: `${text} ` } });
    expect([tooLong.status, tooLong.body.error.code, tooLong.body.error.message]).toEqual([400, "validation_failed", "The request is not valid: jsonl."]);
  }, 120_000);

  it("repository memory: a padded, fully escaped export imports over REST and MCP", async () => {
    const from = await registerThread(srv.url, a.apiKey);
    const mem = (repo: string) => `/api/v1/repos/${repo}/memory`;
    expect((await call(srv.url, "POST", `${mem(a.repoId)}/triples`, { headers: from.headers, body: { triples } })).status).toBe(200);
    const exported = await call(srv.url, "GET", `${mem(a.repoId)}/export`, { headers: from.headers });
    expect(exported.status).toBe(200);
    const text = padded(exported.body.jsonl as string, MAX_IMPORT_CHARS);

    const restRepo = await emptyRepo();
    const r = await call(srv.url, "POST", `${mem(restRepo)}/import`, { headers: { ...from.headers, "content-type": "application/json" }, rawBody: `{"jsonl":${escapedLiteral(text)}}` });
    expect([r.status, r.body?.error?.code]).toEqual([200, undefined]);

    const mcpRepo = await emptyRepo();
    const m = await call(srv.url, "POST", MCP_PATH, {
      headers: mcpHeaders(from.headers, "import_repository_memory"),
      rawBody: mcpCall("import_repository_memory", `{"repo":"${mcpRepo}","jsonl":${escapedLiteral(text)}}`),
    });
    expect(m.status).toBe(200);
    expect(rpc(m.text).result.isError ?? false).toBe(false);
  }, 120_000);

  it("one byte over a route's body limit is 413 naming that limit; other routes keep 256 KiB", async () => {
    const t = await registerThread(srv.url, a.apiKey);
    const h = { ...t.headers, "content-type": "application/json" };
    const bodyOf = (bytes: number) => `{"jsonl":"${"a".repeat(bytes - 12)}"}`;
    expect(Buffer.byteLength(bodyOf(IMPORT_BODY_BYTES + 1))).toBe(IMPORT_BODY_BYTES + 1);
    for (const path of [`/api/v1/repos/${a.repoId}/session-memory/import`, `/api/v1/repos/${a.repoId}/memory/import`]) {
      const r = await call(srv.url, "POST", path, { headers: h, rawBody: bodyOf(IMPORT_BODY_BYTES + 1) });
      expect([r.status, r.body.error.code, r.body.error.details], path).toEqual([413, "payload_too_large", { limit: "json_body_bytes", max_bytes: IMPORT_BODY_BYTES }]);
      expect(r.body.error.message).toContain(formatBytes(IMPORT_BODY_BYTES));
    }
    // /mcp answers a JSON-RPC error with the same stable code and sentence.
    const m = await call(srv.url, "POST", MCP_PATH, { headers: mcpHeaders(t.headers, "import_session_memory"), rawBody: bodyOf(IMPORT_BODY_BYTES + 1) });
    expect([m.status, m.body.error.data.code, m.body.error.message]).toEqual([413, "payload_too_large", jsonTooLarge(IMPORT_BODY_BYTES).message]);
    const upsert = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory`, { headers: h, rawBody: bodyOf(BODY_LIMIT_BYTES + 1) });
    expect([upsert.status, upsert.body.error.details]).toEqual([413, { limit: "json_body_bytes", max_bytes: BODY_LIMIT_BYTES }]);
    // At exactly the limit the body is read (and judged by the operation: here, a text over 1,048,576 characters).
    const at = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory/import`, { headers: h, rawBody: bodyOf(IMPORT_BODY_BYTES) });
    expect([at.status, at.body.error.code]).toEqual([400, "validation_failed"]);
  }, 120_000);
});
