import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: PGlite is CPU-heavy to open; keep files from starving each other.
    maxWorkers: 2,
    reporters: ["default"],
    setupFiles: ["test/support/setup.ts"],
    globalSetup: ["test/support/global-setup.ts"],
  },
});
