// After `vite build`: a .gz copy beside every compressible file of dist/, which the server sends to
// browsers that accept gzip (server/web.py), so no request pays for compression.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|css|html|json|svg|txt|webmanifest)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (COMPRESSIBLE.test(name) && statSync(path).size > 512)
      writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: 9 }));
  }
}

walk(process.argv[2] ?? "dist");
