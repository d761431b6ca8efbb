/** The recipient's page (docs/payout-embed.md#the-embed-page): a shell whose script drives the page's own API. */
import { chromeHeader, escapeHtml, htmlPage } from '../../platform/http/html-page';

function shell(title: string, body: string, sessionId: string | null): string {
  return htmlPage(title, body, {
    bodyAttributes: sessionId ? ` data-session-id="${escapeHtml(sessionId)}"` : '',
    header: chromeHeader('secure payout'),
    footer: '<footer class="chrome">Paysplit will never ask for a password or card number to pay you.</footer>',
    scripts: sessionId ? ['/assets/payout-embed.js'] : [],
    stylesheet: '/assets/payout-embed.css',
    noReferrer: true,
  });
}

export function notFoundPage(): string {
  return shell('Payout link not found', '<h1>This payout link is not valid</h1><p>Check that you opened the whole link from the sender, or ask them for a new one.</p>', null);
}

/** The page for one session (the id is checked against /^pes_[0-9a-z]{26}$/ before); everything it shows comes from GET /api/embed/payouts/:id with the token. */
export function embedPage(sessionId: string): string {
  return shell('Claim your payout', '<p role="status"><span class="spinner" aria-hidden="true"></span>Loading your payout…</p>', sessionId);
}
