/** WRK-7: a subprocess gets a copy of the environment without ambient CODESYNAPSE_* variables, plus the validated identity. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { makeIdentity } from "../../core/execution/identity";
import { subprocessEnv } from "../../workers/subprocess-env";

const identity = makeIdentity({ tenant_id: "org-1", subject_id: "user-1", session_id: "thread-42", parent_session_id: "thread-42" });

describe("subprocessEnv", () => {
  it("drops ambient execution variables and credentials, copies the identity in, leaves process.env alone", () => {
    const base = {
      PATH: "/usr/bin:/bin",
      HOME: "/home/x",
      CODESYNAPSE_SESSION_ID: "someone-elses-thread",
      CODESYNAPSE_PARENT_SESSION_ID: "someone-elses-thread",
      CODESYNAPSE_TENANT_ID: "org-other",
      CODESYNAPSE_API_KEY: "csk_secret",
      codesynapse_session_id: "lowercase-too",
    };
    const env = subprocessEnv(identity, base, { GIT_TERMINAL_PROMPT: "0" });
    expect(env).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/x",
      GIT_TERMINAL_PROMPT: "0",
      CODESYNAPSE_TENANT_ID: "org-1",
      CODESYNAPSE_SUBJECT_ID: "user-1",
      CODESYNAPSE_SESSION_ID: "thread-42",
      CODESYNAPSE_PARENT_SESSION_ID: "thread-42",
    });
    expect(base.CODESYNAPSE_SESSION_ID).toBe("someone-elses-thread");
  });

  it("never changes the global environment, and a real child sees only the job's identity", () => {
    const before = { ...process.env };
    process.env.CODESYNAPSE_SESSION_ID = "ambient-thread";
    try {
      const env = subprocessEnv(identity);
      const r = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CODESYNAPSE_')))))"], { env, encoding: "utf8" });
      expect(JSON.parse(r.stdout)).toEqual({ CODESYNAPSE_TENANT_ID: "org-1", CODESYNAPSE_SUBJECT_ID: "user-1", CODESYNAPSE_SESSION_ID: "thread-42", CODESYNAPSE_PARENT_SESSION_ID: "thread-42" });
      expect(process.env.CODESYNAPSE_SESSION_ID).toBe("ambient-thread");
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    }
  });

  it("refuses an invalid identity and extra CODESYNAPSE_* variables", () => {
    expect(() => subprocessEnv({ ...identity, parent_session_id: "other" } as never, {})).toThrow();
    expect(() => subprocessEnv(identity, {}, { CODESYNAPSE_SESSION_ID: "x" })).toThrow();
  });
});
