import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Served by the server at /console (apps/server/src/http/console.ts) under a CSP without inline scripts: Vite emits the
// entry as a file and the module-preload polyfill inside it, never inline.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    assetsInlineLimit: 0,
  },
});
