/**
 * The layering rule (docs/architecture.md "Layers"), checked by `npm run check` (`npm run lint:deps`):
 *
 *   main ──▶ api ──▶ ops ──▶ core ◀── workers
 *     │        └──────┴──▶ queues ──▶ core     (api, ops and workers use the job layer)
 *     └──▶ everything           db ──▶ core     (db implements core's store interfaces)
 *
 * - core/ is the rules: it imports nothing of the other folders, not even as types (what it needs
 *   of a store is an interface of its own that db/ implements), and loads no driver or transport,
 *   directly or through anything it imports;
 * - db/ implements core's interfaces and imports core only; queues/ (job rows and dispatch) imports
 *   core, db's table map as types, and the authorization read's text the claim embeds;
 * - api/ (HTTP, MCP) reaches stores only through what main/ hands it (AppContext): no db/ at run
 *   time, never workers/;
 * - workers/ import core and queues, never api/, ops/ or db/ at run time;
 * - main/ (the composition root) may import everything; nothing imports it.
 *
 * Tests, bench and scripts are not cruised: they may import anything.
 */

/** Packages that open a connection, a server or a store: only db/, queues/, workers/' sources, api/ and main/ load them. */
const DRIVERS = [
  "pg",
  "pg-[^/]+",
  "@electric-sql/pglite",
  "pglite-pg17",
  "ioredis",
  "bullmq",
  "neo4j-driver",
  "@zilliz/milvus2-sdk-node",
  "express",
  "@modelcontextprotocol/(server|client|core|node)",
  "@hono/node-server",
  "@bull-board/[^/]+",
  "pino-http",
  "prom-client",
  "@opentelemetry/(?!api/)[^/]+",
  "onnxruntime-node",
  "node-llama-cpp",
];
const DRIVER_PATH = `^node_modules/(${DRIVERS.join("|")})/`;
/** The authorization read's query text (a Kysely `sql` fragment, no driver): queues/sql/claimJobs.ts embeds it. */
const AUTHORIZE_READ = "^db/sql/identity/authorize-read\\.ts$";

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "core-loads-no-driver",
      comment: "core/ is transport- and driver-free: no database, queue, graph, vector or HTTP package is reachable from it, by any chain of imports.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: DRIVER_PATH, reachable: true },
    },
    {
      name: "core-imports-core",
      comment: "core/ imports no other folder, at run time or as types: what it needs of a store is an interface here that db/ implements.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(api|main|ops|queues|workers|db)/" },
    },
    {
      name: "db-implements-core",
      comment: "db/ implements core's store interfaces: it imports core/ only.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(api|main|ops|queues|workers)/" },
    },
    {
      name: "queues-below-callers",
      comment: "queues/ (job rows, dispatch) is used by api/, ops/ and workers/ and uses core/; db/ only as the table map's types.",
      severity: "error",
      from: { path: "^queues/" },
      to: { path: "^(api|main|ops|workers)/" },
    },
    {
      name: "queues-no-db-at-run-time",
      comment: "Save the authorization read's text, which the job claim embeds in its own statement (one round trip for the claim and the recheck before work).",
      severity: "error",
      from: { path: "^queues/" },
      to: { path: "^db/", pathNot: AUTHORIZE_READ, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "ops-no-transport",
      comment: "ops/ declares operations; the mounters in api/ give them a transport. No api/, workers/, main/, no db/ at run time, no driver.",
      severity: "error",
      from: { path: "^ops/" },
      to: { path: ["^(api|main|workers)/", DRIVER_PATH] },
    },
    {
      name: "ops-no-db-at-run-time",
      severity: "error",
      from: { path: "^ops/" },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "api-not-workers",
      comment: "api/ never imports workers/ (job kinds are declared outside workers/) nor the composition root.",
      severity: "error",
      from: { path: "^api/" },
      to: { path: "^(workers|main)/" },
    },
    {
      name: "api-no-db-at-run-time",
      comment: "api/ gets its stores from main/ (AppContext); it names db/ types only.",
      severity: "error",
      from: { path: "^api/" },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "workers-below-api",
      comment: "workers/ import core/ and queues/; stores come in through core's interfaces, bound by main/.",
      severity: "error",
      from: { path: "^workers/" },
      to: { path: "^(api|main|ops)/" },
    },
    {
      name: "workers-no-db-at-run-time",
      severity: "error",
      from: { path: "^workers/" },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "nothing-imports-main",
      comment: "main/ is the composition root: it imports everything, nothing imports it (bin/ loads it by path).",
      severity: "error",
      from: { pathNot: "^main/" },
      to: { path: "^main/" },
    },
    {
      name: "no-dev-dependency-in-production",
      comment: "The image installs with --omit=dev: production code never imports a dev dependency.",
      severity: "error",
      from: { path: "^(api|core|db|main|ops|queues|workers)/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "node", "default", "types"], mainFields: ["module", "main", "types"] },
    cache: { folder: "node_modules/.cache/dependency-cruiser", strategy: "content" },
  },
};
