// Copies what the compiled server reads at run time beside it (the last step of npm run build):
// the history's migrations, where dist/history/open.js looks for them. (The page is built straight
// into dist/web/dist, where dist/routes/app.js looks for it.)
import { cpSync, rmSync } from "node:fs";

rmSync("dist/history/migrations", { recursive: true, force: true });
cpSync("history/migrations", "dist/history/migrations", { recursive: true });
