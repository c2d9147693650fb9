/**
 * Each cause of refusal on the identity and authentication paths, sent for real over REST and
 * /mcp, answers its stable code and status with the message of its cause (core/errors-identity.ts,
 * tabled in docs/identity.md) — and the body never holds what was refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { ERRORS } from "../../core/errors";
import { IDENTITY_REFUSALS, type IdentityRefusal } from "../../core/errors-identity";
import { systemClock } from "../../core/clock";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type JsonResponse, type TestServer } from "../support/http";

const S = "x-codesynapse-session";
const P = "x-codesynapse-parent-session";
/** Values that break the ID rule, each recognisable in a body. */
const BAD = "bad id!seen";
const BAD_PARENT = "bad/parent$seen";
const UNKNOWN_KEY = `csk_0badc0de_${"Q".repeat(43)}`;

describe("each refusal says which part is wrong, and never what was sent", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;
  let thread: string;
  let other: string;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContext(database.db, { clock: systemClock })));
    a = await seedAccount(database.db);
    thread = (await registerThread(srv.url, a.apiKey)).session;
    other = (await registerThread(srv.url, a.apiKey)).session;
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await database?.close();
  });

  const identity = (headers: Record<string, string>) => call(srv.url, "GET", "/api/v1/execution/identity", { headers });
  /** A 2026-07-28 tools/call of get_identity with `_meta` keys of the runtime's own. */
  const mcp = (headers: Record<string, string>, meta: Record<string, unknown>) =>
    call(srv.url, "POST", "/mcp", {
      headers: { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_identity" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "get_identity",
          arguments: {},
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {}, ...meta },
        },
      },
    });

  /** The refusal of a REST or /mcp answer: status, stable code and message. */
  const refusalOf = (r: JsonResponse) => {
    const e = r.body?.error ?? {};
    return { status: r.status, code: (e.data?.code ?? e.code) as string, message: e.message as string };
  };
  const expectCause = (r: JsonResponse, cause: IdentityRefusal, sent: readonly string[] = []) => {
    const want = IDENTITY_REFUSALS[cause];
    expect(refusalOf(r), cause).toEqual({ status: ERRORS[want.code].status, code: want.code, message: want.message });
    for (const v of sent) expect(r.text, `${cause} echoes what was sent`).not.toContain(v);
  };

  it("the execution headers: one alone, either malformed, the two differing, none sent by a key", async () => {
    const key = bearer(a.apiKey);
    expectCause(await identity({ ...key, [S]: thread }), "session_header_alone", [thread]);
    expectCause(await identity({ ...key, [P]: thread }), "parent_header_alone", [thread]);
    expectCause(await identity({ ...key, [S]: BAD, [P]: BAD }), "session_header_malformed", [BAD]);
    expectCause(await identity({ ...key, [S]: thread, [P]: BAD_PARENT }), "parent_header_malformed", [thread, BAD_PARENT]);
    expectCause(await identity({ ...key, [S]: thread, [P]: other }), "session_headers_differ", [thread, other]);
    expectCause(await identity(key), "session_not_named");
    // The same causes on /mcp.
    expectCause(await mcp({ ...key, [S]: thread, [P]: other }, {}), "session_headers_differ", [thread, other]);
    // And the codes with one cause keep their own message: an ID nobody registered.
    const unknown = uniq("never-registered");
    const r = await identity({ ...key, [S]: unknown, [P]: unknown });
    expect(refusalOf(r)).toEqual({ status: 404, code: "session_not_found", message: ERRORS.session_not_found.message });
    expect(r.text).not.toContain(unknown);
  });

  it("the runtimes' _meta keys on /mcp: each malformed key named; two threads conflict", async () => {
    const key = bearer(a.apiKey);
    expectCause(await mcp(key, { threadId: BAD }), "meta_thread_id_malformed", [BAD]);
    expectCause(await mcp(key, { "vscode.conversationId": BAD }), "meta_conversation_id_malformed", [BAD]);
    const conflict = await mcp({ ...key, [S]: thread, [P]: thread }, { threadId: other });
    expect(refusalOf(conflict)).toEqual({ status: 400, code: "session_source_conflict", message: ERRORS.session_source_conflict.message });
    expect(conflict.text).not.toContain(thread);
    expect(conflict.text).not.toContain(other);
  });

  it("the credential: none, another scheme, not a key, an unknown key, a bad cookie, a bad org header", async () => {
    const none = await identity({ [S]: thread, [P]: thread });
    expect(refusalOf(none)).toEqual({ status: 401, code: "unauthenticated", message: ERRORS.unauthenticated.message });
    expectCause(await identity({ authorization: `Basic ${Buffer.from(`u:${a.apiKey}`).toString("base64")}` }), "authorization_not_bearer", [a.apiKey]);
    expectCause(await identity({ authorization: a.apiKey }), "authorization_not_bearer", [a.apiKey]);
    expectCause(await identity({ authorization: "Bearer not-a-key-seen" }), "api_key_malformed", ["not-a-key-seen"]);
    expectCause(await identity({ authorization: `Bearer ${UNKNOWN_KEY}` }), "api_key_unknown", [UNKNOWN_KEY]);
    // The scheme is case-insensitive: a lower-case `bearer` with the right key works.
    expect((await identity({ authorization: `bearer ${a.apiKey}`, [S]: thread, [P]: thread })).status).toBe(200);
    expectCause(await identity({ cookie: "cs_session=short" }), "sign_in_unknown", ["short"]);
    const token = "T".repeat(43);
    expectCause(await call(srv.url, "GET", "/api/v1/me", { headers: { cookie: `cs_session=${token}` } }), "sign_in_unknown", [token]);
    const org = "o".repeat(129);
    expectCause(await call(srv.url, "GET", "/api/v1/me", { headers: { cookie: `cs_session=${token}`, "x-codesynapse-org": org } }), "org_header_malformed", [org]);
  });

  it("registration and sign-in: the field and the rule, not the value", async () => {
    const r = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), body: { session_id: BAD } });
    expectCause(r, "identity_session_id_malformed", [BAD]);
    expect(r.body.error.details).toEqual({ field: "session_id" });
    expectCause(await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: "wrong horse seen" } }), "login_refused", ["wrong horse seen"]);
  });
});
