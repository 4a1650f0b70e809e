import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The schema validators are compiled at build time into dist/ (the global setup builds first).
    alias: [
      { find: /^\.\.\/schemas\.js$/, replacement: path.resolve(import.meta.dirname, "dist", "schemas.js") },
    ],
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
