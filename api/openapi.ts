/**
 * The OpenAPI 3.1 document, generated from the operation catalog
 * (ops/catalog.ts) — the same schemas the REST mounter validates with
 * (api/operations.ts), so the reference cannot drift from the routes. Served at
 * GET /api/openapi.json. JSON Schema comes from zod's own `z.toJSONSchema`
 * (draft 2020-12, the dialect OpenAPI 3.1 uses); rules JSON Schema cannot say
 * (the boundary rule's refinements) are described in prose.
 */
import { Router } from "express";
import { z } from "zod";
import { ERRORS } from "../core/errors";
import { CATALOG } from "../ops/catalog";
import type { HttpBinding, Operation } from "../ops/operation";
import { clientFields, pathFields } from "./operations";
import { PARENT_HEADER, SESSION_HEADER } from "./execution";
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
  const fixed = Object.values(b.fixed ?? {});
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
  schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
}));

function described(schema: z.ZodType): Json {
  return schema.description ? { description: schema.description } : {};
}

const ERROR_RESPONSE = { description: "A refusal or failure with a stable code.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };

/** The success responses of a binding: its status (and `otherStatus`), JSON, an event stream, or no body. */
function responsesOf(op: Operation, b: HttpBinding): Json {
  if (b.stream) {
    return {
      "200": { description: `${op.title}: text/event-stream.`, content: { "text/event-stream": { schema: { type: "string" } } } },
      "204": { description: "Nothing more will come (a reconnect to a job that has ended)." },
    };
  }
  const statuses = [b.status ?? (op.output === null ? 204 : 200), ...(b.otherStatus ?? [])];
  const out: Json = {};
  for (const status of statuses) {
    if (op.output === null) {
      out[String(status)] = { description: "Done; no body." };
      continue;
    }
    const shown = b.toHeaders ? (op.output as z.ZodObject).omit(Object.fromEntries(Object.keys(b.toHeaders).map((k) => [k, true])) as never) : op.output;
    const headers = Object.fromEntries(
      Object.entries(b.toHeaders ?? {}).map(([field, header]) => [headerName(header), { schema: schemaOf((op.output as z.ZodObject).shape[field] as z.ZodType, "output"), description: `Set when \`${field}\` is.` }]),
    );
    out[String(status)] = {
      description: op.title,
      content: { "application/json": { schema: schemaOf(shown, "output") } },
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  return out;
}

function requestBodyOf(b: HttpBinding, fields: z.ZodObject): Json | undefined {
  if (b.raw) {
    const content = Object.fromEntries(RAW_BODIES[b.raw].types.map((t) => [t, { schema: { type: "string", contentMediaType: t } }]));
    return { required: true, content };
  }
  if (b.method === "get" || Object.keys(fields.shape).length === 0) return undefined;
  return { required: true, content: { "application/json": { schema: schemaOf(fields, "input") } } };
}

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
  parameters.push(...SESSION_PARAMS);
  const body = requestBodyOf(b, fields);
  return {
    operationId: operationId(op, b),
    summary: b.title ?? op.title,
    description: op.description + (op.mcp ? `\n\nMCP tool: \`${op.mcp.tool}\`.` : "") + (op.level ? `\n\nNeeds \`${op.level}\` permission on the repository.` : ""),
    tags: [op.name.split(".")[0]],
    parameters,
    ...(body ? { requestBody: body } : {}),
    responses: { ...responsesOf(op, b), default: ERROR_RESPONSE },
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
        "Every operation runs as the execution identity of one registered chat-thread session: authenticate with an API key " +
        "(`Authorization: Bearer csk_…`) or a browser sign-in, and name the session in both execution headers.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { signIn: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key (`codesynapse admin create-api-key`, or `admin bootstrap`)." },
        signIn: { type: "apiKey", in: "cookie", name: "cs_session", description: "A browser sign-in (POST /api/v1/auth/login)." },
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
