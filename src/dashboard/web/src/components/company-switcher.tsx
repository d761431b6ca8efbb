import { api, data } from '../api/client';
import type { Me } from '../api/types';
import { BASE } from '../lib/router';
import { ErrorAlert, useAction } from './ui';

/**
 * Issue 30: a person who belongs to several companies picks the one the session acts for
 * (`POST /api/auth/session/company`: same session, another company and role). Hidden for a person of one company.
 */
export function CompanySwitcher({ me }: { me: Me }) {
  const change = useAction(async (companyId: string) => {
    await data(api.POST('/api/auth/session/company', { body: { companyId } }));
    // A fresh load of the other company's Home: nothing read for the previous company stays on screen.
    window.location.assign(`${BASE}/`);
  });
  if (me.companies.length < 2) return <div className="who">{me.companyName}</div>;
  return (
    <div className="field company-switcher">
      <label htmlFor="company-switcher">Company</label>
      <select id="company-switcher" value={me.companyId} disabled={change.busy} onChange={(e) => void change.run(e.target.value)}>
        {me.companies.map((company) => (
          <option key={company.companyId} value={company.companyId}>
            {company.companyName} ({company.role})
          </option>
        ))}
      </select>
      <ErrorAlert error={change.error} />
    </div>
  );
}
