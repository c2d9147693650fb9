/**
 * What a job kind is, apart from the code that runs it: its name, its pool,
 * how it may be retried, the repository permission it needs and its
 * parameter schema. The definitions of the user kinds sit beside this file,
 * one per kind; the submit operations (ops/jobs.ts) read them, the handlers
 * (workers/pools/) spread them, and the registry (queues/registry.ts) holds
 * the handlers — so neither api/ nor ops/ imports workers/.
 */
import type { z } from "zod";
import type { Config } from "../config";
import type { Identity } from "../execution/identity";
import type { UploadStore } from "../ingest/upload-store";
import type { RepoLevel } from "../repo-level";

/** WRK-1: the dedicated pools. */
export const POOLS = ["ingest", "ai", "embedding", "fix", "cleanup"] as const;
export type Pool = (typeof POOLS)[number];

export function isPool(v: string): v is Pool {
  return (POOLS as readonly string[]).includes(v);
}

/** What a job kind is: where it runs and how it may be retried. The handler lives in workers/. */
export interface JobKind<P = unknown> {
  kind: string;
  pool: Pool;
  /** false for fix-kind jobs: an interrupted one ends `abandoned`, never runs again (JOB-4). */
  restartable: boolean;
  /** Bounded retries (JOB-5); 1 = no retry. */
  maxAttempts: number;
  /** The repository permission the job needs at submit, before work and before persistence. */
  repoLevel?: RepoLevel;
  /** System kinds (the cleanup sweep) run without an identity and are only started by system schedules. */
  system?: boolean;
  /** System kinds only: run under a persisted system schedule this often (e.g. the cleanup sweep, every minute). */
  everyMs?: number;
  /** Stored parameters are validated on submit and again when a worker rebuilds the job. */
  params: z.ZodType<P>;
  /**
   * What the params' cross-field refinements check, said in JSON Schema (oneOf, …) for the API
   * document, so that generators and fuzzers send only what the server accepts (ops/operation.ts
   * `inputRules`; the contract fuzzer holds the two to agreeing).
   */
  paramsRules?: Record<string, unknown>;
}

/** What a kind's submission-time check may read: the server's configuration and the caller's execution. */
export interface SubmitCheck {
  config: Config;
  /** The uploads an ingest of an uploaded archive names (core/ingest/uploads.ts). */
  uploads: UploadStore;
  identity: Identity;
  repoId: string;
  now: Date;
}

/**
 * A user kind that works on a repository: it names the permission it needs, and may check its
 * parameters against the world before a row is written (`checkSubmit`: ingest's source rules).
 */
export type RepoJobKind<P> = JobKind<P> & { repoLevel: RepoLevel; system?: false; checkSubmit?: (params: P, at: SubmitCheck) => Promise<void> };

export function defineJobKind<P>(k: RepoJobKind<P>): RepoJobKind<P> {
  return k;
}
