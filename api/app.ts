/**
 * The express app factory. No listen here: the runtime or a test listens.
 * Bodies are JSON, at most BODY_LIMIT_BYTES or their operation's own limit, validated with zod in each route
 * (one exception: a snapshot upload's raw archive, api/raw-body.ts), after
 * the boundary scan (core/boundary.ts); path segments pass it before routing.
 */
import express, { type Express } from "express";
import { AppError } from "../core/errors";
import { createRateLimits } from "../core/rate-limit";
import type { AppContext } from "./context";
import { csrfGuard } from "./csrf";
import { errorMiddleware, pathGuard } from "./http";
import { jsonBodies, jsonBodyOnly } from "./json-body";
import { healthRoutes } from "./routes/health";
import { operationRoutes, removedRoutes } from "./operations";
import { openApiRoutes } from "./openapi";
import { referenceRoutes } from "./routes/reference";
import { mcpRoutes } from "./mcp/http";
import { mcpErrors, mcpOriginGuard } from "./mcp/http-rules";
import { adminJobRoutes } from "./routes/admin-jobs";
import { metricsRoutes } from "./routes/metrics";
import { JobMetrics } from "../queues/metrics";
import { httpMetrics } from "./http-metrics";
import { requestLog } from "./request-log";
import { authChallenge } from "./mcp/auth-challenge";
import { wellKnownRoutes } from "./routes/well-known";

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // The client address the rate limits key on: X-Forwarded-For only from the proxies TRUST_PROXY names.
  app.set("trust proxy", ctx.config.TRUST_PROXY);
  ctx.limits ??= createRateLimits(ctx.config);
  // Observability first, so that every response — refusals before routing included — is logged and measured
  // (api/request-log.ts, api/http-metrics.ts; docs/observability.md).
  ctx.jobMetrics ??= new JobMetrics({ db: ctx.db });
  app.use(requestLog(ctx.logger));
  app.use(httpMetrics(ctx.jobMetrics.registry));
  // Every 401 carries the Bearer challenge naming the protected-resource metadata (api/mcp/auth-challenge.ts).
  app.use(authChallenge(ctx));
  // HTTP-6: every path parameter of every route passes the boundary rule (core/boundary.ts) before routing.
  app.use(pathGuard());
  // MCP's transport rule: /mcp serves no request from a foreign Origin, whatever its method or protocol era.
  app.use(mcpOriginGuard(ctx));
  // CSRF: a cookie-authenticated unsafe request must be same-origin (api/csrf.ts), before any body is read.
  app.use(csrfGuard(ctx));
  app.use(jsonBodyOnly());
  // JSON bodies everywhere but the raw-body routes, which refuse JSON themselves, naming the type they take;
  // each route's limit is BODY_LIMIT_BYTES or its operation's own (api/json-body.ts).
  app.use(jsonBodies());
  app.use(healthRoutes(ctx));
  app.use(wellKnownRoutes(ctx));
  app.use(removedRoutes());
  app.use(operationRoutes(ctx));
  app.use(openApiRoutes());
  // The interactive reference over that document, its bundle served from node_modules (api/routes/reference.ts).
  app.use(referenceRoutes());
  app.use(mcpRoutes(ctx));
  app.use(adminJobRoutes(ctx));
  app.use(metricsRoutes(ctx));
  app.use((_req, _res, next) => next(new AppError("not_found")));
  // /mcp answers every refusal as a JSON-RPC error (api/mcp/http-rules.ts), the rest of the app as {"error": …}.
  app.use(mcpErrors());
  app.use(errorMiddleware(ctx.logger));
  return app;
}
