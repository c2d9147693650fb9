/**
 * The OpenAPI 3.1 document, generated from the operation catalog
 * (ops/catalog.ts) — the same schemas the REST mounter validates with
 * (api/operations.ts), so the reference cannot drift from the routes. Served at
 * GET /api/openapi.json. JSON Schema comes from zod's own `z.toJSONSchema`
 * (draft 2020-12, the dialect OpenAPI 3.1 uses). It says what the server
 * enforces: the boundary rule as a `pattern` on every ID, name and text field
 * (core/boundary.ts), the rules across fields (`inputRules`: oneOf, …), the
 * headers' real shapes, each event of a stream, and every error status a route
 * can answer with (api/openapi-errors.ts); there is no catch-all `default`.
 * Each operation's auth kind decides its security and whether it takes the
 * execution headers (ops/operation.ts).
 */
import { Router } from "express";
import { z } from "zod";
import { ERRORS } from "../core/errors";
import { ID_PATTERN } from "../core/execution/identity";
import { CATALOG } from "../ops/catalog";
import { authOf, type AuthKind, type HttpBinding, type Operation } from "../ops/operation";
import { clientFields, pathFields } from "./operations";
import { errorStatusesOf } from "./openapi-errors";
import { PARENT_HEADER, SESSION_HEADER } from "./execution";
import { LOCAL_ADMIN_HEADER } from "./auth";
import { MCP_SERVER_VERSION } from "./mcp/server";
import { RAW_BODIES } from "./raw-body";

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Json;
  return rest;
}

/** `/api/v1/repos/:repo/x` → `/api/v1/repos/{repo}/x`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

function operationId(op: Operation, b: HttpBinding): string {
  const fixed = Object.values(b.fixed ?? {}).filter((v) => v !== undefined);
  return fixed.length > 0 ? `${op.name}.${fixed.join(".")}` : op.name;
}

const ERROR_BODY = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: Object.keys(ERRORS), description: "Stable; the message is fixed text for that code." },
        message: { type: "string" },
        details: { type: "object", description: "Safe structured details: limit names, field paths, never IDs or user text." },
      },
    },
  },
};

/** `idempotency-key` → `Idempotency-Key`. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());

const SESSION_PARAMS = [SESSION_HEADER, PARENT_HEADER].map((name) => ({
  name: headerName(name),
  in: "header",
  required: true,
  description: "The registered primary session of the chat thread; both headers carry the same value (HTTP-1).",
  schema: { type: "string", pattern: ID_PATTERN.source },
}));

function described(schema: z.ZodType): Json {
  return schema.description ? { description: schema.description } : {};
}

/** The error responses of a binding: one per status it can answer with, naming its codes. */
function errorResponsesOf(op: Operation, b: HttpBinding): Json {
  const out: Json = {};
  for (const [status, codes] of errorStatusesOf(op, b)) {
    out[String(status)] = {
      description: `Refused or failed, with one of: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      ...(status === 429 ? { headers: { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "string", pattern: "^[0-9]+$" } } } } : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return out;
}

/**
 * A stream's events, as each frame reads: `event` its type, `id` (optional), and `data` the JSON
 * text of that type's object (`contentMediaType`/`contentSchema` say what it parses to).
 */
function eventsSchemaOf(b: HttpBinding): Json {
  const each = Object.entries(b.events ?? {}).map(([event, data]) => ({
    type: "object",
    required: ["event", "data"],
    properties: {
      event: { const: event },
      id: { type: "string" },
      data: { type: "string", contentMediaType: "application/json", contentSchema: schemaOf(data, "output") },
    },
    ...described(data),
  }));
  return { oneOf: each };
}

/** The success responses of a binding: its status (and `otherStatus`), JSON, an event stream, or no body. */
function responsesOf(op: Operation, b: HttpBinding): Json {
  if (b.stream) {
    return {
      "200": {
        description:
          `${op.title}: text/event-stream. Each frame is \`event: <type>\`, an optional \`id:\` and \`data: <JSON>\`; ` +
          "The schema is one event's: its type, its id and its data (the JSON text of that type's object).",
        content: { "text/event-stream": { schema: eventsSchemaOf(b) } },
      },
      "204": { description: "Nothing more will come (a reconnect to a job that has ended)." },
    };
  }
  const statuses = [b.status ?? (op.output === null ? 204 : 200), ...(b.otherStatus ?? [])];
  const out: Json = {};
  for (const status of statuses) {
    if (op.output === null) {
      out[String(status)] = {
        description: "Done; no body.",
        ...(b.clearCookie ? { headers: { "Set-Cookie": { description: `Clears \`${b.clearCookie}\`.`, schema: { type: "string" } } } } : {}),
      };
      continue;
    }
    const notInBody = [...Object.keys(b.toHeaders ?? {}), ...(b.setCookie ? [b.setCookie.value] : [])];
    const shown = notInBody.length > 0 ? (op.output as z.ZodObject).omit(Object.fromEntries(notInBody.map((k) => [k, true])) as never) : op.output;
    const headers: Json = Object.fromEntries(
      Object.entries(b.toHeaders ?? {}).map(([field, header]) => [headerName(header), { schema: schemaOf((op.output as z.ZodObject).shape[field] as z.ZodType, "output"), description: `Set when \`${field}\` is.` }]),
    );
    if (b.setCookie) headers["Set-Cookie"] = { description: `The \`${b.setCookie.name}\` cookie: HttpOnly, SameSite=Strict, path /.`, schema: { type: "string" } };
    out[String(status)] = {
      description: op.title,
      content: { "application/json": { schema: schemaOf(shown, "output") } },
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  return out;
}

function requestBodyOf(op: Operation, b: HttpBinding, fields: z.ZodObject): Json | undefined {
  if (b.raw) {
    const content = Object.fromEntries(RAW_BODIES[b.raw].types.map((t) => [t, { schema: { type: "string", contentMediaType: t } }]));
    return { required: true, content };
  }
  if (b.method === "get" || Object.keys(fields.shape).length === 0) return undefined;
  // A body whose every field is optional may be left out (the route reads none as {}).
  const required = Object.values(fields.shape).some((f) => !(f as z.ZodType).safeParse(undefined).success);
  return { required, content: { "application/json": { schema: { ...schemaOf(fields, "input"), ...(op.inputRules ? { allOf: [op.inputRules] } : {}) } } } };
}

/** What each auth kind needs, in the operation's description (ops/operation.ts). */
const NEEDS: Record<AuthKind, string> = {
  execution: "Runs as the registered session named in the execution headers.",
  credential: "Needs an API key or a browser sign-in; no execution session.",
  none: "Needs no credentials.",
  platform_admin: "Needs a platform admin's API key or browser sign-in; no execution session.",
  local_admin:
    "Needs the server's local admin token (the local CLI) or a platform admin's API key or browser sign-in; no execution session.",
};

function operationObject(op: Operation, b: HttpBinding): Json {
  const fields = clientFields(op, b);
  const parameters: Json[] = pathFields(b).map(({ wire, field }) => ({
    name: wire,
    in: "path",
    required: true,
    schema: schemaOf(op.input[field] as z.ZodType, "input"),
    ...described(op.input[field] as z.ZodType),
  }));
  if (b.method === "get") {
    for (const [name, s] of Object.entries(fields.shape)) {
      const field = s as z.ZodType;
      parameters.push({ name, in: "query", required: !field.safeParse(undefined).success, schema: schemaOf(field, "input"), ...described(field) });
    }
  }
  for (const [field, header] of Object.entries(b.fromHeaders ?? {})) {
    const s = op.input[field] as z.ZodType;
    parameters.push({ name: headerName(header), in: "header", required: false, schema: schemaOf(s, "input"), ...described(s) });
  }
  for (const [field, cookie] of Object.entries(b.fromCookies ?? {})) {
    const s = op.input[field] as z.ZodType;
    parameters.push({ name: cookie, in: "cookie", required: false, schema: schemaOf(s, "input"), ...described(s) });
  }
  const kind = authOf(op);
  if (kind === "execution") parameters.push(...SESSION_PARAMS);
  const body = requestBodyOf(op, b, fields);
  const needs = NEEDS[kind];
  return {
    operationId: operationId(op, b),
    summary: b.title ?? op.title,
    description:
      op.description + `\n\n${needs}` + (op.mcp ? `\n\nMCP tool: \`${op.mcp.tool}\`.` : "") + (op.level ? `\n\nNeeds \`${op.level}\` permission on the repository.` : ""),
    tags: [op.name.split(".")[0]],
    ...(kind === "none" ? { security: [] } : kind === "local_admin" ? { security: [{ apiKey: [] }, { signIn: [] }, { localAdmin: [] }] } : {}),
    "x-codesynapse-auth": kind,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...responsesOf(op, b), ...errorResponsesOf(op, b) },
  };
}

export function openApiDocument(catalog: readonly Operation[] = CATALOG): Json {
  const paths: Record<string, Json> = {};
  for (const op of catalog) {
    for (const b of op.http ?? []) {
      const p = openApiPath(b.path);
      paths[p] = { ...paths[p], [b.method]: operationObject(op, b) };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "CodeSynapse execution platform",
      version: MCP_SERVER_VERSION,
      description:
        "A runtime's whole life: authenticate with an API key (`Authorization: Bearer csk_…`) or a browser sign-in, register its " +
        "chat thread's session (`execution.register_session`), run every other operation as that session by naming it in both " +
        "execution headers, and revoke it (`execution.revoke_session`). `x-codesynapse-auth` on each operation says which it needs: " +
        "`execution` (credentials and the session), `credential` (credentials only), `none`, `platform_admin` (the operators' " +
        "API: a platform admin's credentials) or `local_admin` (the `codesynapse admin` commands: the server's local admin token " +
        "or a platform admin's credentials).",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { signIn: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key (`codesynapse admin create-api-key`, or `admin bootstrap`)." },
        signIn: { type: "apiKey", in: "cookie", name: "cs_session", description: "A browser sign-in (POST /api/v1/auth/login)." },
        localAdmin: {
          type: "apiKey",
          in: "header",
          name: headerName(LOCAL_ADMIN_HEADER),
          description: "The server's local admin token, from the embedded data directory (the local `codesynapse admin` CLI).",
        },
      },
      schemas: { Error: ERROR_BODY },
    },
    paths,
  };
}

/** GET /api/openapi.json: public (it describes, it grants nothing), built once. */
export function openApiRoutes(catalog: readonly Operation[] = CATALOG): Router {
  const r = Router();
  let doc: string | undefined;
  r.get("/api/openapi.json", (_req, res) => {
    doc ??= JSON.stringify(openApiDocument(catalog));
    res.type("application/json").send(doc);
  });
  return r;
}
