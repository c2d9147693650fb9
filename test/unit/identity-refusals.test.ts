/**
 * The refusals of the identity and authentication paths say which part is wrong:
 *  - docs/identity.md's refusal table is exactly the catalog (core/errors-identity.ts) and the
 *    fixed messages of core/errors.ts: every cause, code, status and message, so neither can drift;
 *  - every cause has its own message, and messages of several causes sharing a code differ;
 *  - each message names a header, field, source or rule (never a value: the catalog is fixed text).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError, ERRORS } from "../../core/errors";
import { decide } from "../../core/authorize-rules";
import { makeIdentity } from "../../core/execution/identity";
import { ID_RULE, IDENTITY_REFUSALS, refusalTable, refusalTableMarkdown } from "../../core/errors-identity";

const START = "<!-- refusal-table:start -->";
const END = "<!-- refusal-table:end -->";

describe("identity and authentication refusals", () => {
  it("docs/identity.md tables exactly these refusals", () => {
    const doc = readFileSync(new URL("../../docs/identity.md", import.meta.url), "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, "docs/identity.md has the refusal table markers").toBeGreaterThan(-1);
    expect(doc.slice(start + START.length, end).trim()).toBe(refusalTableMarkdown());
  });

  it("every cause has its own message; causes of one code differ", () => {
    const rows = refusalTable();
    expect(new Set(rows.map((r) => r.message)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.cause)).size).toBe(rows.length);
    for (const r of rows) expect(r.status).toBe(ERRORS[r.code].status);
    // The codes are the stable ones clients already know.
    for (const r of Object.values(IDENTITY_REFUSALS)) expect(Object.keys(ERRORS)).toContain(r.code);
  });

  it("each ID refusal states the rule; each header refusal names its header", () => {
    for (const [cause, r] of Object.entries(IDENTITY_REFUSALS)) {
      if (cause.endsWith("_malformed") && r.code !== "invalid_credentials" && r.code !== "validation_failed") expect(r.message, cause).toContain(ID_RULE);
      if (cause.startsWith("session_header") || cause.startsWith("session_headers")) expect(r.message, cause).toContain("X-CodeSynapse-Session");
      if (cause.startsWith("parent_header")) expect(r.message, cause).toContain("X-CodeSynapse-Parent-Session");
    }
    expect(ERRORS.invalid_identity.message).toContain(ID_RULE);
    expect(IDENTITY_REFUSALS.authorization_not_bearer.message).toContain("Bearer");
  });

  it("each identity field is named when it breaks the rule, and its value is never quoted", () => {
    const good = { tenant_id: "org-1", subject_id: "user-1", session_id: "thread-1", parent_session_id: "thread-1" };
    const bad = "bad id!seen";
    for (const field of ["tenant_id", "subject_id", "session_id", "parent_session_id"] as const) {
      const input = { ...good, [field]: bad, ...(field === "session_id" ? { parent_session_id: bad } : {}) };
      const err = (() => {
        try {
          makeIdentity(input);
        } catch (e) {
          return e as AppError;
        }
        throw new Error("accepted");
      })();
      expect([err.code, err.message, err.details], field).toEqual(["invalid_identity", IDENTITY_REFUSALS[`identity_${field}_malformed`].message, { field }]);
      expect(err.message).not.toContain(bad);
    }
    expect(() => makeIdentity({ ...good, parent_session_id: "thread-2" })).toThrow(IDENTITY_REFUSALS.identity_parent_differs.message);
    // The authorization rules name a malformed session ID by cause too (a job or a submission that names one).
    expect(decide({ credential: { kind: "api_key", prefix: "csk_00000000", hash: "00" }, sessionId: bad }, undefined, new Date())).toMatchObject({
      ok: false,
      code: "invalid_session_header",
      cause: "session_id_malformed",
    });
  });
});
