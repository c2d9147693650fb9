/**
 * Redaction (OFF-1, MEM-2): secrets, keys, tokens and credentials are masked
 * before text is queued, stored, embedded or logged.
 *
 * One table of patterns (PATTERNS) is the detector: env-style assignments,
 * JSON/YAML keys and XML elements whose name is secret-like (PASSWORD,
 * DB_PASSWORD, apiKey, clientSecret, AWS_SESSION_TOKEN, ...), passwords and
 * token-like user names inside URLs of any scheme, provider key formats
 * (OpenAI, Anthropic, Stripe, Slack, GitHub, GitLab, Google, npm, SendGrid,
 * Shopify, Hugging Face, AWS key ids and session tokens, JWTs), bearer and
 * Authorization header values and PEM private-key blocks. Only the secret
 * value is replaced by `[REDACTED:<kind>]`: names, schemes, hosts and the
 * surrounding text stay, so the text remains useful.
 *
 * Every quantifier is bounded and no pattern nests quantifiers, so a pass is
 * linear in the text. Redacting twice equals redacting once: a match that
 * touches an existing `[REDACTED...]` mask is dropped.
 *
 * `redactText` (sync) runs the table; `redactJson` applies it to every string
 * of a JSON value (job parameters and results, log objects) and masks string
 * values under secret-like keys. `redact` (async, the memory paths) also runs
 * secretlint's recommended preset as a backstop for providers the table does
 * not know.
 */

// secretlint's built-in profiler marks every rule run on the process-wide
// performance timeline and keeps every mark in an array it scans linearly on
// each new one: in a long-running server that is a leak and quadratic time
// (measured: a 256-triple upsert went from 0.3 s to 2-6 s of blocked event
// loop as marks piled up). The profiler is diagnostic only; give it a
// performance object that records nothing.
// secretlint is loaded on first use (only the memory paths scan with it), so a process that
// never redacts memory text never holds it (npm run bench:rss).
let loaded: Promise<{ lintSource: typeof import("@secretlint/core").lintSource; config: unknown }> | undefined;
const secretlint = () =>
  (loaded ??= loadSecretlint().catch((err: unknown) => {
    loaded = undefined;
    throw err;
  }));
async function loadSecretlint() {
  const [{ lintSource }, { secretLintProfiler }, { creator: recommended }] = await Promise.all([
    import("@secretlint/core"),
    import("@secretlint/profiler"),
    import("@secretlint/secretlint-rule-preset-recommend"),
  ]);
  (secretLintProfiler as unknown as { perf: { mark(): void; measure(): void } }).perf = { mark() {}, measure() {} };
  const config = {
    rules: [
      {
        id: "@secretlint/secretlint-rule-preset-recommend",
        rule: recommended,
        rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
      },
    ],
  };
  return { lintSource, config };
}

interface Pattern {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret; absent = the whole match. */
  group?: number;
  /**
   * Assignments: `re` matches a name (group 2) and its operator only; when the name is secret-like, this sticky pattern
   * matches the value right after it (groups 1-3). A rejected name costs its own length, never a rescan of the value.
   */
  value?: RegExp;
  /** A further check on the match (a secret-like name, a value that is not a placeholder); false = not a secret. */
  accept?: (m: RegExpExecArray) => boolean;
}

// ---- names and values of assignments ----

/** Last name segments that name a secret on their own (`DB_PASSWORD`, `clientSecret`, `AUTH`). */
const SECRET_WORDS = new Set([
  "password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "credentials", "creds", "auth", "authorization",
  "privatekey", "accesskey", "secretkey", "sessiontoken", "authtoken", "accesstoken", "refreshtoken", "idtoken", "apitoken", "sessionsecret",
]);
/** Segments that name a secret only after another segment (`DB_PWD`, `DB_PASS`, `GITLAB_PAT`; a bare `PWD` is the shell's directory). */
const QUALIFIED_WORDS = new Set(["pwd", "pass", "pat"]);
/** `<x>_KEY` is a secret when x is one of these (`API_KEY`, `STRIPE_SECRET_KEY`, `signingKey`). */
const KEY_OWNERS = new Set([
  "api", "access", "private", "secret", "signing", "encryption", "master", "client", "license", "account", "service", "app", "auth", "session",
  "crypto", "hmac", "jwt", "webhook", "admin", "root", "deploy", "ssh", "gpg", "pgp", "aes", "rsa", "shared", "subscription", "sas", "storage",
]);
/** Trailing segments that keep a secret name secret (`SECRET_KEY_BASE`, `API_KEY_PROD`, `TOKEN_2`). */
const QUALIFIERS = new Set([
  "value", "base", "b64", "base64", "raw", "prod", "production", "dev", "development", "staging", "stage", "test", "live", "local", "main",
  "primary", "secondary", "old", "new", "current", "next", "prev", "previous",
]);
/** Compact one-segment names that end with a secret word (`PGPASSWORD`, `githubtoken`, `xapikey`). */
const SECRET_SUFFIX = /(?:password|passwd|passphrase|secret|token|apikey|credentials?)$/;

/** Whether an identifier names a secret: its last meaningful segment is a secret word. `tokenizer`, `PASSWORD_MIN_LENGTH`, `password_reset_url` are not. */
export function isSecretName(name: string): boolean {
  if (name.length > 100) return false;
  const segs = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((s) => s.replace(/\d+$/, ""))
    .filter((s) => s.length > 0);
  while (segs.length > 1 && QUALIFIERS.has(segs[segs.length - 1]!)) segs.pop();
  const last = segs[segs.length - 1];
  if (!last) return false;
  if (SECRET_WORDS.has(last)) return true;
  if (segs.length > 1 && QUALIFIED_WORDS.has(last)) return true;
  if (last === "key" && segs.length > 1 && KEY_OWNERS.has(segs[segs.length - 2]!)) return true;
  return last.length > 6 && SECRET_SUFFIX.test(last) && !SECRET_WORDS.has(last);
}

/**
 * Values under a secret-like name that are kept: booleans and null-likes, numbers of up to 5 digits (lengths, TTLs, ports),
 * placeholders and references to where the secret lives (`${DB_PASSWORD}`, `$TOKEN`, `<your-key>`, `process.env.X`, `getToken()`),
 * URLs (credentials inside a URL are masked by the URL pattern), an Authorization scheme word (the header pattern masks what follows),
 * type annotations (`password: string`) and masks.
 */
const KEPT_VALUE = new RegExp(
  [
    /^(?:true|false|yes|no|on|off|null|nil|none|undefined|required|optional|enabled|disabled)$/i,
    /^\d{1,5}$/,
    /^(?:\$\{[^}]{1,100}\}|\$[A-Za-z_][A-Za-z0-9_]{0,100}|%[A-Za-z_][A-Za-z0-9_]{0,100}%|\{\{[^}]{1,100}\}\}|<[^<>]{1,100}>)$/,
    /^(?:process\.env|import\.meta\.env|os\.environ|env|config|settings|secrets|vars|this|self|req|request|ctx|opts|options|props)[.[]/,
    /^[A-Za-z_$][\w$]{0,100}(?:\.[A-Za-z_$][\w$]{0,100}){0,10}\([^()]{0,100}\)$/,
    /^[a-z][a-z0-9+.-]{1,30}:\/\//i,
    /^(?:Basic|Bearer|Token|Digest|Negotiate)$/,
    /^(?:string|number|boolean|bigint|any|unknown|object|str|int|bytes|bool|float|String|SecretStr|Secret)(?:\[\]|[?)\]>|:=])*$/,
    /^\[REDACTED/,
  ]
    .map((r) => r.source)
    .join("|"),
  "i",
);

/** The name of an assignment (group 2; group 1 its quote) and its operator. */
const ASSIGNMENT_NAME = /(?<![A-Za-z0-9_$])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\1[ \t]{0,8}(?::=|=>|==|[:=])[ \t]{0,8}/g;
/** The value right after it: group 1 double-quoted (with escapes), 2 single-quoted, 3 bare. */
const ASSIGNMENT_VALUE = /"((?:[^"\\\r\n]|\\.){1,2048})"|'([^'\r\n]{1,2048})'|([^\s"'`,;]{2,2048})/y;

// ---- the table ----

const PATTERNS: Pattern[] = [
  {
    kind: "private_key",
    // The body: up to the next "-----" (the END line, or a truncated block's next header); encrypted keys' "Proc-Type:" lines included.
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----((?:[^-]|-(?!----)){0,8192})/g,
    group: 1,
  },
  // scheme://user:password@host and scheme://:password@host, any scheme: the password only (RFC 3986 userinfo has no / ? #).
  { kind: "url_password", re: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:@/?#'"<>]{0,256}:([^\s@/?#'"<>]{1,256})@/gi, group: 1 },
  // scheme://<token>@host: a user name of 20+ characters with a digit is a token (Sentry DSNs, tokens used as git user names).
  { kind: "url_token", re: /\b[a-z][a-z0-9+.-]{1,30}:\/\/((?=[A-Za-z_~-]{0,255}\d)[A-Za-z0-9_~-]{20,256})@/gi, group: 1 },
  { kind: "anthropic_api_key", re: /\bsk-ant-[A-Za-z0-9_-]{20,300}/g },
  { kind: "openai_api_key", re: /\bsk-(?:proj|svcacct|admin|None)-(?=[A-Za-z_-]{0,299}\d)[A-Za-z0-9_-]{20,300}/g },
  { kind: "openai_api_key", re: /\bsk-(?=[A-Za-z]{0,199}\d)[A-Za-z0-9]{32,200}/g },
  { kind: "stripe_key", re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,250}/g },
  { kind: "stripe_webhook_secret", re: /\bwhsec_[A-Za-z0-9+/=]{24,250}/g },
  { kind: "slack_token", re: /\bxox[abposr]-[A-Za-z0-9-]{10,250}/g },
  { kind: "slack_token", re: /\bxapp-\d-[A-Za-z0-9-]{10,250}/g },
  { kind: "github_token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})/g },
  { kind: "gitlab_token", re: /\bglpat-[A-Za-z0-9_-]{20,64}/g },
  { kind: "google_api_key", re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: "npm_token", re: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: "sendgrid_api_key", re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: "shopify_token", re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![a-fA-F0-9])/g },
  { kind: "huggingface_token", re: /\bhf_[A-Za-z0-9]{34}(?![A-Za-z0-9])/g },
  { kind: "codesynapse_api_key", re: /\bcsk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/g },
  { kind: "aws_access_key_id", re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  // AWS STS session tokens are base64 of a binary blob that starts with the same bytes.
  { kind: "aws_session_token", re: /\b(?:FwoGZXIvYXdz|FQoGZXIvYXdz|IQoJb3JpZ2lu|IQoDb3JpZ2lu)[A-Za-z0-9/+=]{80,4096}/g },
  { kind: "aws_secret_access_key", re: /\baws_?(?:secret)?_?(?:access)?_?key(?:_id)?["']?\s{0,8}[:=]\s{0,8}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 1 },
  { kind: "authorization", re: /\bauthorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:Basic|Token|Digest|Negotiate)[ \t]{1,8}([A-Za-z0-9._~+/=-]{8,4096})/gi, group: 1 },
  { kind: "bearer_token", re: /\bBearer[ \t]{1,8}((?=[A-Za-z._~+/=-]{0,4096}\d)[A-Za-z0-9._~+/=-]{8,4096})/gi, group: 1 },
  { kind: "credential", re: ASSIGNMENT_NAME, value: ASSIGNMENT_VALUE },
  // <password>...</password>, <apiKey>...</apiKey>
  { kind: "credential", re: /<([A-Za-z_][A-Za-z0-9_.-]{0,80})>([^<>\r\n]{2,2048})<\/\1>/g, group: 2, accept: (m) => isSecretName(m[1]!) && !KEPT_VALUE.test(m[2]!.trim()) },
];

type Range = [number, number, string];

/** Existing masks: a match that touches one is already redacted (idempotence). */
const MASK = /\[REDACTED(?::[A-Za-z0-9_.:-]{1,64})?\]/g;

function masksOf(text: string): Array<[number, number]> {
  if (!text.includes("[REDACTED")) return [];
  return [...text.matchAll(MASK)].map((m) => [m.index, m.index + m[0].length]);
}

function touchesMask(masks: Array<[number, number]>, s: number, e: number): boolean {
  for (const [a, b] of masks) if (s < b && a < e) return true;
  return false;
}

/** The table compiled with match indices (`d`): each secret group's exact position. */
const COMPILED = PATTERNS.map((p) => ({ ...p, re: new RegExp(p.re.source, p.re.flags + "d"), value: p.value && new RegExp(p.value.source, p.value.flags + "d") }));

/** The value of a secret-like assignment whose name and operator `m` matched, unless it is a kept value. */
function assignedValue(text: string, m: RegExpExecArray, value: RegExp): { range?: [number, number]; end: number } {
  value.lastIndex = m.index + m[0].length;
  const v = isSecretName(m[2]!) ? value.exec(text) : null;
  if (!v) return { end: m.index + m[0].length };
  const i = [1, 2, 3].find((k) => v[k] !== undefined)!;
  // A kept value (`${DB_PASSWORD}`, `process.env.X`) is looked into again from its start (`config=password=x`).
  if (KEPT_VALUE.test(v[i]!.trim())) return { end: v.index };
  return { range: v.indices![i]!, end: v.index + v[0].length };
}

function patternRanges(text: string): Range[] {
  const out: Range[] = [];
  for (const p of COMPILED) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      if (m[0].length === 0) {
        p.re.lastIndex = m.index + 1;
        continue;
      }
      let r: [number, number] | undefined;
      if (p.value) {
        const a = assignedValue(text, m, p.value);
        p.re.lastIndex = a.end;
        r = a.range;
      } else if (!p.accept || p.accept(m)) r = p.group === undefined ? [m.index, m.index + m[0].length] : m.indices?.[p.group];
      if (r && r[1] > r[0]) out.push([r[0], r[1], p.kind]);
    }
  }
  return out;
}

/** A run of characters that looks like a secret value (for secretlint ranges that start at a key name). */
const VALUE = /[A-Za-z0-9/+=_-]{16,1024}/g;

async function secretlintRanges(text: string): Promise<Range[]> {
  const { lintSource, config } = await secretlint();
  const result = await lintSource({
    source: { content: text, filePath: "/memory/turn.txt", contentType: "text" },
    options: { config: config as never, noPhysicFilePath: true, maskSecrets: true },
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

function applyRanges(text: string, found: Range[]): Redaction {
  const masks = masksOf(text);
  const ranges = masks.length === 0 ? found : found.filter((r) => !touchesMask(masks, r[0], r[1]));
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

/** Masks every secret the table finds (sync: logs, job parameters and results). Idempotent. */
export function redactText(text: string): Redaction {
  if (text.length === 0) return { text, found: [] };
  return applyRanges(text, patternRanges(text));
}

/** Masks every secret either detector finds: the table and secretlint's recommended preset (the memory paths). Idempotent. */
export async function redact(text: string): Promise<Redaction> {
  if (text.length === 0) return { text, found: [] };
  const ranges = patternRanges(text);
  try {
    // A backstop: where the table found the secret inside a wider secretlint range (a whole connection string), the table's narrower mask wins.
    const inside = (r: Range) => ranges.some((t) => t[0] >= r[0] && t[1] <= r[1]);
    ranges.push(...(await secretlintRanges(text)).filter((r) => !inside(r)));
  } catch {
    // secretlint failing must not let text through unredacted: our own patterns still applied.
  }
  return applyRanges(text, ranges);
}

export async function redactAll(texts: string[]): Promise<Redaction[]> {
  return Promise.all(texts.map((t) => redact(t)));
}

const MAX_JSON_DEPTH = 64;

/**
 * A copy of a JSON-like value with every string redacted (keys too) and every string value under a secret-like key masked
 * (`{"DB_PASSWORD": "x"}` → `{"DB_PASSWORD": "[REDACTED:credential]"}`). Values that are not plain data (Dates, Buffers,
 * class instances) are returned as they are; an object or array nested deeper than 64 levels is replaced by a mask (fail closed).
 */
export function redactJson<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(v: unknown, depth: number): unknown {
  if (typeof v === "string") return redactText(v).text;
  if (v === null || typeof v !== "object") return v;
  if (depth > MAX_JSON_DEPTH) return "[REDACTED:too_deep]";
  if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    out[redactText(k).text] = typeof x === "string" && isSecretName(k) && x.length > 0 && !KEPT_VALUE.test(x.trim()) && !x.startsWith("[REDACTED") ? "[REDACTED:credential]" : walk(x, depth + 1);
  }
  return out;
}
