package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// userAgent is sent to both servers alike (Go's default names its version).
const userAgent = "benchclient"

// client talks to one server the way targets.ts's HttpClient does: requests share keep-alive connections (at most
// one per concurrent client), and each event stream gets a connection of its own, closed when the reader is done.
type client struct {
	baseURL string
	headers http.Header
	api     *http.Client
	streams *http.Client
	// decodeEveryRead: W4 decodes every answer whole instead of comparing it with one decoded before (checked.go).
	decodeEveryRead bool
	// checked holds, per path, the last answer decoded and checked (a checkedBody).
	checked sync.Map
}

func newClient(baseURL string, headers http.Header, clients int, decodeEveryRead bool) *client {
	// No gzip: Go asks for it by default, the Node.js client does not, and the platform compresses for clients that ask.
	api := &http.Transport{
		Proxy:               nil,
		DisableCompression:  true,
		MaxIdleConns:        clients,
		MaxIdleConnsPerHost: clients,
		MaxConnsPerHost:     clients,
		IdleConnTimeout:     90 * time.Second,
	}
	streams := &http.Transport{Proxy: nil, DisableCompression: true, DisableKeepAlives: true}
	return &client{baseURL: baseURL, headers: headers, api: &http.Client{Transport: api},
		streams: &http.Client{Transport: streams}, decodeEveryRead: decodeEveryRead}
}

func (c *client) close() {
	c.api.CloseIdleConnections()
	c.streams.CloseIdleConnections()
}

func (c *client) newRequest(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, reader)
	if err != nil {
		return nil, err
	}
	for name, values := range c.headers {
		req.Header[name] = values
	}
	req.Header.Set("User-Agent", userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// call sends a request with a JSON body (none when `body` is nil), checks its status is `want` and returns the
// response's body, read whole (which returns the connection to the pool).
func (c *client) call(ctx context.Context, method, path string, body any, want int) ([]byte, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	req, err := c.newRequest(ctx, method, path, payload)
	if err != nil {
		return nil, err
	}
	res, err := c.api.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	// Read whole into one buffer of the announced length (and the room the last, empty, read asks for).
	var answer bytes.Buffer
	if res.ContentLength > 0 && res.ContentLength < 64<<20 {
		answer.Grow(int(res.ContentLength) + bytes.MinRead)
	}
	if _, err := answer.ReadFrom(res.Body); err != nil {
		return nil, fmt.Errorf("%s %s: reading the response: %w", method, path, err)
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("%s %s: %d (expected %d) %s", method, path, res.StatusCode, want, clip(answer.Bytes(), 300))
	}
	return answer.Bytes(), nil
}

// callJSON is call, then decodes the response's body into `into`.
func (c *client) callJSON(ctx context.Context, method, path string, body any, want int, into any) error {
	answer, err := c.call(ctx, method, path, body, want)
	if err != nil {
		return err
	}
	return decode(method, path, answer, into)
}

// decode decodes a response's JSON body into `into`.
func decode(method, path string, answer []byte, into any) error {
	if err := json.Unmarshal(answer, into); err != nil {
		return fmt.Errorf("%s %s: not the JSON expected (%v): %s", method, path, err, clip(answer, 300))
	}
	return nil
}

func clip(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}
