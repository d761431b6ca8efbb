/** The company signing secrets' cipher (`SecretBox`). */
export const SECRET_BOX = Symbol('SECRET_BOX');
/** What POSTs a signed delivery (`WebhookPoster`, the undici client in production). */
export const WEBHOOK_POSTER = Symbol('WEBHOOK_POSTER');
