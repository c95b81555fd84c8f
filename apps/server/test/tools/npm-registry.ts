import { createHash } from "node:crypto";
import { writeTar } from "../../src/workspaces/workspace-tar.js";
import { type Loopback, startLoopback } from "./support.js";

/** A real npm registry on loopback serving one package, `tiny-pkg@1.0.0`; other names are 404. */
export async function startNpmRegistry(): Promise<{ site: Loopback }> {
  const now = new Date();
  const tarball = await writeTar([
    {
      path: "package/package.json",
      type: "file",
      content: Buffer.from(JSON.stringify({ name: "tiny-pkg", version: "1.0.0", main: "index.js" })),
      size: 0,
      mode: 0o644,
      mtime: now,
    },
    {
      path: "package/index.js",
      type: "file",
      content: Buffer.from("exports.hello = 'hello from tiny-pkg';\n"),
      size: 0,
      mode: 0o644,
      mtime: now,
    },
  ]);
  const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  const shasum = createHash("sha1").update(tarball).digest("hex");
  let url = "";
  const site = await startLoopback((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/tiny-pkg") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          name: "tiny-pkg",
          "dist-tags": { latest: "1.0.0" },
          versions: {
            "1.0.0": {
              name: "tiny-pkg",
              version: "1.0.0",
              main: "index.js",
              dist: { tarball: `${url}/tiny-pkg/-/tiny-pkg-1.0.0.tgz`, integrity, shasum },
            },
          },
        }),
      );
      return;
    }
    if (path === "/tiny-pkg/-/tiny-pkg-1.0.0.tgz") {
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      res.end(tarball);
      return;
    }
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "not found" }));
  });
  url = site.url;
  return { site };
}
