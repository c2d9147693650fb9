/** The fair-share, cap and provider-limit settings (core/config.ts): what parses, and what stops start-up naming the variable. */
import { expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/config";

it("fair share is on by default; caps take one number for every pool or pool=n pairs; weights are org=w", () => {
  const d = loadConfig({});
  expect(d.JOB_FAIR_SHARE).toBe(true);
  expect(d.JOB_ORG_MAX_RUNNING).toBeUndefined();
  const c = loadConfig({ JOB_ORG_MAX_RUNNING: "4", JOB_ORG_MAX_QUEUED: "ai=100,ingest=5", JOB_ORG_WEIGHTS: "org_a=3,org_b=2", LLM_MAX_RPS: "0.5", LLM_MAX_CONCURRENT: "4" });
  expect(c.JOB_ORG_MAX_RUNNING).toEqual({ ingest: 4, ai: 4, embedding: 4, fix: 4, cleanup: 4 });
  expect(c.JOB_ORG_MAX_QUEUED).toEqual({ ai: 100, ingest: 5 });
  expect([...c.JOB_ORG_WEIGHTS!]).toEqual([["org_a", 3], ["org_b", 2]]);
  expect([c.LLM_MAX_RPS, c.LLM_MAX_CONCURRENT]).toEqual([0.5, 4]);
});

it("bad values stop start-up naming the variable", () => {
  const bad = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (e) {
      return (e as ConfigError).variables;
    }
    return [];
  };
  expect(bad({ JOB_ORG_MAX_QUEUED: "gpu=3" })).toEqual(["JOB_ORG_MAX_QUEUED"]);
  expect(bad({ JOB_ORG_MAX_RUNNING: "0" })).toEqual(["JOB_ORG_MAX_RUNNING"]);
  expect(bad({ JOB_ORG_WEIGHTS: "org_a=0" })).toEqual(["JOB_ORG_WEIGHTS"]);
  expect(bad({ EMBEDDING_MAX_CONCURRENT: "1.5" })).toEqual(["EMBEDDING_MAX_CONCURRENT"]);
  // The running cap and weights are the fair claim's: refused with fair share off.
  expect(bad({ JOB_FAIR_SHARE: "0", JOB_ORG_MAX_RUNNING: "2" })).toEqual(["JOB_ORG_MAX_RUNNING"]);
});
