import { RunningApp } from '../src/bootstrap';
import { call } from './http-load';

/**
 * The parties a Split bench needs, made over the real HTTP API: an SME with a split:write key, an
 * enterprise with an AP contact, and ROSTER_ROWS sub-vendors on the SME's roster. `autoAccept` sets the
 * enterprise's per-SME setting, so every Split is approved (and then funded and settled) at creation.
 */
export const ROSTER_ROWS = 10;
export const ROW_AMOUNT_CENTS = '12500';

export interface SplitWorld {
  apiKey: string;
  /** The SME's session (for session-only calls: more API keys, webhook endpoints). */
  sessionToken: string;
  smeCompanyId: string;
  body(): string;
}

export async function splitWorld(app: RunningApp, options: { autoAccept: boolean; earlyPayout: boolean }): Promise<SplitWorld> {
  const password = 'correct horse battery';
  const sme = await call(app, 'POST', '/api/auth/signup', { companyName: 'Bench Staffing', email: 'sme@bench.example', password });
  const enterprise = await call(app, 'POST', '/api/auth/signup', { companyName: 'Bench Enterprise', email: 'ap@bench-enterprise.example', password });
  const { key } = await call(app, 'POST', '/api/commerce/api-keys', { name: 'bench', scopes: ['split:write'] }, sme.sessionToken);
  const apContact = await call(app, 'POST', '/api/commerce/business-profiles', { displayName: 'Accounts Payable', email: 'ap@bench-enterprise.example' }, enterprise.sessionToken);
  if (options.autoAccept) await call(app, 'PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, { autoAccept: true, coverFees: false }, enterprise.sessionToken);
  const vendors: string[] = [];
  for (let i = 0; i < ROSTER_ROWS; i++) {
    vendors.push(
      (
        await call(
          app,
          'POST',
          '/api/commerce/integration/sub-vendors',
          { email: `vendor${i}@bench-contractors.example`, fullName: `Vendor ${i}`, walletEmail: `wallet${i}@bench-contractors.example` },
          key,
        )
      ).id,
    );
  }
  let sequence = 0;
  const body = () =>
    JSON.stringify({
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: apContact.id,
      clientIdempotencyKey: `bench-invoice-${++sequence}`,
      roster: vendors.map((subVendorId) => ({ subVendorId, amountCents: ROW_AMOUNT_CENTS, earlyPayoutElected: options.earlyPayout })),
    });
  return { apiKey: key, sessionToken: sme.sessionToken, smeCompanyId: sme.companyId, body };
}
