/**
 * Provider limits (core/provider-limits.ts) against a real HTTP endpoint on loopback that speaks
 * the OpenAI embeddings API and records what it receives: requests in flight and per second,
 * per process and shared by two "processes" (two gates with their own Redis clients), and a
 * provider's 429 + Retry-After deferring the job — on PGlite and PostgreSQL — without spending
 * its one attempt.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { makeIdentity } from "../../core/execution/identity";
import { OpenAIEmbedder } from "../../core/memory/embedder";
import { MemorySemaphores, ProviderGate, retryAfterMs } from "../../core/provider-limits";
import { memoryLimiterStore } from "../../core/rate-limit";
import { redisProviderLimitStores } from "../../db/redis-provider-limits";
import { defineHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";

/** An embeddings endpoint: each request takes `delayMs`; queued status codes (e.g. 429) answer first. */
class FakeProvider {
  readonly server: Server;
  inFlight = 0;
  maxInFlight = 0;
  readonly times: number[] = [];
  delayMs = 60;
  readonly answers: Array<{ status: number; retryAfter?: string }> = [];

  constructor() {
    this.server = createServer((req, res) => {
      this.times.push(Date.now());
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      req.resume();
      req.on("end", () => {
        setTimeout(() => {
          this.inFlight--;
          const a = this.answers.shift();
          if (a) {
            res.writeHead(a.status, { "content-type": "application/json", ...(a.retryAfter ? { "retry-after": a.retryAfter } : {}) });
            res.end("{}");
            return;
          }
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ data: [{ index: 0, embedding: [0.1, 0.2, 0.3] }] }));
        }, this.delayMs);
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }
  reset(): void {
    this.maxInFlight = 0;
    this.times.length = 0;
  }
}

const identity = makeIdentity({ tenant_id: "org_t", subject_id: "user_t", session_id: "sess_t", parent_session_id: "sess_t" });
const provider = new FakeProvider();
let url = "";
beforeAll(async () => {
  url = await provider.start();
});
afterAll(() => new Promise<void>((r) => provider.server.close(() => r())));

const inProcess = () => ({ limiters: memoryLimiterStore, semaphores: new MemorySemaphores() });
const embedder = (gate?: ProviderGate) => new OpenAIEmbedder({ baseUrl: url, model: "m", dim: 0, ...(gate ? { gate } : {}) });
const burst = (e: OpenAIEmbedder, n: number) => Promise.all(Array.from({ length: n }, (_, i) => e.embed(identity, [`t${i}`])));

it("requests in flight: never more than the limit at the endpoint (without it, the burst arrives at once)", async () => {
  provider.reset();
  await burst(embedder(), 8);
  expect(provider.maxInFlight).toBeGreaterThan(2);
  provider.reset();
  const out = await burst(embedder(new ProviderGate("embedder", url, { concurrent: 2 }, inProcess())), 8);
  expect(out).toHaveLength(8);
  expect(provider.maxInFlight).toBe(2);
  expect(provider.times).toHaveLength(8);
});

it("requests per second: 12 requests at 4/s take three windows", async () => {
  provider.reset();
  const t0 = Date.now();
  await burst(embedder(new ProviderGate("embedder", url, { rps: 4 }, inProcess())), 12);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
  // Never more than 4 within the first window.
  expect(provider.times.filter((t) => t - t0 < 900).length).toBeLessThanOrEqual(4);
});

it("Retry-After: seconds or an HTTP date", () => {
  expect(retryAfterMs("3")).toBe(3000);
  expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8_000);
  expect(retryAfterMs("soon")).toBeUndefined();
  expect(retryAfterMs(null)).toBeUndefined();
});

it("a provider's 429 becomes provider_rate_limited with its Retry-After, and releases the place it held", async () => {
  provider.reset();
  const gate = new ProviderGate("embedder", url, { concurrent: 1 }, inProcess());
  provider.answers.push({ status: 429, retryAfter: "7" });
  await expect(embedder(gate).embed(identity, ["x"])).rejects.toMatchObject({ code: "provider_rate_limited", details: { provider: "embedder", retry_after_ms: 7000 } });
  // The place is free again: the next call goes through at once.
  expect(await embedder(gate).embed(identity, ["y"])).toEqual([[0.1, 0.2, 0.3]]);
});

it("our own wait past the longest allowed defers instead of holding the worker", async () => {
  provider.reset();
  provider.delayMs = 400;
  try {
    const gate = new ProviderGate("embedder", url, { concurrent: 1 }, inProcess(), { maxWaitMs: 100 });
    const results = await Promise.allSettled([embedder(gate).embed(identity, ["a"]), embedder(gate).embed(identity, ["b"])]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "provider_rate_limited" });
  } finally {
    provider.delayMs = 60;
  }
});

const redisStatus = await probeService("redis");
describeWithService(redisStatus, "provider limits shared through Redis", () => {
  it("two processes' gates share one limit on requests in flight and per second", async () => {
    provider.reset();
    const a = redisProviderLimitStores(redisStatus.url!);
    const b = redisProviderLimitStores(redisStatus.url!);
    try {
      const ga = new ProviderGate("embedder", `${url}#shared`, { concurrent: 2 }, a);
      const gb = new ProviderGate("embedder", `${url}#shared`, { concurrent: 2 }, b);
      await Promise.all([burst(embedder(ga), 6), burst(embedder(gb), 6)]);
      expect(provider.times).toHaveLength(12);
      expect(provider.maxInFlight).toBe(2);
      provider.reset();
      const ra = new ProviderGate("embedder", `${url}#rate`, { rps: 5 }, a);
      const rb = new ProviderGate("embedder", `${url}#rate`, { rps: 5 }, b);
      const t0 = Date.now();
      await Promise.all([burst(embedder(ra), 6), burst(embedder(rb), 6)]);
      // 12 requests at 5/s shared: three windows (each process alone would have let its 6 through in two).
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    } finally {
      await a.limiters.close();
      await a.semaphores.close();
      await b.limiters.close();
      await b.semaphores.close();
    }
  });
});

await describeEachDatabase("a provider's 429 defers the job", (t) => {
  it("the job runs again after Retry-After and succeeds on its single attempt (a spent attempt would have failed it)", async () => {
    provider.reset();
    const gate = new ProviderGate("embedder", url, { concurrent: 4 }, inProcess());
    const handler = defineHandler({
      kind: "test.provider", pool: "embedding", restartable: true, maxAttempts: 1, params: anyParams,
      async run({ auth }) {
        const [v] = await embedder(gate).embed(auth!.identity, ["x"]);
        return { result: { dims: v!.length } };
      },
    });
    const e = await seedExecution(t().db, systemClock);
    provider.answers.push({ status: 429, retryAfter: "1" });
    const th = await startTestHost(t(), [handler]);
    try {
      const job = await enqueueFor(t().db, systemClock, e, { kind: "test.provider", pool: "embedding", maxAttempts: 1 });
      await th.dispatcher.dispatch([job], systemClock.now());
      const deferred = await waitFor(async () => {
        const r = await jobRow(t().db, job.id);
        return r.error_code === "provider_rate_limited" && r.status === "queued" ? r : undefined;
      });
      expect(deferred.attempts).toBe(0);
      const done = await waitFor(async () => {
        const r = await jobRow(t().db, job.id);
        return r.status === "succeeded" || r.status === "failed" ? r : undefined;
      });
      expect(done).toMatchObject({ status: "succeeded", attempts: 1, result: { dims: 3 } });
      expect(provider.times).toHaveLength(2);
      expect(provider.times[1]! - provider.times[0]!).toBeGreaterThanOrEqual(900);
    } finally {
      await th.stop();
    }
  });
});
