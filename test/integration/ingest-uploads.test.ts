/**
 * Snapshot sources beyond a local path (WRK-2), over HTTP and the real
 * runner, on PGlite and PostgreSQL: an uploaded archive (tar.gz, zip) is
 * ingested by the session that uploaded it and by no one else, is consumed by
 * a successful ingest and then kept as the repository's last snapshot, which
 * fix jobs work on until it expires, is bounded, and goes with its session; a git URL
 * (file://, allowed by INGEST_GIT_ALLOWED) is cloned and ingested.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import { uploadsCleaner } from "../../core/ingest/uploads";
import { INGEST_MAX_UPLOADS_PER_SESSION } from "../../core/limits";
import { silentLogger } from "../../core/log";
import { repoNodeId } from "../../core/memory/ids";
import type { MemoryServices } from "../../core/memory/services";
import type { JobRow } from "../../queues/jobs";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { fixtureTar, zipOf } from "../support/archives";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { FIXTURE_FILES, writeFixtureRepo } from "../support/fixture-repo";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const run = promisify(execFile);
const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);

await describeEachDatabase("ingest sources: uploaded archives and git URLs", (t) => {
  let th: TestHost;
  let memory: MemoryServices;
  let ctx: AppContext;
  let queue: JobQueue;
  let srv: TestServer;
  let gitRoot: string;

  beforeAll(async () => {
    gitRoot = await mkdtemp(path.join(tmpdir(), "cs-git-"));
    ctx = testContext(t().db, { clock: systemClock, env: { INGEST_GIT_ALLOWED: "file://", INGEST_MAX_UPLOAD_BYTES: String(256 * 1024) } });
    memory = buildMemoryServices(ctx.config, t().db, systemClock, silentLogger());
    th = await startTestHost(t(), jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => queue }), { stores: { repository: memory.repository.store } });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    ctx.memory = memory;
    ctx.jobs = queue;
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
    memory?.close();
    await rm(gitRoot, { recursive: true, force: true });
  });

  /** A caller with its own registered session: headers for every request. */
  async function caller(account?: Account) {
    const a = account ?? (await seedAccount(t().db));
    const { session, headers: h } = await registerThread(srv.url, a.apiKey);
    return { a, session, h };
  }
  const upload = (c: Awaited<ReturnType<typeof caller>>, body: Uint8Array, repo = c.a.repoName) =>
    call(srv.url, "POST", `/api/v1/repos/${repo}/uploads`, { headers: c.h, rawBody: body });
  const ingest = (c: Awaited<ReturnType<typeof caller>>, body: unknown) => call(srv.url, "POST", `/api/v1/repos/${c.a.repoName}/ingest`, { headers: c.h, body });
  const settle = (id: string) =>
    waitFor(async () => {
      const r = await jobRow(t().db, id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
  const uploadRows = (session: string) => t().db.selectFrom("ingest_uploads").select("id").where("session_id", "=", session).execute();
  async function hasFile(a: Account, file: string): Promise<boolean> {
    const g = await memory.repository.store.querySubgraph(a.repoId, repoNodeId(a.repoId, "code.file", file), 1, 50);
    return g.nodes.some((n) => n.name === file);
  }

  it("a tar.gz and a zip upload are ingested by the uploading session, then consumed", async () => {
    const c = await caller();
    for (const [format, body] of [
      ["tar.gz", await fixtureTar(FIXTURE_FILES)],
      ["zip", await zipOf(FIXTURE_FILES)],
    ] as const) {
      const up = await upload(c, body);
      expect(up.status, up.text).toBe(201);
      expect(up.body).toMatchObject({ format, size: body.length, upload_id: expect.stringMatching(/^upl_[0-9a-f]{32}$/) });
      const sub = await ingest(c, { upload_id: up.body.upload_id });
      expect(sub.status, sub.text).toBe(202);
      const done: JobRow = await settle(sub.body.job_id);
      expect(done.status, JSON.stringify(done)).toBe("succeeded");
      expect(done.result).toMatchObject({ source: "upload", files: Object.keys(FIXTURE_FILES).length, archive: { files: Object.keys(FIXTURE_FILES).length, skipped_links: 0, truncated: false } });
      expect(await hasFile(c.a, "src/auth.ts")).toBe(true);
      // Consumed by the successful ingest: a second use is refused at submission. It is kept only as the
      // repository's last snapshot (for fix jobs), listed nowhere; the snapshot it replaced is gone.
      expect((await uploadRows(c.session)).map((r) => r.id)).toEqual([up.body.upload_id]);
      expect((await call(srv.url, "GET", `/api/v1/repos/${c.a.repoName}/uploads`, { headers: c.h })).body.uploads).toEqual([]);
      const again = await ingest(c, { upload_id: up.body.upload_id });
      expect([again.status, again.body?.error?.code]).toEqual([404, "upload_not_found"]);
    }
  });

  it("a fix job works on the snapshot the repository was last ingested from as an upload; once it is no longer kept, the job says so", async () => {
    const c = await caller();
    const up = await upload(c, await fixtureTar(FIXTURE_FILES));
    expect((await settle((await ingest(c, { upload_id: up.body.upload_id })).body.job_id)).status).toBe("succeeded");
    // Another session of the repository's writers: the kept snapshot is the repository's, not the uploader's.
    const other = await caller(c.a);
    const fix = (who: typeof c) =>
      call(srv.url, "POST", `/api/v1/repos/${c.a.repoName}/fix-jobs`, { headers: who.h, body: { problem: "Rename verifyToken to checkToken: the name clashes with the JWT helper." } });
    const sub = await fix(other);
    expect(sub.status, sub.text).toBe(202);
    const done = await settle(sub.body.job_id);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    expect((done.result as { patch: string }).patch).toContain("+  async checkToken(token: string): Promise<boolean> {");
    // Its temporary copy is gone with the job.
    const leftovers = (await run("sh", ["-c", `ls -d ${tmpdir()}/codesynapse-fix-* 2>/dev/null || true`])).stdout.trim();
    expect(leftovers).toBe("");

    // Past its expiry the snapshot is no longer kept: the fix job fails, and says why and what to do.
    await t().db.updateTable("ingest_uploads").set({ expires_at: new Date(Date.now() - 1000) }).where("id", "=", up.body.upload_id).execute();
    const late = await settle((await fix(other)).body.job_id);
    expect([late.status, late.error_code]).toEqual(["failed", "validation_failed"]);
    const view = await call(srv.url, "GET", `/api/v1/jobs/${late.id}`, { headers: other.h });
    expect(view.body.message).toMatch(/^The repository was last ingested from an upload that is no longer kept \(an ingested upload is kept 24 hours/);
    expect(view.text).not.toContain(up.body.upload_id);
  });

  it("only the uploading session, for that repository, may use an upload; bodies are checked before they are kept", async () => {
    const owner = await caller();
    const up = await upload(owner, await fixtureTar(FIXTURE_FILES));
    expect(up.status).toBe(201);
    const id = up.body.upload_id as string;

    // The same user in another chat thread, and another user of the organisation with write access: not theirs.
    const sibling = await caller(owner.a);
    const colleague = await caller(await seedAccount(t().db, { orgId: owner.a.orgId, repoId: owner.a.repoId }));
    for (const other of [sibling, colleague]) {
      const r = await ingest(other, { upload_id: id });
      expect([r.status, r.body?.error?.code]).toEqual([404, "upload_not_found"]);
      expect(r.text).not.toContain(id);
    }
    // A reader may not upload; garbage is not an archive; too large is 413. Nothing is stored for any of them.
    const reader = await caller(await seedAccount(t().db, { orgId: owner.a.orgId, repoId: owner.a.repoId, repoLevel: "read" }));
    expect((await upload(reader, await fixtureTar(FIXTURE_FILES))).body?.error?.code).toBe("repo_permission_denied");
    const junk = await upload(owner, Buffer.from("just some text, not an archive"));
    expect([junk.status, junk.body?.error?.code]).toEqual([415, "unsupported_archive"]);
    const big = await upload(owner, Buffer.alloc(256 * 1024 + 1, 0x1f));
    expect([big.status, big.body?.error?.code]).toEqual([413, "payload_too_large"]);
    const noHeaders = await call(srv.url, "POST", `/api/v1/repos/${owner.a.repoName}/uploads`, { headers: bearer(owner.a.apiKey), rawBody: await fixtureTar(FIXTURE_FILES) });
    expect(noHeaders.status).toBe(400);
    expect((await uploadRows(owner.session)).map((r) => r.id)).toEqual([id]);
    expect(await uploadRows(reader.session)).toEqual([]);

    // Listed and discarded by the owner only.
    const listed = await call(srv.url, "GET", `/api/v1/repos/${owner.a.repoName}/uploads`, { headers: owner.h });
    expect(listed.body.uploads.map((u: { upload_id: string }) => u.upload_id)).toEqual([id]);
    expect((await call(srv.url, "GET", `/api/v1/repos/${owner.a.repoName}/uploads`, { headers: sibling.h })).body.uploads).toEqual([]);
    const theirs = await call(srv.url, "DELETE", `/api/v1/repos/${owner.a.repoName}/uploads/${id}`, { headers: sibling.h });
    expect([theirs.status, theirs.body?.error?.code]).toEqual([404, "upload_not_found"]);
    expect((await call(srv.url, "DELETE", `/api/v1/repos/${owner.a.repoName}/uploads/${id}`, { headers: owner.h })).status).toBe(204);
    expect(await uploadRows(owner.session)).toEqual([]);

    // Bounded per session.
    const small = await zipOf({ "a.ts": "export const a = 1;\n" });
    for (let i = 0; i < INGEST_MAX_UPLOADS_PER_SESSION; i++) expect((await upload(owner, small)).status).toBe(201);
    const over = await upload(owner, small);
    expect([over.status, over.body?.error?.details?.limit]).toEqual([422, "uploads_per_session"]);
  });

  it("an upload goes with its session (the cleanup sweep's cleaner) and when it expires", async () => {
    const c = await caller();
    expect((await upload(c, await fixtureTar(FIXTURE_FILES))).status).toBe(201);
    expect((await upload(c, await zipOf(FIXTURE_FILES))).status).toBe(201);
    const cleaner = uploadsCleaner(relationalStores(t().db).uploads);
    expect(await cleaner.purgeSession({ tenant_id: c.a.orgId, session_id: c.session }, { limit: 1 })).toEqual({ done: false, removed: 1 });
    expect(await cleaner.purgeSession({ tenant_id: c.a.orgId, session_id: c.session }, { limit: 1 })).toEqual({ done: false, removed: 1 });
    expect(await cleaner.purgeSession({ tenant_id: c.a.orgId, session_id: c.session }, { limit: 1 })).toEqual({ done: true, removed: 0 });
    expect(await uploadRows(c.session)).toEqual([]);

    const d = await caller();
    const up = await upload(d, await fixtureTar(FIXTURE_FILES));
    await cleaner.purgeExpired!(new Date(Date.now() + 23 * 3600_000), { limit: 100 });
    expect(await uploadRows(d.session)).toHaveLength(1);
    await cleaner.purgeExpired!(new Date(Date.now() + 25 * 3600_000), { limit: 100 });
    expect(await uploadRows(d.session)).toEqual([]);
    expect((await ingest(d, { upload_id: up.body.upload_id })).body?.error?.code).toBe("upload_not_found");
  });

  it("a git URL on an allowed host is cloned (shallow, clean environment) and ingested; other hosts are refused unechoed", async () => {
    const c = await caller();
    const repo = path.join(gitRoot, "fixture");
    await writeFixtureRepo(repo, FIXTURE_FILES);
    const git = (...args: string[]) => run("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { cwd: repo });
    await git("init", "-q", "-b", "main");
    await git("add", ".");
    await git("commit", "-q", "-m", "fixture");
    const sub = await ingest(c, { git_url: `file://${repo}`, ref: "main" });
    expect(sub.status, sub.text).toBe(202);
    const done = await settle(sub.body.job_id);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    expect(done.result).toMatchObject({ source: "git", files: Object.keys(FIXTURE_FILES).length });
    expect(await hasFile(c.a, "src/auth.ts")).toBe(true);

    const refused = await ingest(c, { git_url: "https://example.invalid/secret-repo.git" });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("secret-repo");
  });
});
