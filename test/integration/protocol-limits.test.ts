/**
 * Protocol hygiene at the edges: oversized headers and deeply
 * nested JSON get a clear 4xx, never a 5xx, and the server serves on.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";

/** A raw request, so the test controls every byte; resolves with the status line. */
function rawStatus(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname, () => s.end(request));
    let out = "";
    s.on("data", (d) => (out += String(d)));
    s.on("end", () => resolve(out.split("\r\n")[0] ?? ""));
    // A server that answers and closes while request bytes are still unread makes the kernel send a
    // reset (Node 24 closes at once after its 431): what was answered before it still counts.
    s.on("error", (err) => (out ? resolve(out.split("\r\n")[0] ?? "") : reject(err)));
  });
}

await describeEachDatabase("protocol limits", (t) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db)));
  });
  afterAll(() => srv.close());

  it("an oversized header is 431, and the server serves on", async () => {
    const status = await rawStatus(srv.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(64 * 1024)}\r\nConnection: close\r\n\r\n`);
    expect(status).toMatch(/^HTTP\/1\.1 431 /);
    expect((await call(srv.url, "GET", "/healthz")).status).toBe(200);
  });

  it("deeply nested JSON is 400 validation_failed, whatever the depth", async () => {
    const a = await seedAccount(t().db);
    for (const depth of [64, 10_000, 200_000]) {
      const body = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const r = await fetch(`${srv.url}/api/v1/execution/sessions`, { method: "POST", headers: { ...bearer(a.apiKey), "content-type": "application/json" }, body });
      expect(r.status, String(depth)).toBeGreaterThanOrEqual(400);
      expect(r.status, String(depth)).toBeLessThan(500);
      const j = (await r.json()) as { error?: { code?: string } };
      expect(["validation_failed", "payload_too_large"]).toContain(j.error?.code);
    }
    expect((await call(srv.url, "GET", "/healthz")).status).toBe(200);
  });
});
