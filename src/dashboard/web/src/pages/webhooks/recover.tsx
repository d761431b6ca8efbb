import { useState } from 'react';
import { api, ApiError, data } from '../../api/client';
import type { WebhookEndpoint } from '../../api/types';
import { Button, ErrorAlert, useAction } from '../../components/ui';
import { localToIso } from './local-time';

export function Recover({ endpoint, onRecovered }: { endpoint: WebhookEndpoint; onRecovered: () => void }) {
  const [since, setSince] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const recover = useAction(async () => {
    let recovered = 0;
    // At most 500 a call: keep calling while the service says some remain.
    for (;;) {
      const answer = await data<{ recovered: number; remaining?: number }>(
        api.POST('/api/commerce/webhooks/endpoints/{id}/recover', { params: { path: { id: endpoint.id } }, body: { since: localToIso(since) ?? '' } }),
      );
      recovered += answer.recovered;
      setResult(`Redelivering ${recovered} failed deliver${recovered === 1 ? 'y' : 'ies'}…`);
      if (!answer.remaining || answer.recovered === 0) break;
    }
    setResult(`${recovered} failed deliver${recovered === 1 ? 'y is' : 'ies are'} being redelivered.`);
    onRecovered();
  });
  const fields = recover.error instanceof ApiError ? recover.error.fieldErrors() : {};
  return (
    <form
      className="form"
      style={{ marginTop: '1.25rem', borderTop: '1px solid var(--line)', paddingTop: '1rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        void recover.run();
      }}
      noValidate
    >
      <h3>Recover after an outage</h3>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div className="field" style={{ flex: '1 1 220px' }}>
          <label htmlFor="recover-since">Redeliver every failed delivery since</label>
          <input id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} aria-invalid={Boolean(fields.since)} required />
        </div>
        <Button type="submit" busy={recover.busy} disabled={!since}>
          Recover failed deliveries
        </Button>
      </div>
      {fields.since ? <div className="field-error">{fields.since}</div> : <ErrorAlert error={recover.error} />}
      {result ? (
        <div className="alert info" role="status">
          {result}
        </div>
      ) : null}
    </form>
  );
}
