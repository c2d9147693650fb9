/**
 * The README's question, asked of this repository's own code as a newcomer asks it: the files
 * that verify credentials and their neighbours — the recall tokenizer, API-key creation and
 * revocation, sign-in, webhook signatures, rate limits — go through the real ingest (walk, parse,
 * buildCodeGraph, doc comments included), into the embedded default's store (PGlite), embedded by
 * the bundled sentence model as the embedding job does; then durable recall, fused, as
 * `POST …/memory/recall` and the AI tasks ask it. The code that verifies tokens and keys must be
 * among the first five answers, beside what shares the question's words (the tokenizer's
 * "tokens", key creation's "api key").
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeIdentity } from "../../core/execution/identity";
import { buildCodeGraph } from "../../core/ingest/graph";
import { parseChanged } from "../../core/ingest/incremental";
import { walkSnapshot } from "../../core/ingest/walk";
import { RepositoryMemory } from "../../core/memory/repository";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../../db/database";
import { PostgresRepositoryStore } from "../../db/graph/postgres/repository-store";
import { modelEmbedder } from "../support/model-embedder";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FILES = [
  "core/auth/authenticate.ts",
  "core/authorize-rules.ts",
  "core/authorize.ts",
  "core/crypto.ts",
  "core/accounts/api-keys.ts",
  "core/accounts/login-sessions.ts",
  "core/recall/tokenize.ts",
  "core/recall/bm25.ts",
  "core/webhook-signature.ts",
  "core/rate-limit.ts",
  "api/auth.ts",
  "api/http.ts",
  "api/csrf.ts",
  "api/mcp/auth-challenge.ts",
];
const VERIFYING = ["core/auth/authenticate.ts#authenticate", "core/auth/authenticate.ts#authenticateFor", "core/auth/authenticate.ts#credentialOf", "core/authorize-rules.ts#checkCredential"];
const REPO = "readme-question";
const identity = makeIdentity({ tenant_id: "org-readme", subject_id: "usr-readme", session_id: "readme-q", parent_session_id: "readme-q" });

describe("the README's question over this repository's code (real ingest, PGlite, the bundled model)", () => {
  let dir: string;
  let d: OpenDatabase;
  let memory: RepositoryMemory;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "readme-q-"));
    for (const f of FILES) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(dir, f));
    }
    const walk = await walkSnapshot(dir);
    const parsed = await parseChanged(walk.files, new Map());
    const triples = await buildCodeGraph(REPO, "codesynapse", parsed.files, null);
    d = await openDatabase({});
    await migrateToLatest(d.db);
    const store = new PostgresRepositoryStore(d.db);
    await store.upsertFacts(REPO, triples, { session_id: null }, Date.now());
    memory = new RepositoryMemory({ repo: store, clock: { now: () => new Date() }, embedder: modelEmbedder() });
    for (;;) {
      const e = await memory.embedMissing(identity, REPO, 256, 4);
      await store.setEmbeddings(REPO, e.model, e.vectors);
      if (!e.remaining) break;
    }
  }, 300_000);

  afterAll(async () => {
    await d?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const touches = (r: { subject: { name: string }; object: { name: string } }, names: string[]) => names.includes(r.subject.name) || names.includes(r.object.name);

  for (const question of ["Where are tokens verified?", "Where is the api key verified?"]) {
    it(`"${question}" answers with the code that verifies credentials`, async () => {
      const { results } = await memory.recall(identity, REPO, { query: question, limit: 10 });
      const top5 = results.slice(0, 5);
      const shown = top5.map((r) => `${r.subject.name} ${r.predicate} ${r.object.name}`).join("\n");
      expect(top5.some((r) => touches(r, VERIFYING)), shown).toBe(true);
    }, 60_000);
  }

  it("the verifying symbols carry their doc comments into the graph", async () => {
    const { results } = await memory.recall(identity, REPO, { query: "Verifies the presented credential against the row", limit: 10, mode: "lexical" });
    expect(results.some((r) => r.subject.name === "core/authorize-rules.ts#checkCredential" && r.predicate === "documented_as" && r.object.type === "code.doc")).toBe(true);
  }, 60_000);
});
