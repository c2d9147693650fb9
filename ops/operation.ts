/**
 * An operation of the platform, declared once: its name, input and output
 * schemas (bounds from core/limits.ts), the repository permission it needs,
 * where it is mounted over HTTP and as which MCP tool, and `run`. The REST
 * mounter (api/operations.ts) and the MCP mounter (api/mcp/tools/operations.ts)
 * turn the catalog (ops/catalog.ts) into routes and tools, and the OpenAPI
 * document (api/openapi.ts) is generated from it: nothing is written twice.
 *
 * `run` is handed what the mounter already holds — the Authorized identity
 * (with the repository resolved at `level` when the operation names one) and
 * the principal — and the services; it never resolves an identity itself.
 */
import type { z } from "zod";
import type { Authorized, Principal, RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import type { MemoryServices } from "../core/memory/services";
import type { Db, RepoLevel } from "../db/schema";

/** What an operation may use. The API's AppContext is one. */
export interface OpServices {
  db: Db;
  clock: Clock;
  memory?: MemoryServices | undefined;
}

export interface OpCall {
  auth: Authorized;
  /** Set when the operation declares `level`: `input.repo` resolved at that level. */
  repo: RepoAccess | undefined;
  principal: Principal;
  services: OpServices;
  signal: AbortSignal;
}

export interface HttpBinding {
  method: "get" | "post" | "delete";
  /** Express path; its `:params` are input fields. */
  path: string;
  /** The success status (200 by default; an operation with no output answers 204). */
  status?: number;
  /** Input fields this route fixes (one operation, two routes); the client may not send them. */
  fixed?: Record<string, unknown>;
}

export interface McpBinding {
  tool: string;
  readOnly?: boolean;
}

export interface Operation<S extends z.ZodRawShape = z.ZodRawShape, O = unknown> {
  /** Stable id, `area.verb` (OpenAPI operationId). */
  name: string;
  title: string;
  /** For agents and for the reference: what it does and what it answers. */
  description: string;
  /** The input fields, every one bounded; mounters make the object strict (unknown fields are refused). */
  input: S;
  /** The success body; null: none (204). */
  output: z.ZodType<O> | null;
  /** The repository permission on `input.repo` this needs, checked before `run`. */
  level?: RepoLevel;
  http?: readonly HttpBinding[];
  mcp?: McpBinding;
  run(call: OpCall, input: z.infer<z.ZodObject<S>>): Promise<O>;
}

export function defineOperation<S extends z.ZodRawShape, O>(op: Operation<S, O>): Operation<S, O> {
  return op;
}
