import { formatAmount } from '../../../../platform/money/format-amount';

/** Amounts in minor units (strings on the wire) formatted for their currency in the viewer's locale. */
export function money(amountMinorUnits: string | null | undefined, currency: string): string {
  if (amountMinorUnits === null || amountMinorUnits === undefined || amountMinorUnits === '') return '—';
  return formatAmount(amountMinorUnits, currency, navigator.language || 'en-US');
}

export function Money({ cents, currency }: { cents: string | null | undefined; currency: string }) {
  return <span className="amount">{money(cents, currency)}</span>;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A time in the viewer's zone; hovering (title) shows the exact UTC instant. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  return (
    <time
      dateTime={iso}
      title={`${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC')}`}
    >
      {dateTime.format(date)}
    </time>
  );
}

/** `split.approved` -> `Split approved`. */
export const humanize = (value: string) => {
  const text = value.replace(/[._]/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};
