import type { Delivery, DeliveryAttempt } from '../../api/types';
import { Badge } from '../../components/ui';
import { Time } from '../../lib/format';

export function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <p className="muted small">No attempt yet{delivery.nextAttemptAt ? '; the first is scheduled.' : '.'}</p>;
  return (
    <ol className="attempts" style={{ margin: '0.5rem 0 0', paddingLeft: '1.25rem' }}>
      {delivery.attempts.map((attempt: DeliveryAttempt) => (
        <li key={attempt.attempt} style={{ marginBottom: '0.75rem' }}>
          <dl className="facts small">
            <dt>Attempted</dt>
            <dd>
              <Time iso={attempt.attemptedAt} />
            </dd>
            <dt>Response</dt>
            <dd className="response-status">
              {attempt.responseStatus === null ? <Badge tone="bad">No response</Badge> : <Badge tone={attempt.succeeded ? 'good' : 'bad'}>HTTP {attempt.responseStatus}</Badge>}
            </dd>
            <dt>Latency</dt>
            <dd>{attempt.latencyMs} ms</dd>
            {attempt.error ? (
              <>
                <dt>Error</dt>
                <dd>{attempt.error}</dd>
              </>
            ) : null}
          </dl>
          <details>
            <summary className="small">Request headers and body</summary>
            <pre>
              {Object.entries(attempt.requestHeaders ?? {})
                .map(([name, value]) => `${name}: ${value ?? '(computed at send time)'}`)
                .join('\n') || '—'}
            </pre>
            <pre>{prettyJson(attempt.requestBody)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

function prettyJson(body: string | null | undefined): string {
  if (!body) return '—';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
