/**
 * `codesynapse hook <event>`, spawned as each runtime spawns it, fed that runtime's documented hook
 * input on stdin (test/fixtures/hooks/): every event registers exactly the thread it names (seen
 * through the REST identity and an MCP call naming it in `_meta`), prints what the runtime expects
 * (nothing for Claude Code and Codex, a JSON object for Cursor and VS Code) and exits 0; the binding
 * rules of /clear, resume and compact; a revoked thread stays refused; a server that is down, a bad
 * key or a malformed input never blocks the runtime (exit 0, one line on stderr, nothing echoed);
 * and on Stop/PreCompact the transcript's new turns — only those — go to the thread's session memory.
 */
import { mkdtemp, readdir, readFile, rm, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { testContextWithMemory } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, executionHeaders, listen, threadClient, type TestServer } from "../support/http";
import { BIN, cleanEnv, runScript, type RunResult } from "../support/process";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/hooks");

function runHook(args: string[], stdin: string, env: Record<string, string>): Promise<RunResult> {
  return runScript(BIN, ["hook", ...args], cleanEnv(env), 30_000, { stdin });
}

async function fixture(name: string, vars: { session: string; transcript?: string; source?: string }): Promise<string> {
  const text = await readFile(path.join(FIXTURES, name), "utf8");
  return text.replaceAll("{{SESSION}}", vars.session).replaceAll("{{TRANSCRIPT}}", vars.transcript ?? "/nonexistent/transcript.jsonl").replaceAll("{{SOURCE}}", vars.source ?? "startup");
}

describe("codesynapse hook: a runtime's hook registers its thread and never blocks it", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;
  let state: string;
  /** The offload requests the server answered: their thread and turns. */
  const offloads: Array<{ session: string; status: number; turns: Array<{ role: string; content: string; id?: string }> }> = [];

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    const app = createApp(testContextWithMemory(database.db, { clock: systemClock }));
    const outer = express();
    outer.use((req, res, next) => {
      if (req.path.endsWith("/session-memory/offload")) {
        res.once("finish", () => offloads.push({ session: String(req.headers["x-codesynapse-session"]), status: res.statusCode, turns: (req.body as { turns?: [] } | undefined)?.turns ?? [] }));
      }
      next();
    });
    outer.use(app);
    srv = await listen(outer);
    a = await seedAccount(database.db);
    state = await mkdtemp(path.join(tmpdir(), "cs-hook-state-"));
  });
  afterAll(async () => {
    await srv?.close();
    await database?.close();
    if (state) await rm(state, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => ({ CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_HOOK_STATE_DIR: state, ...extra });
  const identity = (session: string) => call(srv.url, "GET", "/api/v1/execution/identity", { headers: executionHeaders(a.apiKey, session) });

  /** A Codex-shaped 2026-07-28 tools/call naming the thread only in `_meta.threadId`. */
  async function mcpSessionOf(threadId: string): Promise<string> {
    const r = await call(srv.url, "POST", "/mcp", {
      headers: { ...bearer(a.apiKey), accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_identity" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "get_identity",
          arguments: {},
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "codex", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {}, threadId },
        },
      },
    });
    const data = r.text.split("\n").find((l) => l.startsWith("data: "));
    return JSON.parse(data ? data.slice(6) : r.text).result.structuredContent.session_id as string;
  }

  const cases: Array<{ runtime: string; file: string; event: string; stdout: unknown }> = [
    { runtime: "claude-code", file: "claude-code/session-start.json", event: "SessionStart", stdout: "" },
    { runtime: "claude-code", file: "claude-code/stop.json", event: "Stop", stdout: "" },
    { runtime: "claude-code", file: "claude-code/pre-compact.json", event: "PreCompact", stdout: "" },
    { runtime: "claude-code", file: "claude-code/session-end.json", event: "SessionEnd", stdout: "" },
    { runtime: "codex", file: "codex/session-start.json", event: "SessionStart", stdout: "" },
    { runtime: "codex", file: "codex/stop.json", event: "Stop", stdout: "" },
    { runtime: "cursor", file: "cursor/before-submit-prompt.json", event: "beforeSubmitPrompt", stdout: { continue: true } },
    { runtime: "cursor", file: "cursor/stop.json", event: "stop", stdout: {} },
    { runtime: "vscode", file: "vscode/session-start.json", event: "SessionStart", stdout: {} },
  ];
  for (const c of cases) {
    it(`${c.runtime} ${c.event}: registers exactly the thread it names, prints what ${c.runtime} expects, exits 0`, async () => {
      const session = c.runtime === "codex" ? uniq("019a") : crypto.randomUUID();
      expect((await identity(session)).status).toBe(404);
      // Named with --runtime, as setup writes it; and detected from the fields alone.
      for (const args of [[c.event, "--runtime", c.runtime], [c.event]]) {
        const r = await runHook(args, await fixture(c.file, { session }), env(c.runtime === "codex" ? { CODEX_THREAD_ID: session } : {}));
        expect(r.code).toBe(0);
        expect(r.stderr).toBe("");
        if (c.stdout === "") expect(r.stdout).toBe("");
        else expect(JSON.parse(r.stdout)).toEqual(c.stdout);
      }
      const me = await identity(session);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId, session_id: session, parent_session_id: session });
      expect(await mcpSessionOf(session)).toBe(session);
    });
  }

  it("startup and resume are one thread (the same binding), /clear's new ID is a new thread, a revoked ID stays refused", async () => {
    const first = crypto.randomUUID();
    expect((await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session: first, source: "startup" }), env())).code).toBe(0);
    const bound = (await identity(first)).body.expires_at;
    for (const source of ["resume", "compact"]) {
      const r = await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session: first, source }), env());
      expect([r.code, r.stderr]).toEqual([0, ""]);
      // Registration is idempotent: the same binding, its 7 days not renewed.
      expect((await identity(first)).body.expires_at).toBe(bound);
    }
    // /clear: Claude Code starts the thread again under a new ID; it is a thread of its own, the first one untouched.
    const cleared = crypto.randomUUID();
    expect((await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session: cleared, source: "clear" }), env())).code).toBe(0);
    expect((await identity(cleared)).body.session_id).toBe(cleared);
    expect((await identity(first)).body.session_id).toBe(first);

    await threadClient(srv.url, a.apiKey, first).revoke();
    const resumed = await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session: first, source: "resume" }), env());
    expect([resumed.code, resumed.stdout]).toEqual([0, ""]);
    expect(resumed.stderr).toMatch(/^codesynapse hook: this thread's binding has ended \(session_revoked\) and is never reopened/);
    expect(resumed.stderr.trim().split("\n")).toHaveLength(1);
    expect(resumed.stderr).not.toContain(first);
    expect((await identity(first)).status).toBe(410);
  });

  it("never blocks the runtime: a server that is down, a bad key, a foreign thread or a malformed input is exit 0 and one stderr line", async () => {
    const session = crypto.randomUUID();
    const down = await runHook(["beforeSubmitPrompt", "--runtime", "cursor"], await fixture("cursor/before-submit-prompt.json", { session }), env({ CODESYNAPSE_URL: "http://127.0.0.1:9" }));
    expect(down.code).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({ continue: true });
    expect(down.stderr).toMatch(/^codesynapse hook: cannot reach the CodeSynapse server at http:\/\/127\.0\.0\.1:9/);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    expect(down.ms).toBeLessThan(15_000);

    const badKey = a.apiKey.replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
    const refused = await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session }), env({ CODESYNAPSE_API_KEY: badKey }));
    expect([refused.code, refused.stdout]).toEqual([0, ""]);
    expect(refused.stderr).toMatch(/invalid_credentials/);
    expect(refused.stderr).not.toContain(badKey);
    expect(refused.stderr).not.toContain(session);

    const other = await seedAccount(database.db);
    const theirs = crypto.randomUUID();
    await threadClient(srv.url, other.apiKey, theirs).register();
    const claimed = await runHook(["SessionStart"], await fixture("claude-code/session-start.json", { session: theirs }), env());
    expect(claimed.code).toBe(0);
    expect(claimed.stderr).toMatch(/session_claimed/);
    expect(claimed.stderr).not.toContain(theirs);

    for (const input of ["not json", "[]", '{"session_id": "has space", "hook_event_name": "Stop"}', '{"hook_event_name": "Stop"}']) {
      const r = await runHook(["Stop", "--runtime", "claude-code"], input, env());
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^codesynapse hook: /);
    }
  });

  it("Stop and PreCompact hand the transcript's new turns, and only those, to the thread's session memory", async () => {
    const session = crypto.randomUUID();
    const dir = await mkdtemp(path.join(tmpdir(), "cs-transcript-"));
    const transcript = path.join(dir, `${session}.jsonl`);
    await writeFile(transcript, await fixture("claude-code/transcript.jsonl", { session }));
    const before = offloads.length;
    const stop = await runHook(["Stop", "--runtime", "claude-code", "--repo", a.repoName], await fixture("claude-code/stop.json", { session, transcript }), env());
    expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, "", ""]);
    const sent = offloads.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ session, status: 202 });
    // Each turn carries its transcript entry's uuid, which the server cites as the facts' source.
    expect(sent[0]!.turns).toEqual([
      { role: "user", content: "Where does AuthService verify tokens?", id: "u1" },
      { role: "assistant", content: "Let me look at AuthService.", id: "a1" },
      { role: "tool", content: "export class AuthService { verify(t) { return TokenStore.check(t); } }", id: "u2" },
      { role: "assistant", content: "AuthService verifies tokens through TokenStore.check.", id: "a2" },
    ]);
    // The offset is kept in a state file named by a hash of the thread, never by the ID.
    expect((await readdir(state)).some((f) => f.includes(session))).toBe(false);

    // Nothing new: nothing handed over again.
    await runHook(["Stop", "--runtime", "claude-code", "--repo", a.repoName], await fixture("claude-code/stop.json", { session, transcript }), env());
    expect(offloads.length).toBe(before + 1);

    // A new turn, then compaction: exactly the new turn goes.
    await appendFile(transcript, `${JSON.stringify({ type: "user", isSidechain: false, message: { role: "user", content: "Also check the refresh path." } })}\n`);
    const compact = await runHook(["PreCompact", "--runtime", "claude-code", "--repo", a.repoName], await fixture("claude-code/pre-compact.json", { session, transcript }), env());
    expect([compact.code, compact.stderr]).toEqual([0, ""]);
    expect(offloads.slice(before + 1).map((o) => o.turns)).toEqual([[{ role: "user", content: "Also check the refresh path." }]]);

    // The server down: the turns are not lost, the next hook offers them again.
    await appendFile(transcript, `${JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "The refresh path calls TokenStore.rotate." }] } })}\n`);
    const down = await runHook(["Stop", "--runtime", "claude-code", "--repo", a.repoName, "--url", "http://127.0.0.1:9"], await fixture("claude-code/stop.json", { session, transcript }), env());
    expect(down.code).toBe(0);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    await runHook(["Stop", "--runtime", "claude-code", "--repo", a.repoName], await fixture("claude-code/stop.json", { session, transcript }), env());
    expect(offloads.at(-1)!.turns).toEqual([{ role: "assistant", content: "The refresh path calls TokenStore.rotate." }]);
    await rm(dir, { recursive: true, force: true });
  });
});
