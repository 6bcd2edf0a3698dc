// Webhooks (spec section 6): the outbox, its dispatcher, the delivery log, per-user settings and
// the inbox extension.
export { WebhookDispatcher } from './dispatcher';
export { sendTestEvent, type TestEventOutcome } from './test-event';
export { deliverWebhook, WEBHOOK_TIMEOUT_MS } from './deliver';
export { SIGNATURE_HEADER, signatureHeader } from './sign';
export { setWebhook, webhookSettings, checkWebhookUrl, type WebhookSettings } from './settings';
export { checkWebhookSecret, moveSecretsToKeychain, movedSecretsLine, type MovedSecrets, type SecretKeeper, type SecretPlace } from './secret-store';
export { listDeliveries, deliveriesOfJob, type DeliveryRecord } from './log';
export { createInbox, inboxesOf, inboxMessages, recordInboxMessage, INBOX_MAX_BODY_BYTES, type InboxMessage } from './inbox';
