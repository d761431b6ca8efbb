/** The net terms an enterprise may set, in days (PATCH /api/commerce/company); the dashboard's form and docs/api.md use the same bounds. */
export const NET_TERMS_MIN_DAYS = 0;
export const NET_TERMS_MAX_DAYS = 365;
