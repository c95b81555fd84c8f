// Command benchclient is the end-to-end bench's independent client (bench/e2e/run-go.ts drives it): the requests of
// targets.ts for the workloads W1–W4 of run-e2e.ts, made by a compiled program of another runtime. It runs one
// workload against one server for -seconds and prints one JSON line to stdout; on any unexpected status, body or
// socket error it prints the reason to stderr and exits with 1.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// options are the command's flags.
type options struct {
	target, url, project, workload string
	headers                        headerFlags
	seconds                        float64
	clients                        int
	agent, session                 string
	lastSeq                        int64
	decodeEveryRead                bool
}

// headerFlags collects the repeatable -header "name: value" flag.
type headerFlags http.Header

func (h headerFlags) String() string { return fmt.Sprint(http.Header(h)) }

func (h headerFlags) Set(line string) error {
	name, value, ok := strings.Cut(line, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("not a header %q (want \"name: value\")", line)
	}
	http.Header(h).Add(strings.TrimSpace(name), strings.TrimSpace(value))
	return nil
}

func main() {
	o := options{headers: headerFlags{}}
	flag.StringVar(&o.target, "target", "", "platform or bare")
	flag.StringVar(&o.url, "url", "", "the server's base URL, e.g. http://127.0.0.1:3000")
	flag.Var(o.headers, "header", `a header of every request, "name: value" (repeatable)`)
	flag.StringVar(&o.project, "project", "", "the platform's project id (its routes' /v1/projects/:project)")
	flag.StringVar(&o.workload, "workload", "", "W1, W2, W3 or W4")
	flag.Float64Var(&o.seconds, "seconds", 5, "measured seconds")
	flag.IntVar(&o.clients, "clients", 0, "concurrent clients (default: W1 16, W2 1, W3 32, W4 16)")
	flag.StringVar(&o.agent, "agent", "", "W2, W3: the agent of the sessions")
	flag.StringVar(&o.session, "session", "", "W4: the session whose log is read")
	flag.Int64Var(&o.lastSeq, "last-seq", 0, "W4: the seq of the log's last entry")
	flag.BoolVar(&o.decodeEveryRead, "decode-every-read", false,
		"W4: decode every answer whole (by default an answer identical to one decoded before is not decoded again)")
	flag.Parse()

	result, err := run(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchclient %s %s: %v\n", o.target, o.workload, err)
		os.Exit(1)
	}
	line, _ := json.Marshal(result)
	fmt.Println(string(line))
}

func run(o options) (*Result, error) {
	if o.clients == 0 {
		o.clients = map[string]int{"W1": 16, "W2": 1, "W3": 32, "W4": 16}[o.workload]
	}
	if o.url == "" {
		return nil, fmt.Errorf("-url is required")
	}
	if o.clients < 1 {
		return nil, fmt.Errorf("-clients must be at least 1 (workload %q)", o.workload)
	}
	var t Target
	switch o.target {
	case "platform":
		if o.project == "" {
			return nil, fmt.Errorf("-project is required for the platform")
		}
		t = platformTarget{base: "/v1/projects/" + o.project}
	case "bare":
		t = bareTarget{}
	default:
		return nil, fmt.Errorf("-target must be platform or bare, not %q", o.target)
	}
	c := newClient(strings.TrimSuffix(o.url, "/"), http.Header(o.headers), o.clients, o.decodeEveryRead)
	defer c.close()
	duration := time.Duration(o.seconds * float64(time.Second))
	switch o.workload {
	case "W1":
		return w1CreateAgents(c, t, o.clients, duration)
	case "W2", "W3":
		if o.agent == "" {
			return nil, fmt.Errorf("-agent is required for %s", o.workload)
		}
		if o.workload == "W2" {
			return w2TurnLatency(c, t, o.agent, duration)
		}
		return w3Turns(c, t, o.agent, o.clients, duration)
	case "W4":
		if o.session == "" || o.lastSeq <= 0 {
			return nil, fmt.Errorf("-session and -last-seq are required for W4")
		}
		return w4ReadLog(c, t, o.session, o.lastSeq, o.clients, duration)
	}
	return nil, fmt.Errorf("-workload must be W1, W2, W3 or W4, not %q", o.workload)
}
