import { describe, expect, it } from "vitest";
import { redact } from "../../core/redact";

// Built at run time so that this file itself holds no literal secret.
const ghp = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";
const akid = "AKIA" + "QWERTYUIOPASDFGH";
const awsExample = "AKIA" + "IOSFODNN7EXAMPLE";
const awsSecret = "Zk3Lr9vQpW2xT7yN8bHc4mJd6sFa1eGu0iOo5KpX";
const pem = ["-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA7yN8bHc4mJd6sFa1eGu0iOo5KpX", "-----END RSA PRIVATE KEY-----"].join("\n");

describe("redact", () => {
  it("masks a ghp_ token, an AWS key id (even AWS's documented example) and an AWS secret value", async () => {
    const text = `use ${ghp} then ${akid} and ${awsExample}; AWS_SECRET_ACCESS_KEY=${awsSecret} done`;
    const r = await redact(text);
    for (const s of [ghp, akid, awsExample, awsSecret]) expect(r.text).not.toContain(s);
    expect(r.text).toContain("use [REDACTED:");
    expect(r.text).toContain(" done");
    expect(r.found.length).toBeGreaterThan(0);
  });

  it("masks bearer tokens, private keys and connection-string credentials, keeping the rest", async () => {
    const text = `curl -H "Authorization: Bearer abc.DEF-123_456789xyz" and\n${pem}\nthen postgres://app:s3cr3tpw@db.internal:5432/app ok`;
    const r = await redact(text);
    expect(r.text).not.toContain("abc.DEF-123_456789xyz");
    expect(r.text).not.toContain("MIIEowIBAAKCAQEA");
    expect(r.text).not.toContain("s3cr3tpw");
    expect(r.text).toContain("curl -H");
    expect(r.text).toContain(" ok");
  });

  it("masks password assignments and leaves ordinary code text alone", async () => {
    const r = await redact(`password = "hunter22x" while AuthService depends on TokenStore`);
    expect(r.text).not.toContain("hunter22x");
    expect(r.text).toContain("AuthService depends on TokenStore");
    const plain = await redact("AuthService.login calls TokenStore.issue");
    expect(plain).toEqual({ text: "AuthService.login calls TokenStore.issue", found: [] });
  });

  it("leaves nothing behind per call (no profiler marks piling up in a long-running process)", async () => {
    const { performance } = await import("node:perf_hooks");
    const before = performance.getEntriesByType("mark").length;
    for (let i = 0; i < 200; i++) await redact(`Service${i} token=ghp_${"a".repeat(36)}`);
    expect(performance.getEntriesByType("mark").length).toBe(before);
  });
});
