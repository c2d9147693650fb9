/**
 * The bundled sentence model (the server's default embedder) for tests that exercise recall by
 * meaning on a real store: one instance per test file, loaded on its first embed. It fails the
 * test, rather than falling back to hashing, if the model files are missing or altered.
 */
import { SentenceModelEmbedder } from "../../db/embedding/sentence-model";

let shared: SentenceModelEmbedder | undefined;

export function modelEmbedder(): SentenceModelEmbedder {
  return (shared ??= new SentenceModelEmbedder());
}
