import { describe, expect, it } from "vitest";
import { makeIdentity } from "../../core/execution/identity";
import { LocalHashEmbedder } from "../../core/memory/embedder";
import { LocalExtractor } from "../../core/memory/extractor";
import { bm25 } from "../../core/recall/bm25";
import { fractionalRanks, rrf } from "../../core/recall/rrf";
import { lexicalTerms, stem, tokenize } from "../../core/recall/tokenize";

describe("tokenize / bm25 / rrf", () => {
  it("splits code identifiers", () => {
    expect(tokenize("TokenStore.issue() uses HTTPServer_v2")).toEqual(["token", "store", "issue", "uses", "http", "server", "v", "2"]);
  });

  it("stems lightly and consistently; lexical terms add whole multi-part identifiers", () => {
    const same = (...ws: string[]) => expect(new Set(ws.map(stem)).size).toBe(1);
    same("invoices", "invoice");
    same("caching", "cache", "cached");
    same("scanner", "scanning");
    same("shipping", "ships", "shipped");
    same("currencies", "currency");
    same("convert", "converter", "conversion", "converting");
    same("validate", "validator", "validation", "validated");
    same("serializer", "serialization", "serialize");
    same("extend", "extension");
    expect(stem("conversion")).not.toBe(stem("currency"));
    expect(stem("store")).not.toBe(stem("stock"));
    expect(stem("status")).toBe("status");
    expect(stem("v2")).toBe("v2");
    expect(lexicalTerms("Who calls TokenStore?")).toEqual(["call", "token", "stor", "tokenstore"]);
  });

  it("bm25 matches inflections and ranks the exact identifier above its scattered words", () => {
    const docs = [
      { id: "exact", text: "TokenStore stores in RedisCluster" },
      { id: "scattered", text: "Token issues Store receipts" },
    ];
    expect(bm25(docs, "TokenStore", { limit: 10 }).map((x) => x.id)).toEqual(["exact", "scattered"]);
    expect(bm25([{ id: "inv", text: "InvoiceRepository stores_in PostgresPrimary" }], "invoices", { limit: 10 }).map((x) => x.id)).toEqual(["inv"]);
  });

  it("bm25 ranks the document with the rarer matching term first and ignores non-matching ones", () => {
    const docs = [
      { id: "a", text: "AuthService calls TokenStore" },
      { id: "b", text: "AuthService calls UserRepository" },
      { id: "c", text: "BillingWorker calls StripeGateway" },
    ];
    const r = bm25(docs, "auth token", { limit: 10 });
    expect(r.map((x) => x.id)).toEqual(["a", "b"]);
    expect(r[0]!.score).toBeGreaterThan(r[1]!.score);
    expect(bm25(docs, "the of", { limit: 10 })).toEqual([]);
  });

  it("bm25 matches a -sion noun to its verb's agent noun (currencies conversion → CurrencyConverter)", () => {
    const docs = [
      { id: "conv", text: "LedgerService depends on CurrencyConverter" },
      { id: "dto", text: "ShippingRegistry calls CurrencyDto" },
    ];
    const r = bm25(docs, "currencies conversion", { limit: 10 });
    expect(r.map((x) => x.id)).toEqual(["conv", "dto"]);
    expect(r[0]!.score).toBeGreaterThan(r[1]!.score);
  });

  it("rrf gives tied items of one list the same (average) rank, so the other list breaks the tie", () => {
    expect([...fractionalRanks([{ id: "a", score: 3 }, { id: "b", score: 2 }, { id: "c", score: 2 }, { id: "d", score: 2 }, { id: "e", score: 1 }])]).toEqual([
      ["a", 1],
      ["b", 3],
      ["c", 3],
      ["d", 3],
      ["e", 5],
    ]);
    // "a" < "z" by ID, but "z" is better in the second list: with the tie honoured, "z" wins.
    const lexical = [{ id: "a", score: 2.5 }, { id: "z", score: 2.5 }];
    const dense = [{ id: "z", score: 0.9 }, { id: "a", score: 0.5 }];
    expect(rrf([lexical, dense], { limit: 2 }).map((x) => x.id)).toEqual(["z", "a"]);
    // Without scores, ranks are positions.
    expect(rrf([[{ id: "a" }, { id: "z" }]], { limit: 2 }).map((x) => x.id)).toEqual(["a", "z"]);
  });

  it("rrf rewards items ranked well in both lists", () => {
    const r = rrf([[{ id: "x" }, { id: "y" }, { id: "z" }], [{ id: "y" }, { id: "w" }]], { limit: 10 });
    expect(r[0]!.id).toBe("y");
    expect(r.map((x) => x.id).sort()).toEqual(["w", "x", "y", "z"]);
    expect(r[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
  });
});

describe("local embedder and extractor", () => {
  const id = makeIdentity({ tenant_id: "o", subject_id: "u", session_id: "s", parent_session_id: "s" });

  it("refuses to embed without a validated identity; similar names are closer than unrelated ones", async () => {
    const e = new LocalHashEmbedder();
    await expect(e.embed({ ...id } as never, ["x"])).rejects.toMatchObject({ code: "unauthenticated" });
    const [inv, invoices, stripe] = await e.embed(id, ["InvoiceRepository", "invoices", "StripeGateway"]);
    const dot = (a: number[], b: number[]) => a.reduce((n, x, i) => n + x * b[i]!, 0);
    expect(dot(inv!, invoices!)).toBeGreaterThan(dot(inv!, stripe!) + 0.1);
  });

  it("the local embedder captures sub-word similarity (abbreviations, inflections) and is deterministic", async () => {
    const e = new LocalHashEmbedder();
    expect(e.model).toBe("local-hash-v3-256");
    const dot = (a: number[], b: number[]) => a.reduce((n, x, i) => n + x * b[i]!, 0);
    const [auth, authentication, billing] = await e.embed(id, ["auth", "AuthenticationService", "BillingWorker"]);
    expect(dot(auth!, authentication!)).toBeGreaterThan(dot(auth!, billing!) + 0.2);
    const [caching, cacheLayer, ledger] = await e.embed(id, ["caching", "CacheLayer", "LedgerService"]);
    expect(dot(caching!, cacheLayer!)).toBeGreaterThan(dot(caching!, ledger!) + 0.2);
    const again = new LocalHashEmbedder().vector("AuthenticationService");
    expect(again).toEqual(authentication);
    expect(Math.hypot(...again)).toBeCloseTo(1, 10);
  });

  it("extracts code relations deterministically and skips prose and redacted names", async () => {
    const x = new LocalExtractor();
    const turns = [
      { role: "user" as const, content: "AuthService depends on TokenStore. The weather uses nothing." },
      { role: "assistant" as const, content: "Right, and `billing/worker.ts` calls StripeGateway; [REDACTED:github_token] uses CiConfig." },
    ];
    const a = (await x.extract(id, turns)).flatMap((s) => s.links ?? []);
    expect(a.map((t) => `${t.subject} ${t.predicate} ${t.object}`)).toEqual(["AuthService depends_on TokenStore", "billing/worker.ts calls StripeGateway"]);
    expect((await x.extract(id, turns)).flatMap((s) => s.links ?? [])).toEqual(a);
  });
});
