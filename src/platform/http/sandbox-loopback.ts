/**
 * Issue 29 item 10: in the sandbox a developer tries a checkout redirect or a Payout Embed frame against its
 * own machine, so a returnUrl or an allowed origin may be plain http on a loopback host there (localhost,
 * 127.x.x.x, [::1], any port). Outside the sandbox they stay https only.
 */
export function isLoopbackHttp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const url = URL.parse(value);
  return url !== null && url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname));
}

/** Said after an https rule's message where the sandbox also takes loopback http. */
export const SANDBOX_LOOPBACK_NOTE = ' (in the sandbox, http://localhost also works)';
