/**
 * The deployment files, checked by real validators and against the code they deploy:
 * - docker-compose.yml against the compose-spec JSON schema (check-jsonschema's vendored
 *   copy), then the rules an operator relies on: a healthcheck on every long-running
 *   service, start order by health (`service_healthy`, `service_completed_successfully`
 *   for the one-shot migrate), restart policies, exact image tags, only the stores the
 *   configuration selects, and configuration names the platform knows;
 * - deploy/k8s/ against the Kubernetes JSON schemas in strict mode (kubernetes-validate,
 *   unknown fields refused) for the oldest and newest supported releases, the KEDA
 *   ScaledObjects against KEDA's schema (@kubernetes-models/keda), then: the API and
 *   each pool of queues/jobs.ts a Deployment of its own with probes on the right ports,
 *   each pool scaled on the `codesynapse_jobs` gauge queues/metrics.ts really serves.
 * - deploy/prometheus/alerts.yml: `promtool check rules`, `promtool test rules` on alerts.test.yml
 *   (each alert fires on synthetic series; a broken rule fails them), and every metric a rule
 *   reads is one the processes register;
 * - deploy/grafana/codesynapse.json against Grafana's own dashboard schema: the `Dashboard` type
 *   @grafana/schema generates from it, checked by the TypeScript compiler (the package ships no
 *   JSON Schema); a misspelt key, a wrong type or an unknown enum value is refused.
 * The validators come from PyPI through scripts/install-deploy-validators.sh.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { parse, parseAllDocuments } from "yaml";
import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import { configSchema } from "../../core/config";
import { POOLS } from "../../queues/jobs";
import { Registry } from "prom-client";
import { z } from "zod";
import { conformOutput } from "../../api/output-check";
import { JobMetrics } from "../../queues/metrics";
import { enqueueJobs } from "../../queues/sql/enqueueJob";
import { openTestDatabase, type TestDatabase } from "../support/databases";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const K8S = path.join(ROOT, "deploy/k8s");
const KUBERNETES_VERSIONS = ["1.29.0", "1.37.0"];
// METRICS_PORT: the worker processes' metrics server, configured in core/config.ts.
const KNOWN_CONFIG = new Set([...Object.keys(configSchema.shape), "METRICS_PORT"]);

let bin = "";
let scratch = "";

/** Runs a validator; resolves with its exit code and output instead of throwing on a non-zero exit. */
async function validator(tool: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const r = await run(path.join(bin, tool), args, { cwd: ROOT });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw err;
    return { code: e.code, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

const composeSchema = (file: string) => validator("check-jsonschema", ["--builtin-schema", "vendor.compose-spec", file]);
const kubeStrict = (files: string[], version: string) => validator("kubernetes-validate", ["--strict", "--no-warn", "-k", version, ...files]);

function scratchFile(name: string, text: string): string {
  const f = path.join(scratch, name);
  writeFileSync(f, text);
  return f;
}

beforeAll(async () => {
  const r = await run("bash", [path.join(ROOT, "scripts/install-deploy-validators.sh")], { cwd: ROOT, timeout: 600_000 });
  bin = r.stdout.trim().split("\n").pop()!;
  scratch = mkdtempSync(path.join(tmpdir(), "cs-deploy-manifests-"));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// ---- docker compose

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  restart?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
}

const composeText = readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8");
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const isOneShot = (name: string) => compose.services[name]!.restart === "no";

describe("docker-compose.yml", () => {
  it("is valid against the compose-spec schema; a misspelt key or an unknown condition is refused", async () => {
    const ok = await composeSchema(path.join(ROOT, "docker-compose.yml"));
    expect(ok, ok.output).toMatchObject({ code: 0 });
    const typo = await composeSchema(scratchFile("typo.yml", composeText.replace("    image: redis:7.4.2", "    imag: redis:7.4.2")));
    expect(typo.code).not.toBe(0);
    expect(typo.output).toContain("'imag' was unexpected");
    const condition = await composeSchema(scratchFile("condition.yml", composeText.replace("condition: service_completed_successfully", "condition: service_finished")));
    expect(condition.code).not.toBe(0);
  });

  it("every long-running service has a healthcheck and a restart policy; the one-shot is awaited by its exit", () => {
    for (const [name, s] of services) {
      if (isOneShot(name)) continue;
      expect(s.healthcheck?.disable, name).not.toBe(true);
      expect(s.healthcheck?.test, name).toBeDefined();
      expect(["always", "unless-stopped", "on-failure"], name).toContain(s.restart);
    }
    expect(services.filter(([name]) => isOneShot(name)).map(([name]) => name)).toEqual(["migrate"]);
  });

  it("starts in order of health: every dependency exists and is healthy, or completed when it is the one-shot", () => {
    for (const [name, s] of services) {
      if (s.depends_on === undefined) continue;
      expect(Array.isArray(s.depends_on), `${name}: the short form waits for a start only`).toBe(false);
      for (const [dep, { condition }] of Object.entries(s.depends_on as Record<string, { condition: string }>)) {
        const target = compose.services[dep];
        expect(target, `${name} depends on ${dep}`).toBeDefined();
        if (isOneShot(dep)) expect(condition, `${name} → ${dep}`).toBe("service_completed_successfully");
        else {
          expect(condition, `${name} → ${dep}`).toBe("service_healthy");
          expect(target!.healthcheck?.test, dep).toBeDefined();
        }
      }
    }
    // The platform's processes wait for migrations and for every store they use.
    for (const name of ["api", "workers-ingest-ai", "workers-fix-cleanup"]) {
      expect(Object.keys(compose.services[name]!.depends_on!).sort()).toEqual(["migrate", "milvus", "neo4j", "redis"]);
    }
    expect(compose.services.migrate!.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
  });

  it("pins every image to an exact version", () => {
    for (const [name, s] of services) {
      expect(s.image, name).toBeDefined();
      const tag = /:([^:/]+)$/.exec(s.image!)?.[1] ?? "";
      // 15.10, 7.4.2, 5.26.0-community, v3.5.16, RELEASE.2023-03-20T20-16-18Z, 0.1.0: never `latest`, `7` or `5-community`.
      expect(tag, `${name}: ${s.image}`).toMatch(/^(v?\d+\.\d+(\.\d+)?(-[a-z0-9]+)?|RELEASE\.\d{4}-\d{2}-\d{2}T[\d-]+Z)$/);
    }
  });

  it("runs only the stores its configuration selects, and names only configuration the platform reads", () => {
    const env = compose.services.api!.environment!;
    for (const [name, s] of services.filter(([, s]) => s.build !== undefined)) {
      expect(s.environment, name).toEqual(env);
      expect(s.image, name).toBe("codesynapse:0.1.0");
    }
    for (const key of Object.keys(env)) expect(KNOWN_CONFIG.has(key), key).toBe(true);
    expect(env).toMatchObject({ MEMORY_STORE: "neo4j", VECTOR_INDEX: "milvus" });
    const names = services.map(([n]) => n).sort();
    expect(names).toEqual(["api", "etcd", "migrate", "milvus", "minio", "neo4j", "postgres", "redis", "workers-fix-cleanup", "workers-ingest-ai"]);
    // Each store a URL points at is a service here.
    for (const key of ["DATABASE_URL", "REDIS_URL", "NEO4J_URL"]) expect(names, key).toContain(new URL(env[key]!.replace(/\$\{[^}]+\}/g, "x")).hostname);
    expect(names).toContain(env.MILVUS_URL!.split(":")[0]);
    // The worker pools together run every pool the platform has.
    const pools = services.flatMap(([, s]) => (s.command?.[0] === "worker" ? s.command[2]!.split(",") : []));
    expect(pools.sort()).toEqual([...POOLS].sort());
  });
});

// ---- Kubernetes

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

const kustomization = parse(readFileSync(path.join(K8S, "kustomization.yaml"), "utf8")) as { resources: string[] };
const manifestFiles = kustomization.resources.map((f) => path.join(K8S, f));
const objects: K8sObject[] = manifestFiles.flatMap((f) =>
  parseAllDocuments(readFileSync(f, "utf8")).map((d) => {
    if (d.errors.length > 0) throw new Error(`${f}: ${d.errors[0]!.message}`);
    return d.toJSON() as K8sObject;
  }),
);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const KEDA_KINDS = new Set(["ScaledObject"]);
const coreFiles = manifestFiles.filter((f) => !parseAllDocuments(readFileSync(f, "utf8")).some((d) => KEDA_KINDS.has((d.toJSON() as K8sObject).kind)));

describe("deploy/k8s", () => {
  it("the kustomization lists every manifest in the folder", () => {
    const files = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it.each(KUBERNETES_VERSIONS)("every Kubernetes object is valid in strict mode against %s; an unknown field is refused", async (version) => {
    const ok = await kubeStrict(coreFiles, version);
    expect(ok, ok.output).toMatchObject({ code: 0 });
    expect(ok.output.match(/ passed for resource /g)?.length).toBe(objects.filter((o) => !KEDA_KINDS.has(o.kind)).length);
    const api = readFileSync(path.join(K8S, "api.yaml"), "utf8");
    const typo = await kubeStrict([scratchFile("typo.yaml", api.replace("readinessProbe:", "readynessProbe:"))], version);
    expect(typo.code).not.toBe(0);
    expect(typo.output).toContain("'readynessProbe' was unexpected");
  });

  it("the ScaledObjects are valid against KEDA's schema and each scales an existing Deployment", () => {
    const scaled = ofKind("ScaledObject");
    expect(scaled.length).toBe(POOLS.length);
    for (const so of scaled) {
      expect(() => new ScaledObject(so as never).validate(), so.metadata.name).not.toThrow();
      expect(named("Deployment", so.spec.scaleTargetRef.name), so.metadata.name).toBeDefined();
    }
    expect(() => new ScaledObject({ metadata: { name: "x" }, spec: { scaleTargetRef: { name: "x" }, minReplicaCount: "one", triggers: [] } } as never).validate()).toThrow();
  });

  it("the API and each pool are Deployments of their own with probes on their own ports, non-root", () => {
    const api = named("Deployment", "codesynapse-api")!;
    const apiContainer = api.spec.template.spec.containers[0];
    expect(apiContainer.args).toEqual(["serve"]);
    expect(apiContainer.ports).toEqual([{ name: "http", containerPort: 8080 }]);
    expect([apiContainer.livenessProbe.httpGet, apiContainer.readinessProbe.httpGet]).toEqual([
      { path: "/healthz", port: "http" },
      { path: "/readyz", port: "http" },
    ]);
    for (const pool of POOLS) {
      const d = named("Deployment", `codesynapse-worker-${pool}`);
      expect(d, pool).toBeDefined();
      const c = d!.spec.template.spec.containers[0];
      expect(c.args).toEqual(["worker", "--pools", pool]);
      expect(c.ports).toEqual([{ name: "metrics", containerPort: 9464 }]);
      expect([c.livenessProbe.httpGet, c.readinessProbe.httpGet]).toEqual([
        { path: "/healthz", port: "metrics" },
        { path: "/readyz", port: "metrics" },
      ]);
    }
    expect(ofKind("Deployment")).toHaveLength(POOLS.length + 1);
    for (const o of [...ofKind("Deployment"), ...ofKind("Job")]) {
      const pod = o.spec.template.spec;
      expect(pod.securityContext, o.metadata.name).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
      for (const c of pod.containers) expect(c.securityContext, o.metadata.name).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
    }
    expect(named("Job", "codesynapse-migrate")!.spec.template.spec.containers[0].args).toEqual(["migrate"]);
  });

  it("configuration comes from the ConfigMap and Secret, with names the platform reads; Services select pods that exist", () => {
    for (const o of [...ofKind("Deployment"), ...ofKind("Job")]) {
      for (const c of o.spec.template.spec.containers) {
        expect(c.envFrom, o.metadata.name).toEqual([{ configMapRef: { name: "codesynapse-config" } }, { secretRef: { name: "codesynapse-secrets" } }]);
      }
    }
    const keys = [...Object.keys(named("ConfigMap", "codesynapse-config")!.data!), ...Object.keys(named("Secret", "codesynapse-secrets")!.stringData!)];
    for (const key of keys) expect(KNOWN_CONFIG.has(key), key).toBe(true);
    for (const svc of ofKind("Service")) {
      const selector = svc.spec.selector as Record<string, string>;
      const matching = ofKind("Deployment").filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
      expect(matching.length, svc.metadata.name).toBeGreaterThan(0);
    }
  });

  describe("scaling on queue depth", () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await openTestDatabase("pglite");
    });
    afterAll(() => db?.close());

    it("each pool's trigger queries the queued depth of its own pool in the gauge the platform serves", async () => {
      // The gauge as /metrics serves it, with queued rows in every pool (two in ingest).
      const job = (pool: (typeof POOLS)[number]) => ({ kind: "deploy-manifests-probe", pool, params: {}, restartable: true, maxAttempts: 1, identity: null, actor: null, dispatched: false });
      await enqueueJobs(db.db, new Date(), [...POOLS.map(job), job("ingest")], { notify: false });
      const text = await new JobMetrics({ db: db.db }).registry.metrics();
      expect(text).toContain("# TYPE codesynapse_jobs gauge");
      for (const pool of POOLS) {
        const so = named("ScaledObject", `codesynapse-worker-${pool}`)!;
        const [trigger] = so.spec.triggers;
        expect(trigger.type).toBe("prometheus");
        // max(): every process serving the gauge reports the same table-wide count.
        const m = /^max\((\w+)\{pool="(\w+)",status="(\w+)"\}\)$/.exec(trigger.metadata.query);
        expect(m, trigger.metadata.query).not.toBeNull();
        const [, metric, queryPool, status] = m!;
        expect([queryPool, status]).toEqual([pool, "queued"]);
        // The series the query selects is in the exposition, counting this pool's queued rows.
        expect(text.split("\n")).toContain(`${metric}{pool="${pool}",status="${status}"} ${pool === "ingest" ? 2 : 1}`);
        expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0);
        expect(so.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
        expect(so.spec.maxReplicaCount).toBeGreaterThan(so.spec.minReplicaCount);
      }
    });
  });
});

// ---- Prometheus alert rules and the Grafana dashboard

const PROMTOOL = process.env.PROMTOOL ?? "promtool";
const ALERTS = path.join(ROOT, "deploy/prometheus/alerts.yml");

describe("deploy/prometheus/alerts.yml", () => {
  it("passes promtool check rules and its unit tests; the tests fail when a rule is broken", async () => {
    const checked = await validatorAt(PROMTOOL, ["check", "rules", ALERTS]);
    expect(checked, checked.output).toMatchObject({ code: 0 });
    expect(checked.output).toMatch(/SUCCESS: \d+ rules found/);
    const tested = await validatorAt(PROMTOOL, ["test", "rules", path.join(ROOT, "deploy/prometheus/alerts.test.yml")]);
    expect(tested, tested.output).toMatchObject({ code: 0 });
    // The same tests against rules that read the gauge with sum (two processes report it): they fail.
    const broken = path.join(scratch, "alerts.yml");
    writeFileSync(broken, readFileSync(ALERTS, "utf8").replace("max by (pool) (codesynapse_jobs_stale_queued)", "sum by (pool) (codesynapse_jobs_stale_queued)"));
    writeFileSync(path.join(scratch, "alerts.test.yml"), readFileSync(path.join(ROOT, "deploy/prometheus/alerts.test.yml"), "utf8"));
    const failing = await validatorAt(PROMTOOL, ["test", "rules", path.join(scratch, "alerts.test.yml")]);
    expect(failing.code).not.toBe(0);
    expect(failing.output).toContain("CodeSynapseQueueStalled");
  });

  it("reads only metrics the processes register, by pool or operation, never by organisation or session", async () => {
    const registry = new Registry();
    const db = await openTestDatabase("pglite");
    try {
      new JobMetrics({ db: db.db, registry });
      conformOutput("probe", z.object({ a: z.string() }), { a: "x", b: 1 }, { mode: "strip", logger: { warn() {}, error() {} } as never, registry });
      const text = await registry.metrics();
      const exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
      const rules = (parse(readFileSync(ALERTS, "utf8")) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> }).groups.flatMap((g) => g.rules);
      expect(rules.map((r) => r.alert)).toEqual(expect.arrayContaining(["CodeSynapseQueueStalled", "CodeSynapseJobFailureRate", "CodeSynapseLeaseExpiryStorm", "CodeSynapseOutputSchemaInvalid"]));
      for (const r of rules) {
        const names = [...r.expr.matchAll(/\bcodesynapse_[a-z_]+\b/g)].map((m) => m[0]);
        expect(names.length, r.alert).toBeGreaterThan(0);
        for (const n of names) expect(exposed, `${r.alert}: ${n}`).toContain(n);
        expect(r.expr, `${r.alert}: no tenant or session label`).not.toMatch(/tenant|session|org/);
      }
    } finally {
      await db.close();
    }
  });
});

/** Type-checks `json` as Grafana's `Dashboard` (the JSON form of its enums: their values); the compiler's errors. */
function dashboardErrors(json: string): string[] {
  const file = path.join(ROOT, "test/artifacts", `grafana-dashboard-${process.pid}-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(
    file,
    `import type { Dashboard } from "@grafana/schema/dist/esm/raw/dashboard/x/Dashboard_types.gen";
type AsJson<T> = T extends string ? \`\${T}\` : T extends number | boolean | null | undefined ? T : T extends Array<infer U> ? Array<AsJson<U>> : T extends object ? { [K in keyof T]: AsJson<T[K]> } : T;
export const dashboard: AsJson<Dashboard> = ${json};\n`,
  );
  try {
    const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, types: [] });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    rmSync(file, { force: true });
  }
}

describe("deploy/grafana/codesynapse.json", () => {
  const text = readFileSync(path.join(ROOT, "deploy/grafana/codesynapse.json"), "utf8");

  it("is a dashboard by Grafana's schema; a misspelt key, a wrong type or an unknown enum value is refused", () => {
    expect(dashboardErrors(text)).toEqual([]);
    expect(dashboardErrors(text.replace('"gridPos"', '"gridPoss"')).join("\n")).toContain("gridPoss");
    expect(dashboardErrors(text.replace('"schemaVersion": 39', '"schemaVersion": "39"')).join("\n")).toContain("not assignable to type 'number'");
    expect(dashboardErrors(text.replace('"mode": "absolute"', '"mode": "absolut"')).join("\n")).toContain("absolut");
  }, 120_000);

  it("has the jobs-over-time panels: ended and failed per minute, failure share, run time, reclaims — per pool, never per organisation", () => {
    const d = JSON.parse(text) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
    const exprs = d.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    for (const title of ["Jobs ended per minute by pool", "Failed, refused or abandoned per minute by pool", "Failure share by pool (alert above 20%)", "Run time p50 / p95 by pool", "Expired leases reclaimed per 10 minutes (alert above 5)", "Queue depth per pool"]) {
      expect(d.panels.map((p) => p.title)).toContain(title);
    }
    for (const e of exprs) expect(e).not.toMatch(/tenant|session/);
  });
});

async function validatorAt(tool: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const r = await run(tool, args, { cwd: ROOT });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw new Error(`${tool} did not run (${String(e.code)}): test/services/promtool.sh provides it (PROMTOOL=)`, { cause: err });
    return { code: e.code, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}
