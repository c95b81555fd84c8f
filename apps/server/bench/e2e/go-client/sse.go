package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// follow reads a Server-Sent Events stream on a connection of its own until the text received so far contains
// `needle`, then closes it (the platform's stream follows the session until its client goes). A needle split across
// two reads is found: each read is searched together with the end of what came before.
func (c *client) follow(ctx context.Context, path, needle string) error {
	req, err := c.newRequest(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := c.streams.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 300))
		return fmt.Errorf("GET %s: %d (expected 200) %s", path, res.StatusCode, body)
	}
	want := []byte(needle)
	// The last bytes seen (at least len(needle)-1 of them, to match across reads; 500 for an error's message).
	keep := 500
	if len(want) > keep {
		keep = len(want)
	}
	window := make([]byte, 0, keep+32<<10)
	chunk := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(chunk)
		if n > 0 {
			window = append(window, chunk[:n]...)
			if bytes.Contains(window, want) {
				return nil
			}
			if len(window) > keep {
				window = append(window[:0], window[len(window)-keep:]...)
			}
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("GET %s: the stream ended before %q: %s", path, needle, window)
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("GET %s: no %q before the turn's deadline: %s", path, needle, window)
			}
			return fmt.Errorf("GET %s: %w", path, err)
		}
	}
}
