/**
 * `npm run client:generate:python`: writes clients/python/codesynapse_api/
 * from the operation catalog, without a running server: the same OpenAPI 3.1
 * document the server serves (api/openapi.ts), turned into a typed httpx
 * client by openapi-python-client (pinned in test/python/requirements-tools.txt,
 * installed into .venv/tools on first use; ruff from the same venv formats
 * what it writes). The hand-written layer (codesynapse_client/) is not touched.
 *
 * test/integration/python-client.test.ts fails while the committed package is
 * stale, as test/unit/client-generated.test.ts does for the TypeScript client.
 *
 *   npx tsx clients/python/scripts/generate.ts [--out DIR]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openApiDocument } from "../../../api/openapi";
import { probePython, venv } from "../../../scripts/python-venv";

const run = promisify(execFile);

export const PYTHON_CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const GENERATED_PACKAGE = path.join(PYTHON_CLIENT_DIR, "codesynapse_api");
export const TOOLS_REQUIREMENTS = "test/python/requirements-tools.txt";

/** The tools venv's bin directory (made on first use); throws without Python. */
export async function toolsBin(): Promise<string> {
  const py = await probePython();
  if (!py.available) throw new Error(`cannot generate the Python client: ${py.reason}`);
  return venv(py.python!, "tools", TOOLS_REQUIREMENTS);
}

/** Generates the package for the current catalog into `out` (replaced). */
export async function generatePythonClient(out: string = GENERATED_PACKAGE): Promise<void> {
  const bin = await toolsBin();
  const tmp = mkdtempSync(path.join(os.tmpdir(), "codesynapse-openapi-"));
  try {
    const doc = path.join(tmp, "openapi.json");
    writeFileSync(doc, JSON.stringify(openApiDocument()));
    rmSync(out, { recursive: true, force: true });
    await run(
      path.join(bin, "openapi-python-client"),
      ["generate", "--path", doc, "--meta", "none", "--output-path", out, "--overwrite", "--config", path.join(PYTHON_CLIENT_DIR, "openapi-python-client.yaml"), "--fail-on-warning"],
      { env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` }, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
    );
    // ruff leaves its cache beside what it formatted: not part of the package.
    rmSync(path.join(out, ".ruff_cache"), { recursive: true, force: true });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--out");
  const out = i > 0 ? path.resolve(process.argv[i + 1]!) : GENERATED_PACKAGE;
  await generatePythonClient(out);
  console.error(`wrote ${path.relative(process.cwd(), out)}`);
}
