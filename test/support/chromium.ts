/**
 * Headless Chromium for the browser tests (playwright-core driving Debian's chromium; `.ci/run`
 * installs it). `describeInChromium` skips with a printed reason when it is missing, unless
 * REQUIRE_SERVICES=1, where a missing browser fails the suite; `launchChromium` opens a context
 * on a fresh profile directory.
 */
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { describe } from "vitest";
import { REQUIRE_SERVICES } from "./services";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);

/** `describe` when Chromium is there (or REQUIRE_SERVICES=1, so that launching fails loudly); otherwise skipped with a reason. */
export function describeInChromium(name: string, fn: () => void): void {
  if (!haveChromium && !REQUIRE_SERVICES) console.warn(`[skip] ${name}: chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  (haveChromium || REQUIRE_SERVICES ? describe : describe.skip)(name, fn);
}

/** A headless context on a fresh profile directory (playwright passes it as --user-data-dir). */
export async function launchChromium(): Promise<BrowserContext> {
  if (!haveChromium) throw new Error(`REQUIRE_SERVICES=1 but chromium is not installed at ${CHROMIUM}`);
  return chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), "cs-chromium-")), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}
