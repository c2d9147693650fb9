/**
 * Identity and repository permission in ONE statement, on every path an
 * operation is reached by: a REST route and an MCP tool call each run the authorization read
 * (AUTHORIZE_READ) exactly once per call, and its answers follow the one refusal order —
 * credential, account, binding, then repository, and input validation before the repository's
 * answer, as before. The counter sees every statement the app sends (a Kysely plugin on its
 * database), so a second read (a separate repository check) would fail the count.
 */
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { revokeApiKey } from "../../core/accounts/api-keys";
import { revokeSession } from "../../core/registry/registry";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { identityStore } from "../../db/sql/identity/store";
import { EMBEDDING_JOB } from "../../core/jobs/embedding";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";

/** Counts the statements that read authorization (the one query text's binding join). */
function authorizationReads(): { plugin: KyselyPlugin; count: () => number; settle: () => Promise<void>; reset: () => void } {
  let n = 0;
  // The statement nests AUTHORIZE_READ in a raw node of its own: search the whole tree.
  const isRead = (node: RootOperationNode) => node.kind === "RawNode" && JSON.stringify(node).includes("left join session_bindings b on b.session_id = q.session_id");
  return {
    plugin: {
      transformQuery: (args) => {
        if (isRead(args.node)) n++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
    count: () => n,
    /** Waits until no read has happened for a while (an MCP client opens its event stream after connecting). */
    settle: async () => {
      for (let last = -1; last !== n; ) {
        last = n;
        await new Promise((r) => setTimeout(r, 300));
      }
    },
    reset: () => {
      n = 0;
    },
  };
}

await describeEachDatabase("identity and repository in one statement", (t) => {
  let srv: TestServer;
  const reads = authorizationReads();
  beforeAll(async () => {
    const db = t().db.withPlugin(reads.plugin);
    const ctx = testContext(db);
    ctx.memory = buildMemoryServices(ctx.config, db, ctx.clock, ctx.logger);
    ctx.jobs = createJobQueue({ db, identity: identityStore, clock: ctx.clock, logger: ctx.logger, registry: new JobRegistry().register(EMBEDDING_JOB) }).queue;
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv?.close());

  const recall = (a: Account | { repoId: string }, h: Record<string, string>, body: unknown = { query: "auth" }) =>
    call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory/recall`, { headers: h, body });

  async function mcp(h: Record<string, string>) {
    const client = new Client({ name: "one-statement", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: h } }));
    return client;
  }
  const codeOf = (r: { isError?: unknown; content: unknown }) => {
    const [c] = r.content as Array<{ text: string }>;
    return r.isError ? (JSON.parse(c!.text) as { error: { code: string } }).error.code : "ok";
  };

  it("a REST repository operation reads identity and repository once per request", async () => {
    const a = await seedAccount(t().db);
    const { headers } = await registerThread(srv.url, a.apiKey);
    reads.reset();
    expect((await recall(a, headers)).status).toBe(200);
    expect(reads.count()).toBe(1);
    reads.reset();
    expect((await recall({ repoId: "repo-that-does-not-exist" }, headers)).body.error.code).toBe("repo_not_found");
    expect(reads.count()).toBe(1);
  });

  it("a job submission reads identity and repository once: the submission's own check uses the boundary's read", async () => {
    const a = await seedAccount(t().db);
    const { headers } = await registerThread(srv.url, a.apiKey);
    reads.reset();
    // The read is used while it is at most EARLIER_READ_FRESH_MS old: the clock the gateway ages it by
    // stands still here, so a loaded machine cannot make the request slower than that.
    const now = performance.now();
    const still = vi.spyOn(performance, "now").mockReturnValue(now);
    try {
      const r = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/embeddings/refresh`, { headers, body: {} });
      expect(r.status).toBe(202);
    } finally {
      still.mockRestore();
    }
    expect(reads.count()).toBe(1);
  });

  it("an MCP tool call on a repository reads identity and repository once", async () => {
    const a = await seedAccount(t().db);
    const { headers } = await registerThread(srv.url, a.apiKey);
    const client = await mcp(headers);
    try {
      await client.ping();
      await reads.settle();
      reads.reset();
      const r = await client.callTool({ name: "recall_context", arguments: { repo: a.repoId, query: "auth" } });
      expect(codeOf(r as never)).toBe("ok");
      expect(reads.count()).toBe(1);
      reads.reset();
      const missing = await client.callTool({ name: "recall_context", arguments: { repo: "repo-that-does-not-exist", query: "auth" } });
      expect(codeOf(missing as never)).toBe("repo_not_found");
      expect(reads.count()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("one refusal order on both paths: binding before repository, validation before the repository's answer, permission by level", async () => {
    const readOnly = await seedAccount(t().db, { repoLevel: "read" });
    const ro = await registerThread(srv.url, readOnly.apiKey);
    const revoked = await seedAccount(t().db);
    const rv = await registerThread(srv.url, revoked.apiKey);
    const good = await seedAccount(t().db);
    const gd = await registerThread(srv.url, good.apiKey);
    const roClient = await mcp(ro.headers);
    const gdClient = await mcp(gd.headers);
    try {
      // A write on a read grant: repo_permission_denied, over REST and MCP alike.
      const write = { triples: [{ subject: "A", predicate: "uses", object: "B" }] };
      const rest = await call(srv.url, "POST", `/api/v1/repos/${readOnly.repoId}/memory/triples`, { headers: ro.headers, body: write });
      expect(rest.body.error.code).toBe("repo_permission_denied");
      expect(codeOf((await roClient.callTool({ name: "upsert_graph_triples", arguments: { repo: readOnly.repoId, ...write } })) as never)).toBe("repo_permission_denied");

      // A bad body on a repository that does not exist: validation answers first (the repository's answer waits for valid input).
      expect((await recall({ repoId: "repo-that-does-not-exist" }, gd.headers, { query: 42 })).body.error.code).toBe("validation_failed");
      expect(codeOf((await gdClient.callTool({ name: "recall_context", arguments: { repo: "repo-that-does-not-exist", query: 42 } })) as never)).toBe("validation_failed");

      // A revoked session on a repository that does not exist: the binding answers (it comes before the repository).
      const rvClient = await mcp(rv.headers);
      try {
        await revokeSession(identityStore(t().db), testContext(t().db).clock, { orgId: revoked.orgId, userId: revoked.userId, apiKeyId: revoked.keyId, loginSessionId: null, role: "member" }, rv.session);
        expect((await recall({ repoId: "repo-that-does-not-exist" }, rv.headers)).body.error.code).toBe("session_revoked");
        const viaMcp = await rvClient.callTool({ name: "recall_context", arguments: { repo: "repo-that-does-not-exist", query: "x" } }).then(
          (r) => codeOf(r as never),
          (err: Error) => err.message,
        );
        expect(viaMcp).toContain("session_revoked");
      } finally {
        await rvClient.close().catch(() => undefined);
      }

      // And a revoked key outranks both.
      await revokeApiKey(identityStore(t().db), { prefix: good.keyPrefix, at: new Date() });
      expect((await recall({ repoId: "repo-that-does-not-exist" }, gd.headers)).body.error.code).toBe("api_key_revoked");
    } finally {
      await roClient.close();
      await gdClient.close().catch(() => undefined);
    }
  });
});
