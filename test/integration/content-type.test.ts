/** Protocol hygiene: a body that is not JSON on a JSON route is 415, never run on defaults. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";

await describeEachDatabase("content type of request bodies", (t) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db)));
  });
  afterAll(() => srv.close());

  it("a JSON body sent as text/plain (or form, or no type) is 415 unsupported_media_type and does nothing", async () => {
    const a = await seedAccount(t().db);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/plain;charset=UTF-8"]) {
      const id = uniq("typed");
      const r = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: { ...bearer(a.apiKey), "content-type": type }, rawBody: JSON.stringify({ session_id: id }) });
      expect([r.status, r.body?.error?.code], type).toEqual([415, "unsupported_media_type"]);
      expect(r.text).not.toContain(id);
      expect(await t().db.selectFrom("session_bindings").select("session_id").where("session_id", "=", id).executeTakeFirst()).toBeUndefined();
    }
    // JSON and JSON-suffixed types, and bodiless requests, are unaffected.
    const ok = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: { ...bearer(a.apiKey), "content-type": "application/json; charset=utf-8" }, rawBody: JSON.stringify({ session_id: uniq("j") }) });
    expect(ok.status).toBe(201);
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) })).status).toBe(200);
  });
});
