/**
 * pg 8 warns once per process ("Calling client.query() when the client is already executing a query is deprecated")
 * when a client is given a query while another one runs on it: queued today, an error in pg 9. The tests treat it as
 * a failure: `no-pg-warning.ts` (a setup file of every test file) fails the file whose process printed it, and
 * `pg-warning-exit.ts` (preloaded into the worker processes tests start) ends that process.
 */
const CONCURRENT_QUERY = /client\.query\(\) when the client is already executing a query/;

export function onConcurrentQueryWarning(report: (warning: Error) => void): void {
  process.on("warning", (warning) => {
    if (warning.name === "DeprecationWarning" && CONCURRENT_QUERY.test(warning.message)) report(warning);
  });
}
