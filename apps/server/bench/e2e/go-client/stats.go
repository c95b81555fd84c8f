package main

import (
	"math"
	"sort"
	"time"
)

// Result is the one JSON line the client prints.
type Result struct {
	// Ops is the operations measured, Seconds the time they took (from the first's start to the last's end).
	Ops     int     `json:"ops"`
	Seconds float64 `json:"seconds"`
	// Rate is Ops per second.
	Rate float64 `json:"rate"`
	// P50Ms and P99Ms are the operations' latencies (W2's value is its p50).
	P50Ms float64 `json:"p50Ms"`
	P99Ms float64 `json:"p99Ms"`
	// AllOps counts the unmeasured operations too (W2's 20 first turns): what the server did while the client ran.
	AllOps int `json:"allOps"`
}

func newResult(latencies []time.Duration, elapsed time.Duration, allOps int) *Result {
	ms := make([]float64, len(latencies))
	for i, d := range latencies {
		ms[i] = float64(d) / float64(time.Millisecond)
	}
	sort.Float64s(ms)
	seconds := elapsed.Seconds()
	return &Result{
		Ops:     len(ms),
		Seconds: seconds,
		Rate:    float64(len(ms)) / seconds,
		P50Ms:   percentile(ms, 50),
		P99Ms:   percentile(ms, 99),
		AllOps:  allOps,
	}
}

// percentile is bench/support.ts's: the nearest rank, on values sorted ascending (0 when there are none).
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	if i > len(sorted)-1 {
		i = len(sorted) - 1
	}
	return sorted[i]
}
