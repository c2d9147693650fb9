/**
 * `/healthz`: the process is up. `/readyz`: every dependency this process uses
 * answers a round trip within READY_CHECK_MS — the database, Redis (BullMQ
 * dispatch), the memory store and the vector index when they are servers of
 * their own. 200 `{ status: "ready", checks }`, or 503 `dependency_unavailable`
 * with the same `checks` (each "ok" or "unavailable"; names only, never an
 * address or a driver's message). Both also say which embedder serves
 * (`embedder: { model, fallback? }`): `fallback` (model_missing,
 * checksum_mismatch, load_failed) means feature hashing serves because the
 * configured model cannot — degraded recall, not an outage, so still 200.
 */
import { Router } from "express";
import type { AppContext } from "../context";
import { route } from "../http";
import { AppError } from "../../core/errors";
import type { EmbedderStatus } from "../../core/memory/embedder";
import { ping } from "../../queues/sql/ping";

const READY_CHECK_MS = 2_000;

type Check = () => Promise<unknown>;

function within(ms: number, check: Check): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = check().then(
    () => true,
    () => false,
  );
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}

/** The dependencies of this process, by name. */
function checksOf(ctx: AppContext): Record<string, Check> {
  const checks: Record<string, Check> = { database: () => ping(ctx.db) };
  const dispatcher = ctx.jobs?.dispatcher;
  if (dispatcher?.ping) checks.redis = () => dispatcher.ping!();
  const store = ctx.memory?.store;
  if (store?.ping) checks[`memory_store_${store.kind}`] = () => store.ping!();
  const vectors = ctx.memory?.vectors;
  if (vectors?.ping && vectors !== (store as unknown)) checks[`vector_index_${vectors.kind}`] = () => vectors.ping!();
  return checks;
}

/** Which embedder serves (the model, or hashing and why); checks the model's files once, never loads it. */
async function embedderStatus(ctx: AppContext): Promise<EmbedderStatus | undefined> {
  const embedder = ctx.memory?.embedder;
  if (!embedder) return undefined;
  return embedder.status ? embedder.status().catch(() => ({ model: embedder.model })) : { model: embedder.model };
}

export function healthRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  r.get(
    "/readyz",
    route(async (_req, res) => {
      const entries = Object.entries(checksOf(ctx));
      const results = await Promise.all(entries.map(([, check]) => within(READY_CHECK_MS, check)));
      const checks = Object.fromEntries(entries.map(([name], i) => [name, results[i] ? "ok" : "unavailable"]));
      const embedder = await embedderStatus(ctx);
      if (results.some((ok) => !ok)) throw new AppError("dependency_unavailable", { message: "A dependency of this server is not reachable.", details: { checks, ...(embedder ? { embedder } : {}) } });
      res.json({ status: "ready", checks, ...(embedder ? { embedder } : {}) });
    }),
  );
  return r;
}
