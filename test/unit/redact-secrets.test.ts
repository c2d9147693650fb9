import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { REDACTING_OPTIONS } from "../../core/log";
import { isSecretName, redact, redactJson, redactText } from "../../core/redact";

// Real formats, fake values, built at run time so that this file itself holds no literal secret.
const j = (...parts: string[]) => parts.join("");
const pw = j("Tr0ub4dor", "&3-horse");
const pw2 = j("p@ss", ":w0rd/", "x9");
const openaiProj = j("sk-", "proj-", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7cD0eFgH2jK4mN6pQ8sT0vX");
const openaiLegacy = j("sk-", "Zk3Lr9vQpW2xT7yN8bHc4mJd6sFa1eGu0iOo5KpXqR7tY2wE");
const anthropic = j("sk-", "ant-", "api03-", "x9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBaZyXwVuTsRqPoNmLk-AbCdEfGh12");
const stripeLive = j("sk_", "live_", "51HqLyjWDarjtT1zdp7dcXy0aBcDeFgHiJkLmNoP");
const stripeTest = j("sk_", "test_", "4eC39HqLyjWDarjtT1zdp7dc");
const stripeRestricted = j("rk_", "live_", "51HqLyjWDarjtT1zdp7dcXy0Restricted9");
const stripeWebhook = j("whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
const slackBot = j("xox", "b-", "2345678901-2345678901234-AbCdEfGhIjKlMnOpQrStUvWx");
const slackUser = j("xox", "p-", "1234567890-1234567890-1234567890-0123456789abcdef0123456789abcdef");
const ghp = j("ghp", "_", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5");
const ghs = j("ghs", "_", "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8");
const ghPat = j("github", "_pat_", "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345");
const glpat = j("glpat", "-", "xYz12AbC34dEf56GhI78");
const google = j("AIza", "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY");
const jwt = j("eyJ", "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ", ".", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c");
const akia = j("AKIA", "QWERTYUIOPASDFGH");
const asia = j("ASIA", "ZXCVBNMASDFGHJKL");
const awsSecret = j("Zk3Lr9vQpW2xT7yN8bHc", "4mJd6sFa1eGu0iOo5KpX");
const awsSession = j("IQoJb3JpZ2lu", "X2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6bcu1Lb3ZRFx7ZZxp9+2ofy0fG7hQ1v3XkQ8dBcGkLwIgQ5YfTzX+9b0aUe3ZgTnR7Q=");
const awsSessionFwo = j("FwoGZXIvYXdz", "EJr//////////wEaDDu6mJ1q3b8Z1r2fYSLAAbC4K9mN2pQ8sT0vX1yZ3bC5dF7hJ9kL1mN3pQ5sT7vX9yZ1bC3dF5hJ7kL9mN");
const npm = j("npm", "_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
const hf = j("hf", "_", "AbCdEfGhIjKlMnOpQrStUvWxYz12345678");
const sentryKey = j("e3b0c44298fc1c14", "9afbf4c8996fb924");
const bearer = j("abc.DEF-123", "_456789xyzQ");
const basic = Buffer.from(j("admin:", "s3cr3t-Basic-pw")).toString("base64");
const hex64 = j("9f86d081884c7d659a2feaa0c55ad015", "a3bf4f1b2b0b822cd15d6c15b0f00a08");
const rand = j("q8Zr2Lm5Wx", "9Tn4Kb7Vh1");
const pemRsa = ["-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA7yN8bHc4mJd6sFa1eGu0iOo5KpX", "bHc4mJd6sFa1eGu0iOo5KpX7yN8", "-----END RSA PRIVATE KEY-----"].join("\n");
const pemSsh = ["-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "-----END OPENSSH PRIVATE KEY-----"].join("\n");

/** [label, text, the secret value(s) that must not survive as a substring]. */
const SECRETS: Array<[string, string, string[]]> = [
  ["env DB_PASSWORD", `DB_PASSWORD=${pw}`, [pw]],
  ["env export, double quotes", `export DB_PASSWORD="${pw}"`, [pw]],
  ["env compact PGPASSWORD", `PGPASSWORD=${pw2}`, [pw2]],
  ["env DB_PWD", `DB_PWD=${pw2}`, [pw2]],
  ["env DB_PASS, single quotes", `DB_PASS='${pw}'`, [pw]],
  ["env OPENAI_API_KEY sk-proj-", `OPENAI_API_KEY=${openaiProj}`, [openaiProj]],
  ["env ANTHROPIC_API_KEY sk-ant-", `ANTHROPIC_API_KEY=${anthropic}`, [anthropic]],
  ["env STRIPE_SECRET_KEY sk_live_", `STRIPE_SECRET_KEY=${stripeLive}`, [stripeLive]],
  ["env rk_live_ under a plain name", `STRIPE_RESTRICTED=${stripeRestricted}`, [stripeRestricted]],
  ["env AWS_SESSION_TOKEN", `AWS_SESSION_TOKEN=${awsSession}`, [awsSession]],
  ["env AWS_SESSION_TOKEN (Fwo…), quoted", `AWS_SESSION_TOKEN="${awsSessionFwo}"`, [awsSessionFwo]],
  ["env AWS_ACCESS_KEY_ID", `AWS_ACCESS_KEY_ID=${akia}`, [akia]],
  ["env AWS_SECRET_ACCESS_KEY", `AWS_SECRET_ACCESS_KEY=${awsSecret}`, [awsSecret]],
  ["env SLACK_BOT_TOKEN", `SLACK_BOT_TOKEN=${slackBot}`, [slackBot]],
  ["env GITHUB_TOKEN", `GITHUB_TOKEN=${ghp}`, [ghp]],
  ["env GITLAB_PAT", `GITLAB_PAT=${glpat}`, [glpat]],
  ["env NEXTAUTH_SECRET", `NEXTAUTH_SECRET=${rand}`, [rand]],
  ["env SECRET_KEY_BASE", `SECRET_KEY_BASE=${hex64}`, [hex64]],
  ["env lower-case api_token with a long number", `api_token=${"8402761937"}`, ["8402761937"]],
  ["dotted Java property", `spring.datasource.password=${pw2}`, [pw2]],
  ["CLI flag", `mysql --password=${pw2} -h db`, [pw2]],
  ["JS camelCase apiKey", `const cfg = { apiKey: "${rand}", region: "eu" };`, [rand]],
  ["JS camelCase clientSecret", `clientSecret = '${rand}'`, [rand]],
  ["camelCase sessionToken", `sessionToken: ${rand}`, [rand]],
  ["JSON password with an escaped quote", `{"user": "bob", "password": "${pw}\\"x"}`, [pw]],
  ["JSON compact api_key", `{"api_key":"${rand}","n":1}`, [rand]],
  ["JSON Authorization header", `{"Authorization": "Bearer ${bearer}"}`, [bearer]],
  ["YAML password", `database:\n  user: app\n  password: ${pw}\n  host: db`, [pw]],
  ["YAML quoted db_password in a list", `- name: api\n  db_password: '${pw2}'`, [pw2]],
  ["XML element", `<datasource><password>${pw}</password></datasource>`, [pw]],
  ["XML element whose value starts like its name", `<apiKey>apiKey-9f3kQ2x</apiKey>`, ["apiKey-9f3kQ2x"]],
  ["URL redis://:pass@host", `REDIS_URL=redis://:${pw2.replace(/[/@:]/g, "")}@cache.internal:6379/0`, [pw2.replace(/[/@:]/g, "")]],
  ["URL postgres://user:pass@host", `connect to postgres://app:s3cr3tpw9@db.internal:5432/app now`, ["s3cr3tpw9"]],
  ["URL mongodb+srv", `mongodb+srv://admin:Mng0Pass77@cluster0.abcde.mongodb.net/db`, ["Mng0Pass77"]],
  ["URL amqp in DATABASE_URL", `DATABASE_URL=mysql://root:My5qlRoot!@localhost:3306/shop`, ["My5qlRoot!"]],
  ["URL git https with a GitLab token password", `git clone https://oauth2:${glpat}@gitlab.com/org/repo.git`, [glpat]],
  ["URL with a token as user name (Sentry DSN)", `SENTRY_DSN=https://${sentryKey}@o12345.ingest.sentry.io/67890`, [sentryKey]],
  ["URL query access_token", `GET https://api.example.com/v1/me?access_token=${rand}&fields=id`, [rand]],
  ["free text legacy OpenAI key", `my key is ${openaiLegacy}, keep it safe`, [openaiLegacy]],
  ["free text sk-proj- key", `try ${openaiProj} in the playground`, [openaiProj]],
  ["free text Slack user token", `use ${slackUser} for the bot`, [slackUser]],
  ["free text Google API key", `maps key ${google} in index.html`, [google]],
  ["free text JWT", `the cookie was ${jwt} yesterday`, [jwt]],
  ["free text ASIA key id", `temporary id ${asia} from STS`, [asia]],
  ["free text ghs_ token", `CI used ${ghs} to push`, [ghs]],
  ["free text github_pat_", `fine-grained ${ghPat}`, [ghPat]],
  ["free text sk_test_", `Stripe test key ${stripeTest} works`, [stripeTest]],
  ["free text whsec_", `webhook signing secret is ${stripeWebhook}`, [stripeWebhook]],
  ["free text Hugging Face token", `HF login with ${hf}`, [hf]],
  [".npmrc _authToken", `//registry.npmjs.org/:_authToken=${npm}`, [npm]],
  ["curl Authorization Bearer", `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`, [bearer]],
  ["Authorization Basic", `Authorization: Basic ${basic}`, [basic]],
  ["PEM RSA private key", `key:\n${pemRsa}\nend`, ["MIIEowIBAAKCAQEA7yN8bHc4mJd6sFa1eGu0iOo5KpX", "bHc4mJd6sFa1eGu0iOo5KpX7yN8"]],
  ["PEM OpenSSH private key in JSON", JSON.stringify({ private_key: pemSsh }), ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"]],
  ["PEM encrypted key with header lines", ["-----BEGIN ENCRYPTED PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F17F5316E2BAC89", "", "MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG", "-----END ENCRYPTED PRIVATE KEY-----"].join("\n"), ["3F17F5316E2BAC89", "MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG"]],
];

/** Look-alikes that must come back unchanged. */
const LOOKALIKES: Array<[string, string]> = [
  ["numeric config of a password policy", "PASSWORD_MIN_LENGTH=12"],
  ["scikit-learn", "pip install scikit-learn; import sk-learn style estimators"],
  ["task-skip", "npm run task-skip --if-present"],
  ["URL with @ in the path", "https://example.com/path@v2"],
  ["URL with a port and @ in the path", "https://host:8080/pkg@v2/index.js"],
  ["scp-style git remote", "git@github.com:org/repo.git"],
  ["ssh git URL with a user name only", "ssh://git@github.com/org/repo.git"],
  ["e-mail address", "mail user@example.com about it"],
  ["npm scoped package", "npm install @scope/pkg@1.2.3"],
  ["UUID", "request 550e8400-e29b-41d4-a716-446655440000 failed"],
  ["git SHA", "fixed in 3f786850e387550fdab836ed7e6dc881de23001b"],
  ["base64 PNG data", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="],
  ["tokenizer", "tokenizer: bert-base-uncased"],
  ["max_tokens", "max_tokens: 4096"],
  ["password_reset_url without credentials", "password_reset_url: https://example.com/account/reset"],
  ["AKIA in prose", "Access key ids start with AKIA or ASIA followed by 16 characters"],
  ["TOKEN_TTL", "TOKEN_TTL=3600"],
  ["auth: true", "auth: true"],
  ["shell PWD", "PWD=/home/dev/project"],
  ["env reference", "DB_PASSWORD=${DB_PASSWORD}"],
  ["placeholder", "password: <your-password>"],
  ["code reading the secret from the environment", "const token = process.env.GITHUB_TOKEN;"],
  ["a getter call", "password = getPassword()"],
  ["a password file path", "export PASSWORD_FILE=/run/secrets/db"],
  ["a secret's name", "SECRET_NAME=prod/db"],
  ["class names", "AuthService depends on TokenStore and PasswordHasher"],
  ["Bearer in prose", "Bearer authentication is described in RFC 6750"],
  ["a lone JWT header segment", "header eyJhbGciOiJIUzI1NiJ9 decoded"],
  ["sk-proj without digits", "see sk-proj-template-generator docs"],
  ["Authorization scheme only", "Authorization: Bearer <token>"],
  ["TypeScript parameter types", "function login(user: string, password: string): Promise<Token>"],
  ["a Python type hint", "def connect(host: str, password: str | None = None):"],
];

describe("redaction of secrets (table-driven)", () => {
  it("masks every real-format secret and changes no look-alike", async () => {
    const leaks: string[] = [];
    let masked = 0;
    for (const [label, text, secrets] of SECRETS) {
      const r = await redact(text);
      const left = secrets.filter((s) => r.text.includes(s));
      if (left.length === 0 && r.text.includes("[REDACTED:")) masked++;
      else leaks.push(`${label}: ${r.text}`);
    }
    const changed: string[] = [];
    for (const [label, text] of LOOKALIKES) {
      const r = await redact(text);
      if (r.text !== text) changed.push(`${label}: ${r.text}`);
    }
    console.log(`[redact] masked ${masked}/${SECRETS.length} secrets, ${changed.length}/${LOOKALIKES.length} look-alikes changed`);
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(20);
    expect(leaks).toEqual([]);
    expect(changed).toEqual([]);
  });

  it("masks the value only: names, schemes, hosts and the rest of the text stay", async () => {
    expect((await redact(`DB_PASSWORD=${pw}`)).text).toBe("DB_PASSWORD=[REDACTED:credential]");
    expect((await redact(`export DB_PASSWORD="${pw}"`)).text).toBe('export DB_PASSWORD="[REDACTED:credential]"');
    expect((await redact("redis://:hunter22@cache.internal:6379")).text).toBe("redis://:[REDACTED:url_password]@cache.internal:6379");
    expect((await redact("postgres://app:hunter22@db/app")).text).toBe("postgres://app:[REDACTED:url_password]@db/app");
    expect((await redact(`OPENAI_API_KEY=${openaiProj}`)).text).toBe("OPENAI_API_KEY=[REDACTED:openai_api_key]");
    expect((await redact(`{"password": "${rand}", "user": "bob"}`)).text).toBe('{"password": "[REDACTED:credential]", "user": "bob"}');
    expect((await redact(pemRsa)).text).toBe("-----BEGIN RSA PRIVATE KEY-----[REDACTED:private_key]-----END RSA PRIVATE KEY-----");
  });

  it("is idempotent: redacting the redacted text changes nothing", async () => {
    for (const [, text] of SECRETS) {
      const once = (await redact(text)).text;
      expect(await redact(once)).toEqual({ text: once, found: [] });
      expect(redactText(once).text).toBe(once);
    }
  });

  it("the sync table alone masks every sample too (logs, job parameters and results use it)", () => {
    for (const [label, text, secrets] of SECRETS) {
      const out = redactText(text).text;
      for (const s of secrets) expect(out, label).not.toContain(s);
    }
    for (const [label, text] of LOOKALIKES) expect(redactText(text).text, label).toBe(text);
  });

  it("is linear: adversarial inputs of 200 KB take milliseconds, not seconds", () => {
    const inputs = [
      "a".repeat(200_000),
      "password=".repeat(22_000),
      "a.".repeat(100_000),
      'k="'.repeat(66_000),
      "x://".repeat(50_000),
      "https://a:".repeat(20_000),
      "sk-".repeat(66_000),
      "eyJaaaaaaaaa.".repeat(15_000),
      "-----BEGIN PRIVATE KEY-----\n".repeat(7_000),
      `${"A".repeat(60)}@`.repeat(3_000),
      "Bearer ".repeat(28_000),
    ];
    for (const text of inputs) {
      const t0 = performance.now();
      redactText(text);
      const ms = performance.now() - t0;
      // Bounded quantifiers: hundreds of ms at worst on a loaded machine; catastrophic backtracking would take minutes.
      expect(ms, text.slice(0, 20)).toBeLessThan(3000);
    }
  });

  it("names: secret-like last segments in any case style; qualifiers and other suffixes decide", () => {
    for (const n of ["DB_PASSWORD", "dbPassword", "db-password", "PGPASSWORD", "apiKey", "API_KEY", "APIKEY", "OPENAI_API_KEY", "STRIPE_SECRET_KEY", "AWS_SESSION_TOKEN", "clientSecret", "_authToken", "GITLAB_PAT", "SECRET_KEY_BASE", "TOKEN_2", "Authorization", "credentials", "private_key"]) {
      expect(isSecretName(n), n).toBe(true);
    }
    for (const n of ["PASSWORD_MIN_LENGTH", "password_reset_url", "tokenizer", "max_tokens", "TOKEN_TTL", "PWD", "OLDPWD", "PASSWORD_FILE", "SECRET_NAME", "primary_key", "author", "compass", "bypass", "keyboard"]) {
      expect(isSecretName(n), n).toBe(false);
    }
  });

  it("redactJson masks strings at any depth and values under secret-like keys, keeping structure and other values", () => {
    const params = { problem: `login fails with ${ghp}`, env: { DB_PASSWORD: "hunter2", PORT: "5432", TOKEN_TTL: 3600 }, list: [`key ${akia}`, 3, null, true] };
    const out = redactJson(params);
    expect(out).toEqual({
      problem: "login fails with [REDACTED:github_token]",
      env: { DB_PASSWORD: "[REDACTED:credential]", PORT: "5432", TOKEN_TTL: 3600 },
      list: ["key [REDACTED:aws_access_key_id]", 3, null, true],
    });
    expect(redactJson(out)).toEqual(out);
    expect(params.env.DB_PASSWORD).toBe("hunter2");
  });

  it("logs: messages, format arguments, logged objects, child bindings and errors are masked", () => {
    let out = "";
    const log = pino({ ...REDACTING_OPTIONS, level: "trace" }, { write: (x: string) => void (out += x) });
    log.info(`connecting with DB_PASSWORD=${pw}`);
    log.warn("retrying %s", `redis://:${pw2.replace(/[/@:]/g, "")}@cache:6379`);
    log.info({ detail: { note: `key ${openaiProj}` }, password: pw, headers: { authorization: `Bearer ${bearer}` } }, "request");
    log.child({ upstream: `https://app:${rand}@api.internal` }).info("child");
    log.error(new Error(`login failed for token ${ghp}`));
    log.error({ err: new Error(`AWS_SESSION_TOKEN=${awsSession}`) }, "sts");
    for (const secret of [pw, pw2.replace(/[/@:]/g, ""), openaiProj, bearer, rand, ghp, awsSession]) expect(out).not.toContain(secret);
    expect(out).toContain("DB_PASSWORD=[REDACTED:credential]");
    expect(out).toContain("https://app:[REDACTED:url_password]@api.internal");
    expect(out).toContain("login failed for token [REDACTED:github_token]");
    expect(out.trim().split("\n")).toHaveLength(6);
  });
});
