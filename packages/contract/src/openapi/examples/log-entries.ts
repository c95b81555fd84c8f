/** A short session log (a question, the turn starting, the answer): the example of the log page and of the stream. */
export const EXAMPLE_LOG_ENTRIES = [
  {
    seq: 1,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J0",
    type: "user.message",
    createdAt: "2026-01-15T10:00:00.000Z",
    content: [{ type: "text", text: "Ticket #4821: the export button does nothing." }],
  },
  {
    seq: 2,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J1",
    type: "session.status_running",
    createdAt: "2026-01-15T10:00:00.120Z",
  },
  {
    seq: 3,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J2",
    type: "agent.message",
    createdAt: "2026-01-15T10:00:03.480Z",
    content: [{ type: "text", text: "Thanks for the report! I could reproduce it and opened an internal issue." }],
  },
];
