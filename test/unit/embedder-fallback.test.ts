/**
 * The local sentence model and its hashing fallback: files checked by SHA-256 before anything
 * loads; a missing or altered file hands over to feature hashing once, says why, and never flips
 * back; the real model embeds by meaning.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeIdentity } from "../../core/execution/identity";
import { FallbackEmbedder, LocalHashEmbedder } from "../../core/memory/embedder";
import { cosine } from "../../core/memory/vector-index";
import { humanise, SentenceModelEmbedder } from "../../db/embedding/sentence-model";

const identity = makeIdentity({ tenant_id: "o", subject_id: "u", session_id: "s", parent_session_id: "s" });

function fallbackFor(dir: string) {
  const reasons: string[] = [];
  const e = new FallbackEmbedder(new SentenceModelEmbedder(undefined, { dir }), new LocalHashEmbedder(256), (r) => reasons.push(r));
  return { e, reasons };
}

describe("embedder fallback", () => {
  it("a missing model folder: hashing serves, status says model_missing, the warning fires once", async () => {
    const { e, reasons } = fallbackFor(path.join(tmpdir(), "no-such-model-dir"));
    expect(await e.status()).toEqual({ model: "local-hash-v3-256", fallback: "model_missing" });
    const [v] = await e.embed(identity, ["AuthService"]);
    expect(v).toHaveLength(256);
    expect(e.model).toBe("local-hash-v3-256");
    await e.embed(identity, ["again"]);
    expect(reasons).toEqual(["model_missing"]);
  });

  it("an altered file fails its checksum and is never loaded", async () => {
    const real = new SentenceModelEmbedder().dir;
    const dir = mkdtempSync(path.join(tmpdir(), "model-"));
    copyFileSync(path.join(real, "model.onnx"), path.join(dir, "model.onnx"));
    writeFileSync(path.join(dir, "tokenizer.json"), "{}");
    const { e, reasons } = fallbackFor(dir);
    await e.embed(identity, ["x"]);
    expect(await e.status()).toEqual({ model: "local-hash-v3-256", fallback: "checksum_mismatch" });
    expect(reasons).toEqual(["checksum_mismatch"]);
  });

  it("the bundled model serves: 384 dimensions, unit length, meaning over shared words", async () => {
    const { e, reasons } = fallbackFor(new SentenceModelEmbedder().dir);
    expect(await e.status()).toEqual({ model: "minilm-l6-v2-int8-384" });
    const [q, hit, miss] = await e.embed(identity, ["Where are auth tokens verified?", "AuthService validates JWT signatures", "The invoice PDF renderer"]);
    expect(q).toHaveLength(384);
    expect(Math.hypot(...q!)).toBeCloseTo(1, 4);
    expect(cosine(q!, hit!)).toBeGreaterThan(cosine(q!, miss!) + 0.2);
    expect(reasons).toEqual([]);
    await expect(e.embed({ ...identity } as never, ["x"])).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("identifiers are split into words for the tokenizer", () => {
    expect(humanise("core/auth/TokenStore.verifyBearerToken")).toBe("core auth token store verify bearer token");
    expect(humanise("HTTPServer_request-id")).toBe("http server request id");
  });
});
