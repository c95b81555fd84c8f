package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// Target is what a workload does against a server, whichever it is: targets.ts's Target, request for request.
type Target interface {
	createAgent(ctx context.Context, c *client, i int64) (string, error)
	createSession(ctx context.Context, c *client, agent string) (string, error)
	// turn posts one user message and follows the session's stream until the turn has ended.
	turn(ctx context.Context, c *client, session, text string) error
	// readLog reads the whole log (every page) and returns the seq of its last entry.
	readLog(ctx context.Context, c *client, session string) (int64, error)
}

type created struct {
	ID *string `json:"id"`
}

// createOne POSTs a body that creates something and returns its id (a 201 with a string id, or an error).
func createOne(ctx context.Context, c *client, path string, body any) (string, error) {
	var answer created
	if err := c.callJSON(ctx, http.MethodPost, path, body, http.StatusCreated, &answer); err != nil {
		return "", err
	}
	if answer.ID == nil || *answer.ID == "" {
		return "", fmt.Errorf("POST %s: no id in the answer", path)
	}
	return *answer.ID, nil
}

type agentBody struct {
	Name   string `json:"name"`
	Model  string `json:"model"`
	System string `json:"system"`
}

type sessionBody struct {
	Agent string `json:"agent"`
}

// logEntry is the one member of a log entry the client checks.
type logEntry struct {
	Seq *int64 `json:"seq"`
}

// lastSeqOf is the seq of a log's last entry (0 for an empty log).
func lastSeqOf(path string, data []logEntry) (int64, error) {
	if len(data) == 0 {
		return 0, nil
	}
	last := data[len(data)-1]
	if last.Seq == nil {
		return 0, fmt.Errorf("GET %s: the last entry has no seq", path)
	}
	return *last.Seq, nil
}

// platformTarget is the platform's API (targets.ts's platformTarget).
type platformTarget struct {
	base string // /v1/projects/{project}
}

func (p platformTarget) createAgent(ctx context.Context, c *client, i int64) (string, error) {
	return createOne(ctx, c, p.base+"/agents", agentBody{
		Name:   "Bench agent " + strconv.FormatInt(i, 10),
		Model:  "openai-compatible/fake-model",
		System: "Be brief.",
	})
}

func (p platformTarget) createSession(ctx context.Context, c *client, agent string) (string, error) {
	return createOne(ctx, c, p.base+"/sessions", sessionBody{Agent: agent})
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type userMessage struct {
	Type    string     `json:"type"`
	Content []textPart `json:"content"`
}

type appendBody struct {
	Events []userMessage `json:"events"`
}

type appended struct {
	Events []logEntry `json:"events"`
}

func (p platformTarget) turn(ctx context.Context, c *client, session, text string) error {
	path := p.base + "/sessions/" + session + "/events"
	body := appendBody{Events: []userMessage{{Type: "user.message", Content: []textPart{{Type: "text", Text: text}}}}}
	var answer appended
	if err := c.callJSON(ctx, http.MethodPost, path, body, http.StatusAccepted, &answer); err != nil {
		return err
	}
	if len(answer.Events) == 0 || answer.Events[0].Seq == nil {
		return fmt.Errorf("POST %s: no events[0].seq in the answer", path)
	}
	after := strconv.FormatInt(*answer.Events[0].Seq, 10)
	return c.follow(ctx, path+"/stream?afterSeq="+after, "session.status_idle")
}

type page struct {
	Data         []logEntry `json:"data"`
	HasMore      *bool      `json:"hasMore"`
	NextAfterSeq *int64     `json:"nextAfterSeq"`
}

// pageEnd is what a page of the platform's log says of its end: the seq of its last entry, and whether more follow.
type pageEnd struct {
	last    int64
	hasMore bool
}

func (p platformTarget) readLog(ctx context.Context, c *client, session string) (int64, error) {
	var after int64
	for {
		path := p.base + "/sessions/" + session + "/events?afterSeq=" + strconv.FormatInt(after, 10)
		end, err := getChecked(ctx, c, path, func(body []byte) (pageEnd, error) { return checkPage(path, body) })
		if err != nil {
			return 0, err
		}
		after = end.last
		if !end.hasMore {
			return after, nil
		}
	}
}

// checkPage decodes a page of the platform's log and checks that its last entry is its nextAfterSeq.
func checkPage(path string, body []byte) (pageEnd, error) {
	var pg page
	if err := decode(http.MethodGet, path, body, &pg); err != nil {
		return pageEnd{}, err
	}
	if pg.Data == nil || pg.HasMore == nil || pg.NextAfterSeq == nil {
		return pageEnd{}, fmt.Errorf("GET %s: not a page of the log (data, hasMore, nextAfterSeq)", path)
	}
	last, err := lastSeqOf(path, pg.Data)
	if err != nil {
		return pageEnd{}, err
	}
	if last != *pg.NextAfterSeq {
		return pageEnd{}, fmt.Errorf("GET %s: the page's last entry is seq %d, its nextAfterSeq %d", path, last,
			*pg.NextAfterSeq)
	}
	return pageEnd{last: last, hasMore: *pg.HasMore}, nil
}

// bareTarget is the bare node:http + pg server (targets.ts's bareTarget).
type bareTarget struct{}

func (bareTarget) createAgent(ctx context.Context, c *client, i int64) (string, error) {
	return createOne(ctx, c, "/agents", agentBody{
		Name:   "Bench agent " + strconv.FormatInt(i, 10),
		Model:  "fake",
		System: "Be brief.",
	})
}

func (bareTarget) createSession(ctx context.Context, c *client, agent string) (string, error) {
	return createOne(ctx, c, "/sessions", sessionBody{Agent: agent})
}

type messageBody struct {
	Text string `json:"text"`
}

func (bareTarget) turn(ctx context.Context, c *client, session, text string) error {
	if _, err := c.call(ctx, http.MethodPost, "/sessions/"+session+"/messages", messageBody{Text: text},
		http.StatusAccepted); err != nil {
		return err
	}
	return c.follow(ctx, "/sessions/"+session+"/stream", "event: idle")
}

type bareLog struct {
	Data []logEntry `json:"data"`
}

func (bareTarget) readLog(ctx context.Context, c *client, session string) (int64, error) {
	path := "/sessions/" + session + "/events"
	return getChecked(ctx, c, path, func(body []byte) (int64, error) {
		var log bareLog
		if err := decode(http.MethodGet, path, body, &log); err != nil {
			return 0, err
		}
		if log.Data == nil {
			return 0, fmt.Errorf("GET %s: not a log (no data)", path)
		}
		return lastSeqOf(path, log.Data)
	})
}
