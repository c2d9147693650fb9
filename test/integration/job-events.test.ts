/**
 * Completion events over the real app and real worker pools, on
 * PGlite and PostgreSQL: `GET /api/v1/jobs/{id}/events` streams the owner's job
 * from its current status to its end and is refused — exactly as reading the
 * job is — to another session, user or tenant; heartbeats; one shared poll
 * however many streams; `?wait=` and `get_job` `wait_ms` answer at the end.
 */
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { jobEventsOf, type JobEvents } from "../../ops/job-events";
import { systemClock } from "../../core/clock";
import { revokeSession } from "../../core/registry/registry";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue } from "../../queues/submit";
import { defineHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { bearer, call, executionHeaders, listen, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { seedExecution, waitFor, type Execution } from "../support/jobs";
import { openSse } from "../support/sse";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;
const headers = (e: Execution) => executionHeaders(e.account.apiKey, e.identity.session_id);
const POLL_MS = 50;

/** Gated jobs: each waits until the test opens its gate (by the job's `gate` parameter), then succeeds. */
const gates = new Map<string, () => void>();
const gateOf = (name: string) => new Promise<void>((resolve) => gates.set(name, resolve));
const opened = new Map<string, Promise<void>>();
const gated = defineHandler({
  kind: "test.gated",
  pool: "ai",
  restartable: true,
  maxAttempts: 1,
  repoLevel: "read",
  params: z.strictObject({ gate: z.string() }),
  async run({ params, signal }) {
    await Promise.race([opened.get(params.gate), new Promise((r) => signal.addEventListener("abort", r))]);
    return { result: { gate: params.gate } };
  },
});
/** Never claimed: no pool runs it. Ends only by cancel. */
const parked = defineHandler({ kind: "test.parked", pool: "fix", restartable: false, maxAttempts: 1, repoLevel: "read", params: z.strictObject({ n: z.number() }), async run() { return {}; } });

await describeEachDatabase("job events", (t) => {
  let srv: TestServer;
  let ctx: AppContext;
  let th: TestHost;
  let ev: JobEvents;
  beforeAll(async () => {
    th = await startTestHost(t(), [gated, parked], { pools: ["ai"] });
    ctx = testContext(t().db, { clock });
    ctx.jobs = { db: t().db, identity: identityStore, clock, registry: th.registry, dispatcher: th.dispatcher } satisfies JobQueue;
    ev = jobEventsOf(ctx, { pollMs: POLL_MS, heartbeatMs: 150 });
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    for (const open of gates.values()) open();
    await Promise.all((ctx.closers ?? []).map((c) => c()));
    await srv?.close();
    await th?.stop();
  });

  async function gatedJob(e: Execution): Promise<{ job: JobRow; open: () => void }> {
    const name = crypto.randomUUID();
    opened.set(name, gateOf(name));
    const job = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.gated", params: { gate: name }, repo: e.account.repoId });
    return { job, open: () => gates.get(name)!() };
  }
  const parkedJob = (e: Execution) => submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.parked", params: { n: 1 }, repo: e.account.repoId });
  const eventsUrl = (id: string) => `${srv.url}/api/v1/jobs/${id}/events`;
  const statuses = (s: { events: Array<{ event: string; data: string }> }) => s.events.filter((x) => x.event === "status").map((x) => JSON.parse(x.data).status);

  it("streams the owner's job: its current status first, each change, then the end; the last event is GET /jobs/{id}", async () => {
    const e = await seedExecution(t().db, clock);
    const { job, open } = await gatedJob(e);
    const s = await openSse(eventsUrl(job.id), headers(e));
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    await s.until((x) => statuses(x).includes("running"));
    expect(statuses(s)[0]).toMatch(/^(queued|running)$/);
    open();
    await s.ended; // the server ends the stream after the terminal status
    expect(statuses(s).at(-1)).toBe("succeeded");
    expect(s.events.at(-1)).toMatchObject({ event: "end" });
    expect(JSON.parse(s.events.at(-1)!.data)).toEqual({ status: "succeeded" });
    const final = JSON.parse(s.events.filter((x) => x.event === "status").at(-1)!.data);
    expect(final).toEqual((await call(srv.url, "GET", `/api/v1/jobs/${job.id}`, { headers: headers(e) })).body);
    expect(final.result).toEqual({ gate: expect.any(String) });
    expect(new Set(statuses(s)).size).toBe(statuses(s).length); // no status repeated
    await waitFor(async () => ev.watcher.size === 0, 2000);
  });

  it("another session, user or tenant gets the same refusal as for reading the job, and no stream", async () => {
    const e = await seedExecution(t().db, clock);
    const sibling = await seedExecution(t().db, clock, { account: e.account });
    const stranger = await seedExecution(t().db, clock);
    const job = await parkedJob(e);
    for (const who of [sibling, stranger]) {
      const read = await call(srv.url, "GET", `/api/v1/jobs/${job.id}`, { headers: headers(who) });
      const s = await openSse(eventsUrl(job.id), headers(who));
      expect([s.status, s.contentType]).toEqual([404, read.headers.get("content-type")]);
      expect(s.body).toEqual(read.body);
      expect(s.body.error.code).toBe("job_not_found");
      // Nor can it wait on it.
      expect((await call(srv.url, "GET", `/api/v1/jobs/${job.id}?wait=5000`, { headers: headers(who) })).body).toEqual(read.body);
    }
    // A job id that names nothing, and a request without execution headers, are refused the same way too.
    expect((await openSse(eventsUrl("job_" + "0".repeat(32)), headers(e))).body.error.code).toBe("job_not_found");
    const bare = await openSse(eventsUrl(job.id), bearer(e.account.apiKey));
    expect([bare.status, bare.body]).toEqual([400, (await call(srv.url, "GET", `/api/v1/jobs/${job.id}`, { headers: bearer(e.account.apiKey) })).body]);
    // Revoked: 410, like the read.
    await revokeSession(identityStore(t().db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
    expect((await openSse(eventsUrl(job.id), headers(e))).status).toBe(410);
    expect(ev.watcher.size).toBe(0);
  });

  it("heartbeats while nothing changes; a cancel ends the stream; a reconnect to an ended job is 204", async () => {
    const e = await seedExecution(t().db, clock);
    const job = await parkedJob(e);
    const s = await openSse(eventsUrl(job.id), headers(e));
    await s.until((x) => x.comments.filter((c) => c === "heartbeat").length >= 2);
    expect(statuses(s)).toEqual(["queued"]);
    expect((await call(srv.url, "POST", `/api/v1/jobs/${job.id}/cancel`, { headers: headers(e) })).status).toBe(202);
    await s.ended;
    expect(statuses(s)).toEqual(["queued", "canceled"]);
    // A fresh stream of an ended job: its status and the end at once.
    const after = await openSse(eventsUrl(job.id), headers(e));
    await after.ended;
    expect(after.events.map((x) => x.event)).toEqual(["status", "end"]);
    // EventSource reconnecting (Last-Event-ID) to an ended job is told to stop.
    const again = await fetch(eventsUrl(job.id), { headers: { ...headers(e), "last-event-id": s.events[0]!.id! } });
    expect(again.status).toBe(204);
  });

  it("many streams share one poll: statements per interval do not grow with clients; closed streams unsubscribe", async () => {
    const e = await seedExecution(t().db, clock);
    const jobs = await Promise.all(Array.from({ length: 8 }, () => parkedJob(e)));
    const streams = await Promise.all(jobs.flatMap((j) => [openSse(eventsUrl(j.id), headers(e)), openSse(eventsUrl(j.id), headers(e)), openSse(eventsUrl(j.id), headers(e))]));
    await Promise.all(streams.map((s) => s.until((x) => x.events.length >= 1)));
    expect(ev.watcher.size).toBe(24);
    const before = ev.watcher.polls;
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    const polls = ev.watcher.polls - before;
    // 24 clients over 8 jobs: at most one statement per interval (a poll per client would be ≥ 24 per interval).
    expect(polls).toBeGreaterThan(0);
    expect(polls).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / POLL_MS) + 1);
    for (const s of streams) s.close();
    await waitFor(async () => ev.watcher.size === 0, 3000);
    const idle = ev.watcher.polls;
    await new Promise((r) => setTimeout(r, 4 * POLL_MS));
    expect(ev.watcher.polls).toBe(idle); // nobody watches: no statement at all
  });

  it("GET /jobs/{id}?wait= answers as soon as the job ends, or with its status when the wait runs out; bounded to 30 s", async () => {
    const e = await seedExecution(t().db, clock);
    const { job, open } = await gatedJob(e);
    const t0 = Date.now();
    const pending = call(srv.url, "GET", `/api/v1/jobs/${job.id}?wait=20000`, { headers: headers(e) });
    setTimeout(open, 300);
    const r = await pending;
    expect([r.status, r.body.status]).toEqual([200, "succeeded"]);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const parkedOne = await parkedJob(e);
    const short = await call(srv.url, "GET", `/api/v1/jobs/${parkedOne.id}?wait=200`, { headers: headers(e) });
    expect([short.status, short.body.status]).toEqual([200, "queued"]);
    for (const bad of ["30001", "-1", "soon"]) {
      const b = await call(srv.url, "GET", `/api/v1/jobs/${parkedOne.id}?wait=${bad}`, { headers: headers(e) });
      expect([b.status, b.body.error.code]).toEqual([400, "validation_failed"]);
    }
  });

  it("a stream ends after its lifetime, lets go of its watch, and the reconnect is authorized again", async () => {
    const own = testContext(t().db, { clock });
    own.jobs = ctx.jobs;
    const life = jobEventsOf(own, { pollMs: POLL_MS, maxStreamMs: 400 });
    const node = await listen(createApp(own));
    try {
      const e = await seedExecution(t().db, clock);
      const job = await parkedJob(e);
      const s = await openSse(`${node.url}/api/v1/jobs/${job.id}/events`, headers(e));
      await s.ended; // the server ended it: no terminal status, no end event
      expect(s.events.map((x) => x.event)).toEqual(["status"]);
      await waitFor(async () => life.watcher.size === 0, 5000);
      await call(srv.url, "DELETE", `/api/v1/execution/sessions/${e.identity.session_id}`, { headers: bearer(e.account.apiKey) });
      const again = await fetch(`${node.url}/api/v1/jobs/${job.id}/events`, { headers: { ...headers(e), "last-event-id": s.events[0]!.id! } });
      expect(again.status).toBe(410);
      await again.body?.cancel();
    } finally {
      await Promise.all((own.closers ?? []).map((c) => c()));
      await node.close();
    }
  });

  it("shutdown ends every stream and answers every wait at once", async () => {
    const own = testContext(t().db, { clock });
    own.jobs = ctx.jobs;
    jobEventsOf(own, { pollMs: POLL_MS });
    const node = await listen(createApp(own));
    try {
      const e = await seedExecution(t().db, clock);
      const job = await parkedJob(e);
      const s = await openSse(`${node.url}/api/v1/jobs/${job.id}/events`, headers(e));
      await s.until((x) => x.events.length >= 1);
      const waiting = call(node.url, "GET", `/api/v1/jobs/${job.id}?wait=30000`, { headers: headers(e) });
      await waitFor(async () => own.jobEvents!.watcher.size === 2, 5000);
      const t0 = Date.now();
      await Promise.all((own.closers ?? []).map((c) => c()));
      await s.ended;
      const r = await waiting;
      expect([r.status, r.body.status]).toEqual([200, "queued"]);
      expect(Date.now() - t0).toBeLessThan(10_000); // not the 30 s of the wait
      expect(own.jobEvents!.watcher.size).toBe(0);
    } finally {
      await node.close();
    }
  });

  it("get_job takes wait_ms (≤ 30000) and returns at the end", async () => {
    const e = await seedExecution(t().db, clock);
    const { job, open } = await gatedJob(e);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: headers(e) } }));
    try {
      const now = (await client.callTool({ name: "get_job", arguments: { job_id: job.id } })) as { structuredContent: any };
      expect(["queued", "running"]).toContain(now.structuredContent.status);
      setTimeout(open, 300);
      const waited = (await client.callTool({ name: "get_job", arguments: { job_id: job.id, wait_ms: 20_000 } })) as { structuredContent: any };
      expect(waited.structuredContent.status).toBe("succeeded");
      const tooLong = (await client.callTool({ name: "get_job", arguments: { job_id: job.id, wait_ms: 30_001 } })) as { isError?: boolean; structuredContent: any };
      expect([tooLong.isError, tooLong.structuredContent.error.code]).toEqual([true, "validation_failed"]);
    } finally {
      await client.close();
    }
  });
});
