import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "../../src/http/console.js";

describe("/console before the console is built", () => {
  it("answers 503 with a page that says how to build it", async () => {
    const app = express().use(consoleRouter(undefined));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ["/console", "/console/sessions/sess_1"]) {
        const response = await fetch(`${base}${path}`);
        expect(response.status).toBe(503);
        expect(await response.text()).toContain("pnpm build");
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
