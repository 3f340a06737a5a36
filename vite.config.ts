import { defineConfig } from "vite";

/** Builds the arena page (web/) into web/dist, which the express app serves at `/`. */
export default defineConfig({
  root: "web",
  base: "./",
  build: { outDir: "dist", emptyOutDir: true },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
});
