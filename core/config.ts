/**
 * One configuration object, read from the environment and validated with zod
 * (RUN-4). A bad value stops start-up with a message naming the variable.
 */
import { z } from "zod";
import { AI_RECALL_WAIT_MAX_MS, AI_RECALL_WAIT_MS, JOB_LEASE_MS, JOB_RECONCILE_MS, JOB_STALE_MS, SHUTDOWN_DRAIN_MS } from "./limits";

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a URL with one of the schemes ${protocols.join(", ")}`)
    .optional();

/** An http(s) origin (scheme, host, optional port; a trailing "/" is allowed), normalised to `URL.origin`. */
const origin = z
  .string()
  .trim()
  .min(1)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.pathname === "/" && !u.search && !u.hash && !u.username && !u.password && !v.endsWith("?");
    } catch {
      return false;
    }
  }, "must be an http(s) origin such as https://codesynapse.example.com (no path, query or credentials)")
  .transform((v) => new URL(v).origin)
  .optional();

/**
 * Express's "trust proxy" (which hops may set X-Forwarded-For, so the rate limits see the real client):
 * unset = none (the socket address); a hop count; or a comma-separated list of loopback, linklocal,
 * uniquelocal, IP addresses and CIDR ranges. "true" (trust every hop, so any client can forge its
 * address) is refused.
 */
const PROXY_TOKEN = /^(loopback|linklocal|uniquelocal|[0-9]{1,3}(\.[0-9]{1,3}){3}(\/[0-9]{1,2})?|[0-9a-fA-F:]*:[0-9a-fA-F:.]*(\/[0-9]{1,3})?)$/;
const trustProxy = z
  .string()
  .trim()
  .refine((v) => /^[0-9]{1,2}$/.test(v) || v.split(",").every((t) => PROXY_TOKEN.test(t.trim())), "must be a hop count or a list of loopback, linklocal, uniquelocal, IPs and CIDRs")
  .transform((v): number | string[] => (/^[0-9]{1,2}$/.test(v) ? Number(v) : v.split(",").map((t) => t.trim())))
  .optional()
  .transform((v): false | number | string[] => v ?? false);

/** Redis Cluster seed nodes: comma-separated `host:port` (any of the cluster's nodes; the client discovers the rest). */
const clusterNodes = z
  .string()
  .trim()
  .min(1)
  .refine((v) => v.split(",").every((t) => /^[A-Za-z0-9.-]+:[0-9]{1,5}$/.test(t.trim())), "must be a comma-separated list of host:port")
  .transform((v) => v.split(",").map((t) => t.trim()))
  .optional();

const count = (def: number, max = 1_000_000) => z.coerce.number().int().min(1).max(max).default(def);

const POOL_NAMES = ["ingest", "ai", "embedding", "fix", "cleanup"] as const;
type PoolName = (typeof POOL_NAMES)[number];

/**
 * A per-pool limit (docs/jobs.md "Caps"): one number for every pool ("4"), or `pool=n` pairs
 * ("ai=2,ingest=1"; pools not named are unlimited). Unset: no limit.
 */
const poolLimits = z
  .string()
  .trim()
  .refine(
    (v) => /^[0-9]{1,6}$/.test(v) || v.split(",").every((t) => { const m = /^([a-z]+)=([0-9]{1,6})$/.exec(t.trim()); return m !== null && (POOL_NAMES as readonly string[]).includes(m[1]!); }),
    `must be a number, or pool=n pairs of the pools ${POOL_NAMES.join(", ")}`,
  )
  .transform((v): Partial<Record<PoolName, number>> => {
    if (/^[0-9]+$/.test(v)) return Object.fromEntries(POOL_NAMES.map((p) => [p, Number(v)]));
    return Object.fromEntries(v.split(",").map((t) => t.trim().split("=")).map(([p, n]) => [p, Number(n)]));
  })
  .refine((m) => Object.values(m).every((n) => n >= 1), "limits must be at least 1")
  .optional();

/** Operator weights of fair share: `org_id=3,org_id=2`; an organisation of weight w gets w turns per round (others 1). */
const orgWeights = z
  .string()
  .trim()
  .refine((v) => v.split(",").every((t) => /^[A-Za-z0-9_.:-]{1,128}=[0-9]{1,3}$/.test(t.trim()) && Number(t.trim().split("=")[1]) >= 1), "must be org_id=weight pairs (weights 1..999)")
  .transform((v) => new Map(v.split(",").map((t) => t.trim().split("=")).map(([o, w]) => [o!, Number(w)] as const)))
  .optional();

/** A provider limit (requests per second, concurrent requests); unset = none of ours. */
const providerRate = z.coerce.number().positive().max(1_000_000).optional();
const providerConcurrency = z.coerce.number().int().min(1).max(100_000).optional();

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  CODESYNAPSE_DATA_DIR: z.string().min(1).default("./.codesynapse"),
  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  REDIS_URL: optionalUrl(["redis:", "rediss:"]),
  REDIS_CLUSTER_NODES: clusterNodes,
  MEMORY_STORE: z.enum(["postgres", "neo4j", "hugegraph"]).default("postgres"),
  VECTOR_INDEX: z.enum(["local", "milvus"]).default("local"),
  NEO4J_URL: optionalUrl(["bolt:", "neo4j:", "bolt+s:", "neo4j+s:"]),
  NEO4J_USER: z.string().default("neo4j"),
  NEO4J_PASSWORD: z.string().optional(),
  HUGEGRAPH_URL: optionalUrl(["http:", "https:"]),
  HUGEGRAPH_GRAPH: z.string().default("hugegraph"),
  MILVUS_URL: z.string().min(1).optional(),
  LLM_PROVIDER: z.enum(["local", "openai"]).default("local"),
  LLM_BASE_URL: optionalUrl(["http:", "https:"]),
  LLM_MODEL: z.string().default("local-deterministic"),
  LLM_API_KEY: z.string().optional(),
  /** local: the bundled sentence model (hashing when its files are missing or fail their checksum); hash: feature hashing only; openai: EMBEDDING_BASE_URL. */
  EMBEDDER: z.enum(["local", "hash", "openai"]).default("local"),
  /** The local model's folder (model.onnx, tokenizer.json); default models/all-minilm-l6-v2-int8 of the installation. */
  EMBEDDING_MODEL_DIR: z.string().trim().min(1).optional(),
  EMBEDDING_BASE_URL: optionalUrl(["http:", "https:"]),
  EMBEDDING_MODEL: z.string().default("local-hash-256"),
  /** local (default): deterministic; openai: LLM_BASE_URL; llama: a GGUF model file run in process by node-llama-cpp (LLAMA_MODEL_PATH). */
  EXTRACTOR: z.enum(["local", "openai", "llama"]).default("local"),
  /** EXTRACTOR=llama: the GGUF model file (scripts/install-llama.sh fetches SmolLM2-135M-Instruct). */
  LLAMA_MODEL_PATH: z.string().trim().min(1).optional(),
  /** EXTRACTOR=llama: a folder holding node_modules/node-llama-cpp; default: resolved from the installation. */
  LLAMA_MODULE_DIR: z.string().trim().min(1).optional(),
  CODESYNAPSE_URL: optionalUrl(["http:", "https:"]),
  INGEST_ALLOWED_ROOTS: z.string().default(""),
  /** WRK-2: comma-separated `scheme://host` prefixes a git URL may use (e.g. "https://github.com"); empty = no git. */
  INGEST_GIT_ALLOWED: z.string().default(""),
  /** WRK-2: the largest snapshot archive `POST /api/v1/repos/{repo}/uploads` accepts, in bytes; 0 = uploads off. */
  INGEST_MAX_UPLOAD_BYTES: z.coerce.number().int().min(0).max(1024 * 1024 * 1024).default(32 * 1024 * 1024),
  COOKIE_SECURE: bool.default(false),
  /**
   * What an answer that breaks its operation's output schema does (api/output-check.ts): `strip`
   * (production) sends it without the fields the schema lacks and counts it in a metric; `fail`
   * (the tests) answers 500 instead. A field of the wrong type is a 500 in both.
   */
  OUTPUT_SCHEMA_MISMATCH: z.enum(["strip", "fail"]).default("strip"),
  /**
   * CSRF (docs/security.md): the origin the dashboard is served from. A cookie-authenticated POST/PUT/PATCH/DELETE
   * without `Sec-Fetch-Site` must send this `Origin`; unset, the origin must name the request's own Host.
   */
  PUBLIC_ORIGIN: origin,
  /** Which proxies may name the client (X-Forwarded-For) for the rate limits; see trustProxy above. */
  TRUST_PROXY: trustProxy,
  /**
   * Rate limits (docs/security.md). Sign-in: consecutive failures per account+client before the first block,
   * failures per client (any account) within the window, the first block and its cap (each further failure
   * doubles it; a success resets the account+client count). Then registrations per organisation, uploads
   * per session and MCP initializes per API key, per minute.
   */
  RATE_LIMIT_LOGIN_FAILURES: count(5, 1000),
  RATE_LIMIT_LOGIN_IP_FAILURES: count(50),
  RATE_LIMIT_LOGIN_WINDOW_S: count(900, 7 * 24 * 3600),
  RATE_LIMIT_LOGIN_BLOCK_S: count(30, 24 * 3600),
  RATE_LIMIT_LOGIN_MAX_BLOCK_S: count(900, 24 * 3600),
  RATE_LIMIT_REGISTER_PER_MIN: count(1000),
  RATE_LIMIT_UPLOADS_PER_MIN: count(30),
  RATE_LIMIT_MCP_INITIALIZE_PER_MIN: count(120),
  LOGIN_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 14),
  WORKER_POOLS: z.string().default("ingest,ai,embedding,fix,cleanup"),
  /** JOB-3: a claimed job's lease; renewed every half of it while the handler works, reclaimed once it passes. */
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(60 * 60 * 1000).default(JOB_LEASE_MS),
  /** JOB-4/JOB-8: how often each worker process runs the reconciler (sweeper + re-dispatch). */
  JOB_RECONCILE_MS: z.coerce.number().int().min(100).max(10 * 60 * 1000).default(JOB_RECONCILE_MS),
  /** JOB-8: a queued row not dispatched for this long is dispatched again (a dead message is replaced). */
  JOB_STALE_MS: z.coerce.number().int().min(500).max(60 * 60 * 1000).default(JOB_STALE_MS),
  /** RUN-5: on SIGTERM, how long running handlers and requests in flight may take to finish before rows are handed back and connections closed. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(10 * 60 * 1000).default(SHUTDOWN_DRAIN_MS),
  /**
   * docs/job-kinds.md: how long an AI task (question, summary) on a repository whose embeddings are still being
   * built (an embedding job of it queued or running) waits for them before it answers with partial recall; 0 = never waits.
   */
  AI_RECALL_WAIT_MS: z.coerce.number().int().min(0).max(AI_RECALL_WAIT_MAX_MS).default(AI_RECALL_WAIT_MS),
  /** JOB-9: when set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (unset: open, for a scraper on a private network). */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").max(512).optional(),
  /**
   * Where a worker process (`codesynapse worker`) serves `/metrics`, `/healthz` and `/readyz` (HOST, this port);
   * 0 = a free port (logged). The API serves them on PORT. docs/observability.md.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /**
   * Fair share (docs/jobs.md): in each pool, organisations take turns, then sessions within one; a
   * session's own jobs stay first-in, first-out. 0 = one first-in, first-out queue per pool.
   */
  JOB_FAIR_SHARE: bool.default(true),
  JOB_ORG_WEIGHTS: orgWeights,
  /** Caps per organisation and pool: running jobs (the claim holds the rest back), queued jobs (submission answers 429). */
  JOB_ORG_MAX_RUNNING: poolLimits,
  JOB_ORG_MAX_QUEUED: poolLimits,
  /** Per session and pool: queued jobs (submission answers 429). */
  JOB_SESSION_MAX_QUEUED: poolLimits,
  /**
   * Provider rate limits (docs/jobs.md "Provider limits"), per configured endpoint and shared by every
   * worker process through Redis when REDIS_URL is set: requests per second and requests in flight.
   */
  LLM_MAX_RPS: providerRate,
  LLM_MAX_CONCURRENT: providerConcurrency,
  EMBEDDING_MAX_RPS: providerRate,
  EMBEDDING_MAX_CONCURRENT: providerConcurrency,
  EXTRACTOR_MAX_RPS: providerRate,
  EXTRACTOR_MAX_CONCURRENT: providerConcurrency,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly variables: string[], message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Reads the environment. Empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof Config, string>> = {}): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const v = overrides[key as keyof Config] ?? env[key];
    if (v !== undefined && v !== "") raw[key] = v;
  }
  const parsed = configSchema
    .refine((c) => c.JOB_FAIR_SHARE || (!c.JOB_ORG_MAX_RUNNING && !c.JOB_ORG_WEIGHTS), {
      path: ["JOB_ORG_MAX_RUNNING"],
      message: "the running cap and weights are applied by the fair claim: they need JOB_FAIR_SHARE on",
    })
    .safeParse(raw);
  if (!parsed.success) {
    const vars = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(vars, `Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
