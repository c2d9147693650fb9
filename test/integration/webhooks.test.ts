/**
 * Completion webhooks with real local HTTP receivers, on PGlite and
 * PostgreSQL: a job of an organisation with a webhook reaches a terminal status
 * (through the real runner, or a cancel) → one durable delivery, POSTed with a
 * valid HMAC-SHA256 signature; a receiver that fails twice gets it on the third
 * attempt (same id, same body); one that always fails is given up after N; no
 * other organisation's job is ever delivered; secrets are never logged.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { cliCommands, runLocal } from "../../api/cli-operations";
import { identityStore } from "../../db/sql/identity/store";
import { inputSchemaOf } from "../../ops/operation";
import { testContext } from "../support/app";
import { systemClock } from "../../core/clock";
import { verifySignature } from "../../core/webhook-signature";
import type { Db } from "../../db/schema";
import { cancelJob } from "../../queues/sql/cancelJob";
import { submitJob, type JobQueue } from "../../queues/submit";
import { listDeliveries } from "../../queues/webhooks";
import { defineHandler } from "../../workers/handler";
import { WebhookSender } from "../../workers/webhook-sender";
import { describeEachDatabase } from "../support/databases";
import { startTestHost, type TestHost } from "../support/job-host";
import { seedExecution, waitFor, type Execution } from "../support/jobs";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver: answers with the next scripted status (then 200), records every request. */
async function receiver(script: number[] = []): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.statusCode = script.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}/hooks/codesynapse?token=url-token-xyz`, got, close: () => new Promise((r) => server.close(() => r())) };
}

const quick = defineHandler({
  kind: "test.quick",
  pool: "ai",
  restartable: true,
  maxAttempts: 1,
  repoLevel: "read",
  params: z.strictObject({ fail: z.boolean() }),
  async run({ params }) {
    if (params.fail) throw Object.assign(new Error("nope"), { status: 422 });
    return { result: { ok: true } };
  },
});

/** No pool runs it: it ends only by cancel. */
const parked = defineHandler({ kind: "test.parked", pool: "fix", restartable: false, maxAttempts: 1, repoLevel: "read", params: z.strictObject({}), async run() { return {}; } });

await describeEachDatabase("completion webhooks", (t) => {
  /** An admin command on the database itself, as the CLI runs it offline (api/cli-operations.ts). */
  const adminCommand = async (name: string, input: Record<string, unknown>): Promise<object> => {
    const op = cliCommands().get(name)!;
    return runLocal(op, inputSchemaOf(op).parse(input) as Record<string, unknown>, testContext(t().db, { clock: systemClock }));
  };
  let th: TestHost;
  let queue: JobQueue;
  const lines: string[] = [];
  const logger = pino({ level: "trace" }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
  const sender = () => new WebhookSender({ db: t().db, clock: systemClock, logger, policy: { attempts: 4, baseMs: 20, maxMs: 80 }, timeoutMs: 2000 });
  const receivers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    th = await startTestHost(t(), [quick, parked], { pools: ["ai"] });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
  });
  afterAll(async () => {
    await th?.stop();
    for (const r of receivers) await r.close();
  });

  async function hooked(script: number[] = []) {
    const r = await receiver(script);
    receivers.push(r);
    const e = await seedExecution(t().db, systemClock);
    const set = (await adminCommand("set-webhook", { org: e.account.orgId, url: r.url })) as { secret: string; url: string };
    expect(set.secret).toMatch(/^whsec_/);
    return { r, e, secret: set.secret };
  }
  const run = (e: Execution, fail = false) => submitJob(queue, e.identity, e.principal, { kind: "test.quick", params: { fail }, repo: e.account.repoId });
  const deliveriesOf = (db: Db, orgId: string) => listDeliveries(db, orgId);
  /** Runs sender passes until the delivery of `jobId` is delivered or failed. */
  async function settle(orgId: string, jobId: string) {
    const s = sender();
    return waitFor(async () => {
      await s.runOnce();
      const d = (await deliveriesOf(t().db, orgId)).find((x) => x.job_id === jobId);
      return d && (d.status === "delivered" || d.status === "failed") ? d : undefined;
    }, 15_000, 30);
  }

  it("a finished job is delivered once, signed with HMAC-SHA256 over timestamp and body; the signature verifies only with the secret", async () => {
    const { r, e, secret } = await hooked();
    const job = await run(e);
    await waitFor(async () => (await deliveriesOf(t().db, e.account.orgId)).find((d) => d.job_id === job.id));
    const d = await settle(e.account.orgId, job.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, last_status: 200, last_error: null });
    expect(r.got).toHaveLength(1);
    const [req] = r.got;
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["codesynapse-delivery"]).toBe(d.id);
    expect(req!.headers["codesynapse-event"]).toBe("job.completed");
    const sig = String(req!.headers["codesynapse-signature"]);
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, sig, req!.body)).toBe(true);
    expect(verifySignature(`${secret}x`, sig, req!.body)).toBe(false);
    expect(verifySignature(secret, sig, req!.body.replace("succeeded", "failed"))).toBe(false);
    expect(verifySignature(secret, sig, req!.body, { nowS: Math.floor(Date.now() / 1000) + 3600 })).toBe(false); // a replay an hour later
    const body = JSON.parse(req!.body);
    expect(body).toMatchObject({ id: d.id, type: "job.completed", data: { job: { id: job.id, kind: "test.quick", status: "succeeded", repo_id: e.account.repoId, user_id: e.account.userId } } });
    expect(req!.body).not.toContain(e.identity.session_id); // no session id leaves the platform
    // A second pass sends nothing more.
    await sender().runOnce();
    expect(r.got).toHaveLength(1);
  });

  it("a receiver that fails twice then succeeds gets the delivery on the third attempt: same id, same body, each signed", async () => {
    const { r, e, secret } = await hooked([500, 503]);
    const job = await run(e, true); // a failed job is terminal too
    await waitFor(async () => (await deliveriesOf(t().db, e.account.orgId)).find((d) => d.job_id === job.id));
    const d = await settle(e.account.orgId, job.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 3, last_status: 200 });
    expect(r.got).toHaveLength(3);
    expect(new Set(r.got.map((g) => g.headers["codesynapse-delivery"]))).toEqual(new Set([d.id]));
    expect(new Set(r.got.map((g) => g.body)).size).toBe(1);
    for (const g of r.got) expect(verifySignature(secret, String(g.headers["codesynapse-signature"]), g.body)).toBe(true);
    expect(JSON.parse(r.got[0]!.body).data.job.status).toBe("failed");
  });

  it("a receiver that always fails is given up after the policy's attempts; operators see it", async () => {
    const { r, e } = await hooked([500, 500, 500, 500, 500, 500]);
    const job = await run(e);
    await waitFor(async () => (await deliveriesOf(t().db, e.account.orgId)).find((d) => d.job_id === job.id));
    const d = await settle(e.account.orgId, job.id);
    expect(d).toMatchObject({ status: "failed", attempts: 4, last_status: 500, last_error: "http_500" });
    expect(r.got).toHaveLength(4);
    await sender().runOnce();
    expect(r.got).toHaveLength(4);
    const listed = (await adminCommand("webhook-deliveries", { org: e.account.orgId, status: "failed" })) as { deliveries: unknown[] };
    expect(listed.deliveries).toEqual([expect.objectContaining({ id: d.id, job_id: job.id, status: "failed", attempts: 4 })]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
  });

  it("no delivery for another organisation's jobs: neither to this org's receiver nor without a webhook of its own", async () => {
    const mine = await hooked();
    const theirs = await hooked();
    const plain = await seedExecution(t().db, systemClock); // an organisation without a webhook
    const a = await run(mine.e);
    const b = await run(theirs.e);
    const c = await run(plain);
    const canceled = await submitJob(queue, plain.identity, plain.principal, { kind: "test.parked", params: {}, repo: plain.account.repoId });
    await cancelJob(t().db, plain.identity, canceled.id, systemClock.now());
    await settle(mine.e.account.orgId, a.id);
    await settle(theirs.e.account.orgId, b.id);
    await waitFor(async () => (await t().db.selectFrom("jobs").select("status").where("id", "=", c.id).executeTakeFirstOrThrow()).status === "succeeded");
    await sender().runOnce();
    expect(mine.r.got.map((g) => JSON.parse(g.body).data.job.id)).toEqual([a.id]);
    expect(theirs.r.got.map((g) => JSON.parse(g.body).data.job.id)).toEqual([b.id]);
    const others = await t().db.selectFrom("webhook_deliveries").select("id").where("job_id", "in", [c.id, canceled.id]).execute();
    expect(others).toEqual([]);
  });

  it("a cancel records a delivery; a removed webhook fails its pending deliveries; secrets and URL tokens are never logged", async () => {
    const { r, e, secret } = await hooked();
    const park = () => submitJob(queue, e.identity, e.principal, { kind: "test.parked", params: {}, repo: e.account.repoId });
    const job = await park();
    await cancelJob(t().db, e.identity, job.id, systemClock.now());
    expect(await settle(e.account.orgId, job.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(JSON.parse(r.got.at(-1)!.body).data.job).toMatchObject({ id: job.id, status: "canceled", error_code: "canceled" });
    // Recorded while the webhook existed, sent after it was removed: failed, not sent anywhere.
    const pendingJob = await park();
    await cancelJob(t().db, e.identity, pendingJob.id, systemClock.now());
    expect(await adminCommand("remove-webhook", { org: e.account.orgId })).toEqual({ org_id: e.account.orgId, removed: true });
    expect(await settle(e.account.orgId, pendingJob.id)).toMatchObject({ status: "failed", last_error: "webhook_removed", last_status: null });
    expect(r.got).toHaveLength(1);
    // Without a webhook nothing is recorded at all.
    const j2 = await park();
    await cancelJob(t().db, e.identity, j2.id, systemClock.now());
    expect(await t().db.selectFrom("webhook_deliveries").select("id").where("job_id", "=", j2.id).execute()).toEqual([]);
    const all = lines.join("");
    expect(all).toContain("webhook delivered");
    expect(all).not.toContain(secret);
    expect(all).not.toContain("whsec_");
    expect(all).not.toContain("url-token-xyz");
  });

  it("set-webhook refuses bad URLs and short secrets with a clear error, and unknown organisations", async () => {
    const e = await seedExecution(t().db, systemClock);
    const set = (f: Record<string, string>) => adminCommand("set-webhook", { org: e.account.orgId, ...f });
    await expect(set({ url: "ftp://example.test/x" })).rejects.toMatchObject({ code: "validation_failed", details: { flag: "url" } });
    await expect(set({ url: "not a url" })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(set({ url: "https://user:pw@example.test/x" })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(set({ url: "https://example.test/x", secret: "short" })).rejects.toMatchObject({ code: "validation_failed", details: { flag: "secret" } });
    await expect(adminCommand("set-webhook", { org: "org_nope", url: "https://example.test/x" })).rejects.toMatchObject({ code: "not_found" });
    const own = "my-own-signing-secret-0123456789";
    expect(await set({ url: "https://example.test/x", secret: own })).toEqual({ org_id: e.account.orgId, url: "https://example.test/x", secret: own });
  });
});
