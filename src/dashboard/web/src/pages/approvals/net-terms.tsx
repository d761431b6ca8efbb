import { useState } from 'react';
import { api, ApiError, data } from '../../api/client';
import type { Company } from '../../api/types';
import { Button, ErrorAlert, useAction } from '../../components/ui';
import { useResource } from '../../lib/use-resource';
import { NET_TERMS_MAX_DAYS, NET_TERMS_MIN_DAYS } from '../../../../../parties/domain/net-terms';

export function NetTerms() {
  const company = useResource(() => data<Company>(api.GET('/api/commerce/company')));
  const [days, setDays] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await data(api.PATCH('/api/commerce/company', { body: { netTermsDays: Number(days) } }));
    setSaved(true);
    company.reload();
  });
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const value = days ?? String(company.data?.netTermsDays ?? '');
  return (
    <section className="panel" aria-labelledby="terms-title">
      <h2 id="terms-title">Net terms</h2>
      <p className="small muted" style={{ marginTop: 0 }}>
        How many days after approval you pay a Split.
      </p>
      <form
        className="row"
        style={{ alignItems: 'flex-end' }}
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void save.run();
        }}
      >
        <div className="field" style={{ flex: '0 1 10rem' }}>
          <label htmlFor="net-terms">Days</label>
          <input
            id="net-terms"
            type="number"
            min={NET_TERMS_MIN_DAYS}
            max={NET_TERMS_MAX_DAYS}
            inputMode="numeric"
            value={value}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={Boolean(fields.netTermsDays)}
            aria-describedby={fields.netTermsDays ? 'net-terms-error' : undefined}
          />
        </div>
        <Button type="submit" busy={save.busy} disabled={!company.data}>
          Save
        </Button>
      </form>
      {fields.netTermsDays ? (
        <div className="field-error" id="net-terms-error">
          {fields.netTermsDays}
        </div>
      ) : (
        <ErrorAlert error={save.error} />
      )}
      {saved ? (
        <p className="small" role="status" style={{ color: 'var(--good)' }}>
          Saved: new Splits use net {company.data?.netTermsDays} days.
        </p>
      ) : null}
    </section>
  );
}
