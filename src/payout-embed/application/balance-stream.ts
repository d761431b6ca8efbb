/**
 * Every decision on a company's money (reservations, top-ups, Split margins and covered fees) is decided on
 * its one balance stream, so concurrent ones conflict: each lost race reloads the stream and decides again,
 * up to this many times.
 */
export const BALANCE_RETRIES = 25;
