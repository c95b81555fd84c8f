import { describe, expect, it } from "vitest";
import { mergePrometheusTexts } from "../../src/lib/telemetry/prometheus-merge.js";

const child0 = `# HELP http_server_duration Duration of HTTP requests
# TYPE http_server_duration histogram
http_server_duration_count{route="/v1"} 3
http_server_duration_sum{route="/v1"} 0.5
http_server_duration_bucket{route="/v1",le="+Inf"} 3
# HELP sessions_started Turns started
# TYPE sessions_started counter
sessions_started 7
`;
const child1 = `# HELP http_server_duration Duration of HTTP requests
# TYPE http_server_duration histogram
http_server_duration_count{route="/v1"} 1
http_server_duration_sum{route="/v1"} 0.1
http_server_duration_bucket{route="/v1",le="+Inf"} 1

# HELP only_here A gauge one process has
# TYPE only_here gauge
only_here{} 2 1700000000000
`;

describe("mergePrometheusTexts", () => {
  it("labels each process's samples and keeps one header per family, its samples together", () => {
    const merged = mergePrometheusTexts([
      { child: "0", text: child0 },
      { child: "1", text: child1 },
    ]);
    expect(merged).toBe(`# HELP http_server_duration Duration of HTTP requests
# TYPE http_server_duration histogram
http_server_duration_count{child="0",route="/v1"} 3
http_server_duration_sum{child="0",route="/v1"} 0.5
http_server_duration_bucket{child="0",route="/v1",le="+Inf"} 3
http_server_duration_count{child="1",route="/v1"} 1
http_server_duration_sum{child="1",route="/v1"} 0.1
http_server_duration_bucket{child="1",route="/v1",le="+Inf"} 1
# HELP sessions_started Turns started
# TYPE sessions_started counter
sessions_started{child="0"} 7
# HELP only_here A gauge one process has
# TYPE only_here gauge
only_here{child="1"} 2 1700000000000
`);
  });

  it("keeps a process's note (one that did not answer) and drops quotes from the label", () => {
    const merged = mergePrometheusTexts([
      { child: "0", text: "# child 0 did not answer in time\n" },
      { child: '1"', text: "up 1\n" },
    ]);
    expect(merged).toBe('# child 0 did not answer in time\nup{child="1"} 1\n');
  });
});
