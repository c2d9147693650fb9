/**
 * Redaction (OFF-1, MEM-2): secrets, keys, tokens and credentials are masked
 * before text is queued, stored or embedded.
 *
 * Two detectors, unioned: secretlint's recommended preset (maintained rules for
 * many providers) and our own patterns for what it misses or ignores —
 * bearer tokens, private-key blocks, credentials inside connection strings,
 * GitHub tokens, AWS key IDs (including AWS's documented example keys, which
 * secretlint deliberately ignores), AWS secret values (secretlint's AWS secret
 * range starts at the variable name and stops short; we locate the value
 * itself), password/token/api-key assignments and this platform's API keys.
 * Each match is replaced by `[REDACTED:<kind>]`.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";

// secretlint's built-in profiler marks every rule run on the process-wide
// performance timeline and keeps every mark in an array it scans linearly on
// each new one: in a long-running server that is a leak and quadratic time
// (measured: a 256-triple upsert went from 0.3 s to 2-6 s of blocked event
// loop as marks piled up). The profiler is diagnostic only; give it a
// performance object that records nothing.
(secretLintProfiler as unknown as { perf: { mark(): void; measure(): void } }).perf = { mark() {}, measure() {} };

interface Pattern {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret; 0 = the whole match. */
  group?: number;
}

const PATTERNS: Pattern[] = [
  { kind: "private_key", re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g },
  { kind: "connection_string", re: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:@/'"]+:[^\s@'"]+@[^\s'"]+/gi },
  { kind: "bearer_token", re: /\bBearer\s+([A-Za-z0-9._~+/=-]{8,})/gi, group: 1 },
  { kind: "github_token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b/g },
  { kind: "aws_access_key_id", re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  {
    kind: "aws_secret_access_key",
    re: /\baws_?(?:secret)?_?(?:access)?_?key(?:_id)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { kind: "codesynapse_api_key", re: /\bcsk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}\b/g },
  { kind: "slack_token", re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: "credential",
    re: /\b(?:password|passwd|pwd|secret|client_secret|api[_-]?key|access[_-]?token|auth[_-]?token|token)["']?\s*[:=]\s*["']?([^\s"',;]{6,})/gi,
    group: 1,
  },
];

type Range = [number, number, string];

function patternRanges(text: string): Range[] {
  const out: Range[] = [];
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      const whole = m.index ?? 0;
      if (p.group) {
        const g = m[p.group];
        if (g === undefined) continue;
        const start = whole + m[0].lastIndexOf(g);
        out.push([start, start + g.length, p.kind]);
      } else out.push([whole, whole + m[0].length, p.kind]);
    }
  }
  return out;
}

const SECRETLINT_CONFIG = {
  rules: [
    {
      id: "@secretlint/secretlint-rule-preset-recommend",
      rule: recommended,
      rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
    },
  ],
};

/** A run of characters that looks like a secret value (for secretlint ranges that start at a key name). */
const VALUE = /[A-Za-z0-9/+=_-]{16,}/g;

async function secretlintRanges(text: string): Promise<Range[]> {
  const result = await lintSource({
    source: { content: text, filePath: "/memory/turn.txt", contentType: "text" },
    options: { config: SECRETLINT_CONFIG as never, noPhysicFilePath: true, maskSecrets: true },
  });
  const out: Range[] = [];
  for (const m of result.messages) {
    let [start, end] = m.range;
    if (m.messageId === "AWSSecretAccessKey") {
      // The reported range begins at the variable name and is cut short: find the 40-char value after it.
      VALUE.lastIndex = start;
      const after = text.slice(start, start + 200);
      const eq = after.search(/[:=]/);
      const from = eq >= 0 ? start + eq + 1 : start;
      VALUE.lastIndex = from;
      const v = VALUE.exec(text);
      if (v && v.index < from + 16) {
        start = v.index;
        end = v.index + v[0].length;
      }
    }
    out.push([start, end, `secretlint:${String(m.messageId ?? m.ruleId).toLowerCase()}`]);
  }
  return out;
}

function applyRanges(text: string, ranges: Range[]): { text: string; found: string[] } {
  if (ranges.length === 0) return { text, found: [] };
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) {
      last[1] = Math.max(last[1], r[1]);
    } else merged.push([...r]);
  }
  let out = "";
  let at = 0;
  for (const [s, e, kind] of merged) {
    out += text.slice(at, s) + `[REDACTED:${kind.replace(/^secretlint:/, "")}]`;
    at = e;
  }
  out += text.slice(at);
  return { text: out, found: [...new Set(merged.map((m) => m[2]))] };
}

export interface Redaction {
  text: string;
  /** The kinds of secret found (never the secrets). */
  found: string[];
}

/** Masks every secret either detector finds. */
export async function redact(text: string): Promise<Redaction> {
  if (text.length === 0) return { text, found: [] };
  const ranges = patternRanges(text);
  try {
    ranges.push(...(await secretlintRanges(text)));
  } catch {
    // secretlint failing must not let text through unredacted: our own patterns still applied.
  }
  return applyRanges(text, ranges);
}

export async function redactAll(texts: string[]): Promise<Redaction[]> {
  return Promise.all(texts.map((t) => redact(t)));
}
