/**
 * Request logs and the HTTP histogram of the real app (docs/observability.md): a request that
 * carries an API key, execution session headers and cookies leaves one log line with its request
 * id, method, route template, status and duration — and none of those credentials; the histogram
 * labels requests by template, every unknown path collapsing into one label value. The logger is
 * plain pino without the project's redaction, so what is asserted is what the request log itself
 * writes.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import net from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";

await describeEachDatabase("request logs and HTTP metrics", (t) => {
  let srv: TestServer;
  let logs = "";
  let a: Account;
  let session: string;
  let headers: Record<string, string>;
  const cookie = `cs_session=${randomBytes(24).toString("hex")}; other=${randomBytes(8).toString("hex")}`;
  const cookieValues = cookie.split("; ").map((c) => c.split("=")[1]!);

  const lines = () =>
    logs
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "request completed" || l.msg === "request failed");
  const settle = () => new Promise((r) => setTimeout(r, 50));

  beforeAll(async () => {
    const logger = pino({ level: "info" }, { write: (s: string) => void (logs += s) });
    srv = await listen(createApp(testContext(t().db, { logger })));
    a = await seedAccount(t().db);
    ({ session, headers } = await registerThread(srv.url, a.apiKey));
  });
  afterAll(async () => {
    await srv?.close();
  });

  it("one line per request: request id, method, route template, status, duration — no key, session id or cookie", async () => {
    const id = `trace-${randomBytes(6).toString("hex")}`;
    const r = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { ...headers, cookie, "x-request-id": id } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-request-id")).toBe(id);
    const del = await call(srv.url, "DELETE", `/api/v1/execution/sessions/${session}`, { headers: { authorization: `Bearer ${a.apiKey}`, cookie } });
    expect(del.status).toBeLessThan(300);
    await settle();
    const identity = lines().find((l) => l.request_id === id)!;
    expect(identity).toEqual({ level: 30, time: expect.any(Number), pid: expect.any(Number), hostname: expect.any(String), request_id: id, method: "GET", route: "/api/v1/execution/identity", status: 200, duration_ms: expect.any(Number), msg: "request completed" });
    // Each field once: JSON.parse keeps the last of two equal keys, so count them in the raw line.
    const raw = logs.split("\n").find((l) => l.includes(`"${id}"`) && l.includes("request completed"))!;
    expect(raw.match(/"request_id":/g)).toHaveLength(1);
    expect(lines().find((l) => l.method === "DELETE")).toMatchObject({ route: "/api/v1/execution/sessions/:id", status: del.status });
    expect(lines().find((l) => l.route === "/api/v1/execution/sessions" && l.method === "POST")).toMatchObject({ status: 201 });
    expect(logs).not.toContain(session);
    expect(logs).not.toContain(a.apiKey);
    for (const v of cookieValues) expect(logs).not.toContain(v);
  });

  it("a request that waited behind a held event loop is logged with the wait, not only the time after it", async () => {
    const id = `held-${randomBytes(6).toString("hex")}`;
    const url = new URL(srv.url);
    const socket = net.connect(Number(url.port), url.hostname);
    await once(socket, "connect");
    await call(srv.url, "GET", "/healthz"); // the loop runs normally right before
    const answered = once(socket, "data");
    socket.write(`GET /api/v1/me HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${a.apiKey}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`);
    // The request is in the server's socket; the loop is held for 400 ms before it can read it.
    const until = performance.now() + 400;
    while (performance.now() < until) {
      /* a synchronous step, as a long PGlite statement or parse is */
    }
    const [chunk] = (await answered) as [Buffer];
    expect(chunk.toString("latin1")).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
    await settle();
    const line = lines().find((l) => l.request_id === id)!;
    expect(line).toMatchObject({ route: "/api/v1/me", status: 200 });
    expect(line.duration_ms as number).toBeGreaterThanOrEqual(300);
  });

  it("keeps a safe X-Request-Id and replaces one that is a credential, a session id or not an opaque token", async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const { session: s2, headers: h2 } = await registerThread(srv.url, a.apiKey);
    for (const bad of [s2, a.apiKey, a.apiKey.slice(0, 20), "short", "has space in it", "x".repeat(65), "semi;colon-1234", `Bearer-${a.apiKey}`]) {
      const r = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { ...h2, "x-request-id": bad } });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-request-id"), bad).toMatch(uuid);
    }
    const r = await call(srv.url, "GET", "/healthz");
    expect(r.headers.get("x-request-id")).toMatch(uuid);
    await settle();
    expect(logs).not.toContain(s2);
    expect(logs).not.toContain(a.apiKey.slice(0, 20));
  });

  it("the histogram labels by route template; unknown paths are one label value; no id reaches a label", async () => {
    for (let i = 0; i < 20; i++) await call(srv.url, "GET", `/nothing/here/${randomBytes(6).toString("hex")}`, { headers });
    await call(srv.url, "GET", `/api/v1/jobs/job_${randomBytes(16).toString("hex")}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    const text = (await call(srv.url, "GET", "/metrics")).text;
    const counts = text.split("\n").filter((l) => l.startsWith("codesynapse_http_request_duration_seconds_count"));
    expect(counts.filter((l) => l.includes('route="(unmatched)"'))).toEqual([expect.stringMatching(/^codesynapse_http_request_duration_seconds_count\{method="GET",route="\(unmatched\)",status="404"\} 20$/)]);
    expect(counts.some((l) => l.includes('route="/api/v1/jobs/:id"'))).toBe(true);
    expect(counts.some((l) => l.includes('route="/api/v1/execution/sessions/:id",status="20'))).toBe(true);
    expect(text).not.toContain(session);
    expect(text).not.toMatch(/job_[0-9a-f]{32}/);
    expect(text).not.toContain("/nothing/here");
  });
});
