// `npm run build` (which `npm start` runs first): compiles the server into dist/ with tsc's
// incremental build (only what changed since the last build is compiled again), bundles the page
// into dist/web/dist only when its sources changed (web/, state/, which the page imports, the Vite
// configuration and the lock file), and copies what the compiled server reads at run time beside
// it (the history's migrations). It says what it does on stderr, so a start is never silent.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const started = Date.now();
const say = (line) => process.stderr.write(`build: ${line}\n`);
const bin = (name) => join("node_modules", ".bin", name);

say("compiling the server (only what changed since the last build)…");
execFileSync(bin("tsc"), ["-p", "tsconfig.build.json"], { stdio: "inherit" });

/** Every file under the page's sources, sorted, for one hash of their names and contents. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => !(d.isDirectory() && (d.name === "dist" || d.name === "node_modules")))
    .flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}
const hash = createHash("sha256");
for (const file of [...files("web"), ...files("state"), "vite.config.ts", "package-lock.json"]) hash.update(`${file}\0`).update(readFileSync(file));
const sources = hash.digest("hex");
const stamp = "dist/web/sources.sha256";
if (existsSync("dist/web/dist/index.html") && existsSync(stamp) && readFileSync(stamp, "utf8") === sources) {
  say("the page is up to date (no change in web/ or state/)");
} else {
  say("bundling the page (its sources changed)…");
  execFileSync(bin("vite"), ["build", "--logLevel", "warn", "--outDir", "../dist/web/dist", "--emptyOutDir"], { stdio: "inherit" });
  writeFileSync(stamp, sources);
}

rmSync("dist/history/migrations", { recursive: true, force: true });
cpSync("history/migrations", "dist/history/migrations", { recursive: true });
say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
