/** The one spelling of an email address that lookups, stream ids and documents use. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
