/**
 * The durable MCP session store (core/mcp-sessions.ts, db/sql/mcp-sessions/) on PGlite and PostgreSQL:
 * one owner for good, whoever binds first; idle sessions are gone and swept in batches.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { postgresMcpSessionStore } from "../../db/sql/mcp-sessions/store";
import { MCP_IDLE_TIMEOUT_MS } from "../../core/limits";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } };

await describeEachDatabase("durable MCP sessions", (t) => {
  it("concurrent first bindings all read back one owner, and it never changes", async () => {
    const a = await seedAccount(t().db);
    const store = postgresMcpSessionStore(t().db);
    const sid = randomUUID();
    const now = new Date();
    await store.create(sid, INIT, undefined, now);
    const owners = Array.from({ length: 8 }, (_, i) => ({ orgId: a.orgId, userId: a.userId, sessionId: `thread-${i}` }));
    const got = await Promise.all(owners.map((o) => store.bind(sid, o)));
    const first = got[0]!;
    expect(owners.map((o) => o.sessionId)).toContain(first.sessionId);
    for (const g of got) expect(g).toEqual(first);
    expect(await store.bind(sid, owners[7]!)).toEqual(first);
    const rec = await store.touch(sid, now);
    expect(rec?.owner).toEqual(first);
    expect(rec?.init).toEqual(INIT);
  });

  it("stores only a hash of the transport ID; a removed or idle session is gone", async () => {
    const store = postgresMcpSessionStore(t().db);
    const sid = randomUUID();
    const t0 = new Date("2026-12-03T10:00:00Z");
    await store.create(sid, INIT, undefined, t0);
    const rows = await t().db.selectFrom("mcp_sessions").select("id_hash").execute();
    expect(rows.map((r) => r.id_hash)).not.toContain(sid);
    // Touching renews it: still live just under the timeout after the last touch.
    const t1 = new Date(t0.getTime() + MCP_IDLE_TIMEOUT_MS - 1000);
    expect(await store.touch(sid, t1)).toBeDefined();
    expect(await store.touch(sid, new Date(t1.getTime() + MCP_IDLE_TIMEOUT_MS - 1000))).toBeDefined();
    const late = new Date(t1.getTime() + 3 * MCP_IDLE_TIMEOUT_MS);
    expect(await store.touch(sid, late)).toBeUndefined();
    expect(await store.live([sid], late)).toEqual(new Set());
    const other = randomUUID();
    await store.create(other, INIT, undefined, t0);
    await store.remove(other);
    expect(await store.touch(other, t0)).toBeUndefined();
    expect(await store.bind(other, { orgId: "o", userId: "u", sessionId: "s" })).toBeUndefined();
  });

  it("the sweep deletes idle sessions in bounded batches and keeps live ones", async () => {
    const store = postgresMcpSessionStore(t().db);
    const far = new Date("2030-01-01T00:00:00Z");
    const old = new Date(far.getTime() - 2 * MCP_IDLE_TIMEOUT_MS);
    const idle = Array.from({ length: 7 }, () => randomUUID());
    for (const s of idle) await store.create(s, INIT, undefined, old);
    const fresh = randomUUID();
    await store.create(fresh, INIT, undefined, far);
    const first = await store.sweep(far, 3);
    expect(first).toBe(3);
    let total = first;
    for (let n = await store.sweep(far, 3); n > 0; n = await store.sweep(far, 3)) total += n;
    expect(total).toBeGreaterThanOrEqual(7);
    expect(await store.live([...idle, fresh], far)).toEqual(new Set([fresh]));
  });
});
