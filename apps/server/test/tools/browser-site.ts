import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Loopback, startLoopback } from "./support.js";

/** The loopback site the browser tests browse: links, a form, cookies, a live connection, a leaky page. */
export interface TestSite {
  site: Loopback;
  /** A server on another loopback address (127.0.0.2) that pages try to reach; it must never be contacted. */
  secret: { url: string; hits: string[]; close(): Promise<void> };
  /** Requests to `/slow` (never answered) so far. */
  slowRequests(): number;
  /** Connections to `/events` (the `/live` page's EventSource) that are still open. */
  openStreams(): number;
  close(): Promise<void>;
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
}

async function startSecret(): Promise<TestSite["secret"]> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("secret");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.2:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startTestSite(): Promise<TestSite> {
  const secret = await startSecret();
  let streams = 0;
  let slow = 0;
  const site = await startLoopback((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const html = (title: string, body: string) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(page(title, body));
    };
    switch (url.pathname) {
      case "/":
        return html(
          "Home",
          '<h1>Welcome</h1><p>Read <a href="/contact">Contact us</a> or <a href="/about">About</a>.</p>',
        );
      case "/hog":
        // Allocates (and touches) memory until something stops it: the browser's memory limit.
        return html(
          "Hog",
          "<script>const keep = []; for (;;) { const a = new Uint8Array(16 << 20); a.fill(1); keep.push(a); }</script>",
        );
      case "/socket":
        return html(
          "Socket",
          `<p>Socket page</p><script>new WebSocket("ws://localhost:${site.port}/ws-from-localhost");</script>`,
        );
      case "/redirect-to-localhost":
        res.writeHead(302, { Location: `http://localhost:${site.port}/about?redirected` });
        res.end();
        return;
      case "/slow":
        // Never answers: a navigation that only an interrupt ends.
        slow++;
        return;
      case "/about":
        return html("About", "<h1>About</h1><p>We make widgets since 1999.</p>");
      case "/contact":
        return html(
          "Contact",
          '<h1>Contact</h1><form action="/thanks" method="get"><label for="name">Your name</label>' +
            '<input id="name" name="name" placeholder="Ada"><button type="submit">Send</button></form>',
        );
      case "/thanks":
        return html("Thanks", `<h1>Thanks, ${(url.searchParams.get("name") ?? "").replace(/[<>&]/g, "")}!</h1>`);
      case "/set-cookie":
        res.writeHead(200, { "Content-Type": "text/html", "Set-Cookie": `token=${url.searchParams.get("v")}; Path=/` });
        res.end(page("Cookie set", "<p>cookie set</p>"));
        return;
      case "/show-cookie":
        return html("Cookie", `<p>cookie: [${(req.headers.cookie ?? "none").replace(/[<>&]/g, "")}]</p>`);
      case "/leaky":
        return html(
          "Leaky",
          `<p>Leaky page</p><img src="${secret.url}/pixel.png"><script>fetch("${secret.url}/xhr").catch(() => {});` +
            "</script>",
        );
      case "/mixed":
        return html("Mixed", `<p>Mixed page</p><img src="http://localhost:${site.port}/pixel-from-localhost">`);
      case "/live":
        return html("Live", "<p>Live page</p><script>new EventSource('/events');</script>");
      case "/events":
        streams++;
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
        res.write(": open\n\n");
        req.socket.on("close", () => streams--);
        return;
      default:
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("not found");
    }
  });
  return {
    site,
    secret,
    openStreams: () => streams,
    slowRequests: () => slow,
    async close() {
      await site.close();
      await secret.close();
    },
  };
}
