// Tables of webhooks, events, the delivery outbox and delivery attempts.
export {};
