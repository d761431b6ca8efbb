/**
 * The sandbox payment rail settles at once, except where a destination email asks for trouble:
 * a local part containing `+fail-once` fails the first attempt, `+fail-always` every attempt.
 */
export function sandboxRailOutcome(destination: string | null, attempt: number): { ok: true } | { ok: false; reason: string } {
  const local = (destination ?? '').split('@')[0] ?? '';
  if (local.includes('+fail-always')) return { ok: false, reason: 'Sandbox rail: destination refuses every transfer (+fail-always)' };
  if (local.includes('+fail-once') && attempt === 1) return { ok: false, reason: 'Sandbox rail: first transfer attempt refused (+fail-once)' };
  return { ok: true };
}
