/** `2026-11-25T10:30` (a datetime-local value, the viewer's zone) to an ISO instant. */
export const localToIso = (value: string) => (value ? new Date(value).toISOString() : undefined);
