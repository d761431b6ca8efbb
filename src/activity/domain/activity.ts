/** One line of a company's recent activity (the dashboard's Home). */
export interface ActivityEntry {
  type: string;
  occurredAt: string;
  summary: string;
  resource: { kind: 'split' | 'order' | 'payout_embed_session' | 'api_key'; id: string };
}

/** An amount in minor units as people read it: `25000` USD is `250.00 USD` (the currency's own decimals). */
export function formatMinor(amountCents: string, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code keeps two decimals.
  }
  if (digits === 0) return `${amountCents} ${currency}`;
  const padded = amountCents.padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)} ${currency}`;
}
