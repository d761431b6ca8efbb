import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { ApiError, type Meta } from '../api/client';
import type { Resource } from '../lib/use-resource';
import { Icon, type IconName } from './icons';

type Variant = 'primary' | 'secondary' | 'danger' | 'danger-ghost' | 'ghost';

/** A button that shows progress while `busy` (and is disabled meanwhile, so a long action is not sent twice). */
export function Button({
  variant = 'secondary',
  busy = false,
  small = false,
  icon,
  children,
  className = '',
  ...rest
}: { variant?: Variant; busy?: boolean; small?: boolean; icon?: IconName } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" {...rest} className={`btn btn-${variant}${small ? ' btn-small' : ''} ${className}`} disabled={busy || rest.disabled} aria-busy={busy || undefined}>
      {busy ? <span className="spinner" aria-hidden="true" /> : icon ? <Icon name={icon} size={16} /> : null}
      {children}
    </button>
  );
}

/** Runs an async action with a busy flag and the error kept for display. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const run = async (...args: A): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
      return true;
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

export function ErrorAlert({ error }: { error: Error | null | undefined }) {
  if (!error) return null;
  return (
    <div className="alert error" role="alert">
      {error.message}
      {error instanceof ApiError && error.code !== 'NETWORK' ? <span className="small muted"> ({error.code})</span> : null}
    </div>
  );
}

export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': described })}
      {hint ? (
        <div className="hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

const STATUS_TONE: Record<string, 'good' | 'warn' | 'bad' | 'info'> = {
  SETTLED: 'good',
  PAID: 'good',
  PAID_OUT: 'good',
  ACTIVE: 'good',
  COMPLETED: 'good',
  SUCCEEDED: 'good',
  DELIVERED: 'good',
  CLAIMED: 'good',
  APPROVED: 'info',
  FUNDED: 'info',
  SETTLING: 'info',
  PENDING: 'warn',
  PENDING_APPROVAL: 'warn',
  AWAITING_APPROVAL: 'warn',
  SCHEDULED: 'warn',
  RETRYING: 'warn',
  CREATED: 'warn',
  OPEN: 'warn',
  PROBATION: 'warn',
  INVOICED: 'info',
  // Bills (issue 27): past due is a problem to act on, part-paid is progress
  OVERDUE: 'bad',
  PARTIALLY_PAID: 'info',
  // Checkout refunds (issue 26)
  PARTIALLY_REFUNDED: 'info',
  REFUNDED: 'info',
  FAILED: 'bad',
  REJECTED: 'bad',
  CANCELLED: 'bad',
  CANCELED: 'bad',
  EXPIRED: 'bad',
  DISABLED: 'bad',
  DEAD: 'bad',
  DECLINED: 'bad',
};

export function StatusBadge({ status }: { status: string }) {
  const label = status.replace(/_/g, ' ').toLowerCase();
  return <Badge tone={STATUS_TONE[status.toUpperCase()] ?? 'neutral'}>{label.charAt(0).toUpperCase() + label.slice(1)}</Badge>;
}

/** Copies text; says "Copied" for a moment (announced to screen readers). */
export function CopyButton({ text, label = 'Copy', small = true }: { text: string; label?: string; small?: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard refused (insecure context or permission): select-and-copy fallback.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1800);
  };
  return (
    <Button small={small} icon={copied ? 'check' : 'copy'} onClick={() => void copy()} aria-label={copied ? 'Copied' : label}>
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </Button>
  );
}

/** A confirm dialog (native <dialog>: focus is trapped and Escape cancels). */
export function Confirm({
  open,
  title,
  body,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = true,
  busy = false,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  body?: ReactNode;
  confirmLabel: string;
  /** The button that closes without acting (issue 29: "Keep subscription" where "Cancel" would be ambiguous). */
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: Error | null;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onCancel())}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
      >
        <div className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          {body ? <p>{body}</p> : null}
          {children}
          {error ? (
            <div style={{ marginTop: '0.75rem' }}>
              <ErrorAlert error={error} />
            </div>
          ) : null}
        </div>
        <div className="dialog-actions">
          <Button onClick={onCancel}>{cancelLabel}</Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

export function EmptyState({ title, children, icon = 'empty' }: { title: string; children?: ReactNode; icon?: IconName }) {
  return (
    <div className="state" role="status">
      <Icon name={icon} size={36} />
      <h3>{title}</h3>
      {children ? <p>{children}</p> : null}
    </div>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" aria-label={label}>
      <div className="skeleton" style={{ width: '70%' }} />
      <div className="skeleton" style={{ width: '90%' }} />
      <div className="skeleton" style={{ width: '55%' }} />
    </div>
  );
}

export function LoadError({ error, retry }: { error: Error; retry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <Icon name="alert" size={32} />
      <h3>Could not load this</h3>
      <p>{error.message}</p>
      {retry ? (
        <p style={{ marginTop: '0.75rem' }}>
          <Button small icon="refresh" onClick={retry}>
            Try again
          </Button>
        </p>
      ) : null}
    </div>
  );
}

/** Loading / error / empty / content for a list resource, in one place so every list behaves the same. */
export function ListState<T>({ resource, empty, children }: { resource: Resource<T[]>; empty: ReactNode; children: (items: T[]) => ReactNode }) {
  if (resource.error && !resource.data) return <LoadError error={resource.error} retry={resource.reload} />;
  if (!resource.data) return <Loading />;
  if (resource.data.length === 0) return <>{empty}</>;
  return <>{children(resource.data)}</>;
}

export function Pager({ meta, onPage }: { meta: Meta | null; onPage: (page: number) => void }) {
  if (!meta || meta.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        Page {meta.page} of {meta.totalPages} · {meta.total} in all
      </span>
      <span className="row">
        <Button small disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
          Newer
        </Button>
        <Button small disabled={meta.page >= meta.totalPages} onClick={() => onPage(meta.page + 1)}>
          Older
        </Button>
      </span>
    </nav>
  );
}

export function PageHead({ title, lede, actions }: { title: string; lede?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {lede ? <p>{lede}</p> : null}
      </div>
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}
