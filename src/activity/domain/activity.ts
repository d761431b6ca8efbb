/** One line of a company's recent activity (the dashboard's Home). */
export interface ActivityEntry {
  type: string;
  occurredAt: string;
  summary: string;
  resource: { kind: 'split' | 'order' | 'payout_embed_session' | 'api_key'; id: string };
}
