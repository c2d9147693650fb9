/**
 * Refusals of a request body say what to do: a 413 names the limit (in KiB/MiB, and the
 * variable where one sets it), a 415 names the content types the route takes, on the snapshot
 * upload route and on every JSON route. None quotes what was sent.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { formatBytes } from "../../api/body-errors";
import { BODY_LIMIT_BYTES } from "../../core/limits";
import { testContext } from "../support/app";
import { fixtureTar } from "../support/archives";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { FIXTURE_FILES } from "../support/fixture-repo";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";

const UPLOAD_LIMIT = 2 * 1024 * 1024;

describe("body refusals that say what to do", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;
  let h: Record<string, string>;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContext(database.db, { env: { INGEST_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) } })));
    a = await seedAccount(database.db);
    h = (await registerThread(srv.url, a.apiKey)).headers;
  });
  afterAll(async () => {
    await srv?.close();
    await database?.close();
  });
  const uploads = () => `/api/v1/repos/${a.repoName}/uploads`;

  it("an upload over INGEST_MAX_UPLOAD_BYTES is 413 naming the limit in MiB, the variable and how to send less", async () => {
    const r = await call(srv.url, "POST", uploads(), { headers: h, rawBody: Buffer.alloc(UPLOAD_LIMIT + 1, 0x1f) });
    expect([r.status, r.body.error.code]).toEqual([413, "payload_too_large"]);
    expect(r.body.error.message).toContain("2 MiB");
    expect(r.body.error.message).toContain("INGEST_MAX_UPLOAD_BYTES");
    expect(r.body.error.message).toContain("git archive");
    expect(r.body.error.details).toEqual({ limit: "INGEST_MAX_UPLOAD_BYTES", max_bytes: UPLOAD_LIMIT });
  });

  it("an archive sent as JSON, a form or text is 415 naming application/octet-stream; the archive types are taken", async () => {
    const archive = await fixtureTar(FIXTURE_FILES);
    for (const type of ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]) {
      const r = await call(srv.url, "POST", uploads(), { headers: { ...h, "content-type": type }, rawBody: archive });
      expect([r.status, r.body?.error?.code], type).toEqual([415, "unsupported_media_type"]);
      expect(r.body.error.message, type).toContain("Content-Type: application/octet-stream");
      expect(r.body.error.details.expected).toContain("application/gzip");
    }
    // A JSON body is refused as such, not parsed and then called "not valid JSON".
    const json = await call(srv.url, "POST", uploads(), { headers: h, body: { archive: "H4sIAAAA" } });
    expect([json.status, json.body.error.code]).toEqual([415, "unsupported_media_type"]);
    for (const type of ["application/octet-stream", "application/gzip", "application/x-tar", "application/zip"]) {
      const r = await call(srv.url, "POST", uploads(), { headers: { ...h, "content-type": type }, rawBody: archive });
      expect(r.status, `${type}: ${r.text}`).toBe(201);
    }
  });

  it("a JSON body over the API's limit is 413 naming it in KiB", async () => {
    const big = { session_id: "x".repeat(BODY_LIMIT_BYTES) };
    const r = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), body: big });
    expect([r.status, r.body.error.code]).toEqual([413, "payload_too_large"]);
    expect(r.body.error.message).toContain(`${BODY_LIMIT_BYTES / 1024} KiB`);
    expect(r.body.error.details).toEqual({ limit: "json_body_bytes", max_bytes: BODY_LIMIT_BYTES });
    // A gzip body is limited by what it inflates to, with the same words.
    const zipped = await call(srv.url, "POST", "/api/v1/execution/sessions", {
      headers: { ...bearer(a.apiKey), "content-type": "application/json", "content-encoding": "gzip" },
      rawBody: gzipSync(JSON.stringify(big)),
    });
    expect([zipped.status, zipped.body.error.details?.limit]).toEqual([413, "json_body_bytes"]);
  });

  it("a JSON route's 415s name the type, the charset and the encodings it takes", async () => {
    const id = uniq("typed");
    const text = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: { ...bearer(a.apiKey), "content-type": "text/plain" }, rawBody: JSON.stringify({ session_id: id }) });
    expect([text.status, text.body.error.code]).toEqual([415, "unsupported_media_type"]);
    expect(text.body.error.message).toContain("Content-Type: application/json");
    expect(text.body.error.details.expected).toEqual(["application/json", "application/*+json"]);

    const latin1 = await call(srv.url, "POST", "/api/v1/execution/sessions", {
      headers: { ...bearer(a.apiKey), "content-type": "application/json; charset=latin1" },
      rawBody: JSON.stringify({ session_id: id }),
    });
    expect([latin1.status, latin1.body.error.code]).toEqual([415, "unsupported_media_type"]);
    expect(latin1.body.error.message).toContain("charset=utf-8");

    const compressed = await call(srv.url, "POST", "/api/v1/execution/sessions", {
      headers: { ...bearer(a.apiKey), "content-type": "application/json", "content-encoding": "compress" },
      rawBody: JSON.stringify({ session_id: id }),
    });
    expect([compressed.status, compressed.body.error.code]).toEqual([415, "unsupported_media_type"]);
    expect(compressed.body.error.details.content_encodings).toEqual(["identity", "gzip", "deflate", "br"]);
    for (const r of [text, latin1, compressed]) expect(r.text).not.toContain(id);

    const broken = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), rawBody: "{not json" });
    expect([broken.status, broken.body.error.code, broken.body.error.message]).toEqual([400, "validation_failed", "The request body is not valid JSON."]);
  });

  it("formats limits as a person reads them", () => {
    expect([formatBytes(32 * 1024 * 1024), formatBytes(256 * 1024), formatBytes(1536), formatBytes(100), formatBytes(1.5 * 1024 * 1024)]).toEqual([
      "32 MiB",
      "256 KiB",
      "1.5 KiB",
      "100 bytes",
      "1.5 MiB",
    ]);
  });
});
