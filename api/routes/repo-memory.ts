/**
 * Durable repository memory over HTTP (HTTP-4, HTTP-4b): recall (read
 * permission), triples (write; records origin_session_id) and index (write;
 * embeds one bounded batch under this execution). Same shapes as the MCP
 * repository tools.
 */
import { Router } from "express";
import { z } from "zod";
import { MAX_EMBED_BATCH } from "../../core/limits";
import type { AppContext } from "../context";
import { executionOf, requireExecution } from "../execution";
import { parseWith, route } from "../http";
import { memoryOf, memoryScope, recallSchema, upsertSchema } from "./session-memory";

const indexSchema = z.strictObject({ batch: z.number().int().min(1).max(MAX_EMBED_BATCH).optional() });

export function repoMemoryRoutes(ctx: AppContext): Router {
  const r = Router();
  const base = "/api/v1/repos/:repo/memory";

  r.post(
    `${base}/recall`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(recallSchema, req.body);
      const scope = await memoryScope(ctx, req, "read");
      res.json(await memoryOf(ctx).repository.recall(executionOf(req).identity, scope.ns, body));
    }),
  );

  r.post(
    `${base}/triples`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(upsertSchema, req.body);
      const scope = await memoryScope(ctx, req, "write");
      res.json(await memoryOf(ctx).repository.upsertTriples(executionOf(req).identity, scope.ns, body));
    }),
  );

  r.post(
    `${base}/index`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(indexSchema, req.body ?? {});
      const scope = await memoryScope(ctx, req, "write");
      res.json(await memoryOf(ctx).repository.index(executionOf(req).identity, scope.ns, body.batch));
    }),
  );

  return r;
}
