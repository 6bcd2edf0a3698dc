// Migration 031. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Webhook deliveries (spec section 6): an outbox. The row is written in the same transaction that
-- ends the job, so a crash between "job finished" and "webhook sent" cannot lose the event; the
-- dispatcher marks it 'sending' before the one attempt, so a crash during the call never repeats
-- it (the spec: a failed call is not repeated). Every attempt keeps its outcome for the app.
CREATE TABLE webhook_deliveries (
  id             INTEGER PRIMARY KEY,
  job_id         INTEGER NOT NULL REFERENCES jobs (id),
  user_id        INTEGER NOT NULL REFERENCES api_users (id),
  url            TEXT    NOT NULL,
  state          TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
  body_json      TEXT,
  http_status    INTEGER,
  error          TEXT,
  created_at_ms  INTEGER NOT NULL,
  started_at_ms  INTEGER,
  finished_at_ms INTEGER,
  duration_ms    INTEGER
);
CREATE INDEX webhook_deliveries_state ON webhook_deliveries (state, id);
CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id, id DESC);

-- Optional shared secret: when set, each delivery carries an HMAC-SHA256 signature of
-- "<timestamp>.<body>" (docs/decisions.md, "Webhook authentication").
ALTER TABLE api_users ADD COLUMN webhook_secret TEXT;

-- The webhook inbox (an extension): a capability URL on the local listener that keeps whatever
-- is POSTed to it, so a user can point a webhook at it and watch deliveries arrive.
CREATE TABLE webhook_inboxes (
  token         TEXT    PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES api_users (id),
  created_at_ms INTEGER NOT NULL
);
CREATE TABLE webhook_inbox_messages (
  id             INTEGER PRIMARY KEY,
  token          TEXT    NOT NULL REFERENCES webhook_inboxes (token) ON DELETE CASCADE,
  received_at_ms INTEGER NOT NULL,
  content_type   TEXT,
  headers_json   TEXT    NOT NULL,
  body_text      TEXT    NOT NULL
);
CREATE INDEX webhook_inbox_messages_token ON webhook_inbox_messages (token, id DESC);
`;
