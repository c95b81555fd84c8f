package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// turnTimeout bounds one turn, from creating its session to its end on the stream (targets.ts's follow: 30 s).
const turnTimeout = 30 * time.Second

// loop runs `clients` goroutines, each repeating `step` while `duration` has not passed since the start (the last
// step of each ends after it), and returns every step's latency and the time from the start to the last step's end.
// The first error stops every goroutine after its current step and is returned.
func loop(clients int, duration time.Duration, step func() error) ([]time.Duration, time.Duration, error) {
	started := time.Now()
	until := started.Add(duration)
	var failed atomic.Bool
	var once sync.Once
	var firstErr error
	latencies := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	for g := 0; g < clients; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for !failed.Load() && time.Now().Before(until) {
				t := time.Now()
				if err := step(); err != nil {
					once.Do(func() { firstErr = err })
					failed.Store(true)
					return
				}
				latencies[g] = append(latencies[g], time.Since(t))
			}
		}(g)
	}
	wg.Wait()
	elapsed := time.Since(started)
	var all []time.Duration
	for _, l := range latencies {
		all = append(all, l...)
	}
	return all, elapsed, firstErr
}

// W1: `clients` loops creating agents named "Bench agent <i>".
func w1CreateAgents(c *client, t Target, clients int, duration time.Duration) (*Result, error) {
	var next atomic.Int64
	latencies, elapsed, err := loop(clients, duration, func() error {
		_, err := t.createAgent(context.Background(), c, next.Add(1)-1)
		return err
	})
	if err != nil {
		return nil, err
	}
	return newResult(latencies, elapsed, len(latencies)), nil
}

// oneTurn is run-e2e.ts's: a new session, then one message and the stream up to the turn's end, within turnTimeout.
func oneTurn(c *client, t Target, agent string, i int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	session, err := t.createSession(ctx, c, agent)
	if err != nil {
		return err
	}
	return t.turn(ctx, c, session, "Hello "+strconv.FormatInt(i, 10))
}

// W2: one client's turns one after another: 20 unmeasured, then turns for `duration` and at least 50.
func w2TurnLatency(c *client, t Target, agent string, duration time.Duration) (*Result, error) {
	const unmeasured, atLeast = 20, 50
	for i := 0; i < unmeasured; i++ {
		if err := oneTurn(c, t, agent, int64(i)); err != nil {
			return nil, err
		}
	}
	var latencies []time.Duration
	started := time.Now()
	until := started.Add(duration)
	for i := 0; time.Now().Before(until) || len(latencies) < atLeast; i++ {
		t0 := time.Now()
		if err := oneTurn(c, t, agent, int64(i)); err != nil {
			return nil, err
		}
		latencies = append(latencies, time.Since(t0))
	}
	return newResult(latencies, time.Since(started), unmeasured+len(latencies)), nil
}

// W3: `clients` loops of turns.
func w3Turns(c *client, t Target, agent string, clients int, duration time.Duration) (*Result, error) {
	var next atomic.Int64
	latencies, elapsed, err := loop(clients, duration, func() error {
		return oneTurn(c, t, agent, next.Add(1)-1)
	})
	if err != nil {
		return nil, err
	}
	return newResult(latencies, elapsed, len(latencies)), nil
}

// W4: `clients` loops reading a session's whole log, each read checked to end at `lastSeq`.
func w4ReadLog(c *client, t Target, session string, lastSeq int64, clients int, duration time.Duration) (*Result, error) {
	latencies, elapsed, err := loop(clients, duration, func() error {
		last, err := t.readLog(context.Background(), c, session)
		if err == nil && last != lastSeq {
			err = fmt.Errorf("read the log up to seq %d, expected %d", last, lastSeq)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return newResult(latencies, elapsed, len(latencies)), nil
}
