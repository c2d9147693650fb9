import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".codesynapse/", "test/services/", "coverage/", "dist/", "test/artifacts/", ".venv/", ".schemathesis/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", Buffer: "readonly", AbortController: "readonly", AbortSignal: "readonly", fetch: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  { files: ["main/cli.ts", "bench/**", "test/**", "bin/**"], rules: { "no-console": "off" } },
);
