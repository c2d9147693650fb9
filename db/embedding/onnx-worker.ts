/**
 * The sentence model's inference process (a child the embedder forks, talking over IPC):
 * onnxruntime-node runs a session on the calling thread, so in the server's own thread one batch
 * would hold every request for as long as it takes. A process rather than a worker thread,
 * because onnxruntime-node aborts the whole process (`terminate called after throwing
 * Napi::Error`) when a thread running a session is stopped mid-batch, as process.exit does;
 * a child that dies takes nothing with it. It exits when its parent goes (the IPC channel closes).
 *
 * Self-contained on purpose (Node built-ins and onnxruntime-node only, erasable TypeScript):
 * Node runs this file as it is from the sources, and the build bundles it as its own entry
 * (dist/onnx-worker.js). Protocol: the first message is {model, threads, dim, pooling}; it answers
 * {ready: true} once the session is loaded (or {error} and exits); then for each
 * {id, batch: token-id rows} it answers {id, vectors} — the attention-masked mean of the last
 * hidden state (`pooling: "mean"`) or its first, [CLS], token (`"cls"`), L2-normalised, float32
 * values with tiny ones flushed to 0 — or {id, error}.
 */

interface Setup {
  model: string;
  threads: number;
  dim: number;
  /** "mean": the attention-masked mean of the last hidden state; "cls": its first ([CLS]) token. */
  pooling: "mean" | "cls";
}

/** An answer to the parent; a parent already gone ends this process (its callback takes the EPIPE). */
const send = (m: unknown) => {
  if (!process.connected) return process.exit(0);
  process.send!(m, (err: Error | null) => {
    if (err) process.exit(0);
  });
};
process.on("disconnect", () => process.exit(0));

async function main(setup: Setup): Promise<void> {
  const ort = await import("onnxruntime-node");
  const session = await ort.InferenceSession.create(setup.model, {
    intraOpNumThreads: setup.threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  const withTypes = session.inputNames.includes("token_type_ids");

  const run = async (batch: number[][]): Promise<number[][]> => {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(n * len);
    const mask = new BigInt64Array(n * len);
    batch.forEach((row, r) =>
      row.forEach((id, c) => {
        ids[r * len + c] = BigInt(id);
        mask[r * len + c] = 1n;
      }),
    );
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor("int64", ids, [n, len]),
      attention_mask: new ort.Tensor("int64", mask, [n, len]),
    };
    if (withTypes) feeds["token_type_ids"] = new ort.Tensor("int64", new BigInt64Array(n * len), [n, len]);
    const result = await session.run(feeds);
    const hidden = result[session.outputNames[0]!]!;
    const data = hidden.data as Float32Array;
    const dim = setup.dim;
    if (hidden.dims.length !== 3 || hidden.dims[2] !== dim) throw new Error("The embedding model returned an unexpected shape.");
    const out: number[][] = [];
    for (let r = 0; r < n; r++) {
      const v = new Array<number>(dim).fill(0);
      const tokens = setup.pooling === "cls" ? 1 : batch[r]!.length;
      for (let t = 0; t < tokens; t++) {
        const base = (r * len + t) * dim;
        for (let d = 0; d < dim; d++) v[d]! += data[base + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += v[d]! * v[d]!;
      norm = Math.sqrt(norm) || 1;
      // PostgreSQL's `real` rejects a double below float4's range instead of rounding it.
      out.push(v.map((x) => (Math.abs(x / norm) < 1e-30 ? 0 : Math.fround(x / norm))));
    }
    for (const t of Object.values(result)) t.dispose?.();
    return out;
  };

  process.on("message", (m: { id: number; batch: number[][] }) => {
    run(m.batch).then(
      (vectors) => send({ id: m.id, vectors }),
      (err: unknown) => send({ id: m.id, error: err instanceof Error ? err.message : "inference failed" }),
    );
  });
  send({ ready: true });
}

process.once("message", (setup: Setup) => {
  main(setup).catch((err: unknown) => {
    send({ error: err instanceof Error ? err.message : "the model did not load" });
    process.exit(1);
  });
});
