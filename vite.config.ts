import { defineConfig } from "vite";

/** Builds the arena page (web/) into web/dist, which the express app serves at `/` (npm run build puts it in dist/web/dist, beside the compiled server). */
export default defineConfig({
  root: "web",
  base: "./",
  build: { outDir: "dist", emptyOutDir: true },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
});
