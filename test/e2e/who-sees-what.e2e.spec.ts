import { CARDS, confirm, createdCheckout } from '../browser/checkout-fixtures';
import { createdSession, embedOf, topUp } from '../support/payout-embed-fixtures';
import {
  createCompany,
  createCreator,
  createdSplit,
  createEnterprise,
  createSubVendor,
  creatorRow,
  dataOf,
  emailRow,
  issueApiKey,
  outbox,
  subVendorRow,
  uniqueEmail,
} from '../support/split-fixtures';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/domain/webhook-event-types';
import { startTestApp, TestApp } from '../support/test-app';
import { startWebhookReceiver, answer, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 24, DESIGN 15 "Views per audience": three companies (an SME, the enterprise it bills, an unrelated
 * SME) and a contractor act through a Split, a checkout, a Payout Embed session and webhooks; then every GET
 * route of the OpenAPI document (so a new route is read without editing this test) is read as each of them,
 * with each credential it holds and every id the scenario produced in the path. No answer may contain an
 * email, name, key id, idempotency key or amount of a party the caller should not see (docs/api.md#who-sees-what),
 * and a route that names another party's resource answers 404.
 */

type Party = 'sme' | 'enterprise' | 'rival' | 'contractor';
const PARTIES: Party[] = ['sme', 'enterprise', 'rival', 'contractor'];

type Operation = { security?: Record<string, string[]>[]; parameters?: { in: string; name: string }[] };

/** The sandbox's own tools (its mailbox and clock) stand in for a mail server and time: not a party's view, absent in production. */
const SANDBOX_TOOLS = /^\/api\/sandbox\//;

interface Secret {
  label: string;
  value: string;
  /** Who may read it. */
  seenBy: Party[];
}

/** An amount as a JSON value ("31415") and as money text ("314.15"). */
const amountForms = (cents: string) => [`"${cents}"`, `${cents.slice(0, -2)}.${cents.slice(-2)}`];

describe('who sees what: every GET route as every party (issue 24)', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const credentials: Record<Party, { session?: string; apiKey?: string; embedToken?: { sessionId: string; token: string } }> = {
    sme: {},
    enterprise: {},
    rival: {},
    contractor: {},
  };
  /** Ids by the resource name a path segment uses before the parameter, with who may read each. */
  const ids: { kind: string; id: string; readers: Party[] }[] = [];
  const secrets: Secret[] = [];
  const secret = (label: string, value: string, seenBy: Party[]) => secrets.push({ label, value, seenBy });
  const amount = (label: string, cents: string, seenBy: Party[]) => {
    for (const value of amountForms(cents)) secret(label, value, seenBy);
  };
  const keyIds = async (session: string): Promise<string[]> =>
    dataOf(await app.request('GET', '/api/commerce/api-keys', { token: session }), 200).map((key: { id: string }) => key.id);

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver(answer(200));

    // The parties.
    const sme = await createCompany(app, 'Alpha Staffing');
    const smeKey = await issueApiKey(app, sme.sessionToken, ['split:write', 'checkout:write', 'payout:write'], 'alpha server');
    const enterprise = await createEnterprise(app, 'Globex Buyer');
    const enterpriseKey = await issueApiKey(app, enterprise.sessionToken, ['split:write', 'checkout:write', 'payout:write'], 'globex server');
    const rival = await createCompany(app, 'Rival Staffing');
    const rivalKey = await issueApiKey(app, rival.sessionToken, ['split:write', 'checkout:write', 'payout:write'], 'rival server');
    const contractor = await createCreator(app, { fullName: 'Quentin Quillfeather' });
    credentials.sme = { session: sme.sessionToken, apiKey: smeKey };
    credentials.enterprise = { session: enterprise.sessionToken, apiKey: enterpriseKey };
    credentials.rival = { session: rival.sessionToken, apiKey: rivalKey };

    // The contractor signs in with the link its account was sent.
    const link = new URL((await outbox(app)).find((message) => message.to === contractor.email)!.link);
    const signedIn = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: link.searchParams.get('token') } }), 200);
    credentials.contractor.session = signedIn.sessionToken;

    // Webhooks: both SMEs listen to every event type there is.
    const eventTypes = [...WEBHOOK_EVENT_TYPES];
    for (const [party, session] of [
      ['sme', sme.sessionToken],
      ['rival', rival.sessionToken],
    ] as const) {
      const endpoint = dataOf(await app.request('POST', '/api/commerce/webhooks/endpoints', { token: session, body: { url: `${receiver.url}/${party}`, eventTypes } }), 201);
      ids.push({ kind: 'endpoints', id: endpoint.id, readers: [party] });
    }

    // The SME bills the enterprise: the contractor (instant payout), a person added by email, a sub-vendor with a wallet.
    const vendor = await createSubVendor(app, smeKey, { email: uniqueEmail('alpha-vendor'), fullName: 'Vivienne Vendorson', walletEmail: uniqueEmail('alpha-vendor-wallet') });
    const emailPerson = uniqueEmail('alpha-by-email');
    const splitKey = `alpha-invoice-${Math.random().toString(36).slice(2)}`;
    const split = await createdSplit(app, smeKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: splitKey,
      totalAmountCents: '90000',
      roster: [creatorRow(contractor, '31415', { earlyPayoutElected: true }), emailRow(emailPerson, '27182'), subVendorRow(vendor, '14142', { autoWithdrawElected: true })],
    });
    ids.push({ kind: 'splits', id: split.id, readers: ['sme', 'enterprise'] });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: enterprise.sessionToken, body: { revision: split.revision } }), 200);
    // Then the enterprise auto-accepts the SME's Splits: the next approval is appended by the SME's own call.
    dataOf(await app.request('PUT', `/api/commerce/split-settings/sme/${sme.companyId}`, { token: enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }), 200);
    const autoKey = `alpha-auto-${Math.random().toString(36).slice(2)}`;
    const autoAccepted = await createdSplit(app, smeKey, {
      enterpriseCompanyId: enterprise.companyId,
      apContactBusinessProfileId: enterprise.apContactId,
      clientIdempotencyKey: autoKey,
      roster: [creatorRow(contractor, '5000')],
    });
    expect(autoAccepted.status).toBe('APPROVED');
    ids.push({ kind: 'splits', id: autoAccepted.id, readers: ['sme', 'enterprise'] });

    // Checkouts: each SME sells once, paid by card.
    for (const [party, key, cents] of [
      ['sme', smeKey, '16180'],
      ['rival', rivalKey, '17320'],
    ] as const) {
      const idempotencyKey = `${party}-order-${Math.random().toString(36).slice(2)}`;
      const order = await createdCheckout(app, key, { amountMinorUnits: cents, checkoutMode: 'EMBEDDED', idempotencyKey });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
      ids.push({ kind: 'orders', id: order.orderId, readers: [party] });
      secret(`${party}'s checkout idempotency key`, idempotencyKey, [party]);
      amount(`${party}'s order amount`, cents, [party]);
    }

    // Payout Embed: the SME pays the contractor a prize it claims on the embed; the rival pays someone else.
    await topUp(app, sme.sessionToken, '100000');
    await topUp(app, rival.sessionToken, '100000');
    const prize = await createdSession(app, smeKey, { recipientEmail: contractor.email, recipientName: 'Quentin Quillfeather', amountCents: '12121' });
    credentials.contractor.embedToken = { sessionId: embedOf(prize).id, token: embedOf(prize).token };
    ids.push({ kind: 'sessions', id: prize.id, readers: ['sme'] }, { kind: 'payouts', id: prize.id, readers: ['contractor'] });
    const rivalPerson = uniqueEmail('rival-prize');
    const rivalPrize = await createdSession(app, rivalKey, { recipientEmail: rivalPerson, recipientName: 'Rosalind Rivalwinner', amountCents: '22360' });
    ids.push({ kind: 'sessions', id: rivalPrize.id, readers: ['rival'] }, { kind: 'payouts', id: rivalPrize.id, readers: [] });
    const rivalVendor = await createSubVendor(app, rivalKey, {
      email: uniqueEmail('rival-vendor'),
      fullName: 'Ronan Rivalvendor',
      walletEmail: uniqueEmail('rival-vendor-wallet'),
    });
    await app.eventCount();

    // Who may read what.
    const all: Party[] = ['sme', 'enterprise', 'rival', 'contractor'];
    for (const key of await keyIds(sme.sessionToken)) secret("the SME's API key id", key, ['sme']);
    for (const key of await keyIds(rival.sessionToken)) secret("the rival's API key id", key, ['rival']);
    for (const key of await keyIds(enterprise.sessionToken)) secret("the enterprise's API key id", key, ['enterprise']);
    secret("the SME's Split idempotency key", splitKey, ['sme']);
    secret("the SME's auto-accepted Split idempotency key", autoKey, ['sme']);
    secret("the SME's user email", sme.email, ['sme']);
    secret("the enterprise's user email", enterprise.email, ['enterprise']);
    secret("the rival's user email", rival.email, ['rival']);
    // The contractor's address is the SME's payee on the Payout Embed session (it supplied it); its wallet is its own.
    secret("the contractor's email", contractor.email, ['contractor', 'sme']);
    secret("the contractor's wallet email", contractor.walletEmail!, ['contractor']);
    // Row names: the enterprise approves a bill that says whom it pays; amounts of a row: the SME, the enterprise, the row's contractor.
    secret("the contractor's name", contractor.fullName, ['contractor', 'sme', 'enterprise']);
    amount("the contractor's row", '31415', ['contractor', 'sme', 'enterprise']);
    secret('the email-row person', emailPerson, ['sme']);
    amount("the email-row person's row", '27182', ['sme', 'enterprise']);
    secret("the SME's sub-vendor email", vendor.email, ['sme']);
    secret("the SME's sub-vendor wallet", vendor.walletEmail!, ['sme']);
    secret("the SME's sub-vendor name", vendor.fullName!, ['sme', 'enterprise']);
    amount("the SME's sub-vendor row", '14142', ['sme', 'enterprise']);
    amount("the SME's prize", '12121', ['sme', 'contractor']);
    secret("the rival's payee", rivalPerson, ['rival']);
    secret("the rival's payee name", 'Rosalind Rivalwinner', ['rival']);
    amount("the rival's prize", '22360', ['rival']);
    secret("the rival's sub-vendor email", rivalVendor.email, ['rival']);
    secret("the rival's sub-vendor wallet", rivalVendor.walletEmail!, ['rival']);
    secret("the rival's sub-vendor name", rivalVendor.fullName!, ['rival']);
    expect(all).toEqual(PARTIES);
    // The scenario really happened: webhooks went out, the contractor was paid, the embed is readable.
    expect(receiver.requests.length).toBeGreaterThan(0);
  }, 60_000);

  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  /** Each way `party` can call a route: its credentials the route accepts (or none, on a public route). */
  function callsOf(party: Party, operation: Operation): { label: string; headers: Record<string, string>; embedFor?: string }[] {
    const schemes = new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)));
    const mine = credentials[party];
    if (schemes.size === 0) return [{ label: 'none', headers: mine.session ? { authorization: `Bearer ${mine.session}` } : {} }];
    const calls: { label: string; headers: Record<string, string>; embedFor?: string }[] = [];
    if (schemes.has('session') && mine.session) calls.push({ label: 'session', headers: { authorization: `Bearer ${mine.session}` } });
    if (schemes.has('apiKey') && mine.apiKey) calls.push({ label: 'apiKey', headers: { authorization: `Bearer ${mine.apiKey}` } });
    if (schemes.has('embedToken') && mine.embedToken)
      calls.push({ label: 'embedToken', headers: { authorization: `Bearer ${mine.embedToken.token}` }, embedFor: mine.embedToken.sessionId });
    return calls;
  }

  /** The ids a path parameter takes: those of the resource named by the segment before it, else every id. */
  function candidates(path: string, name: string): typeof ids {
    const segments = path.split('/');
    const before = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
    const kinds = new Set(ids.map((entry) => entry.kind));
    return kinds.has(before) ? ids.filter((entry) => entry.kind === before) : ids;
  }

  it('reads every GET route of the OpenAPI document as each party: nothing of another party, and 404 for its resources', async () => {
    const openapi = (await app.request('GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const routes = Object.entries(openapi.paths)
      .filter(([path, methods]) => methods.get !== undefined && !SANDBOX_TOOLS.test(path))
      .map(([path, methods]) => ({ path, operation: methods.get! }));
    expect(routes.length).toBeGreaterThan(25);

    const leaks: string[] = [];
    const wrongStatus: string[] = [];
    let reads = 0;
    let successes = 0;
    for (const party of PARTIES) {
      const hidden = secrets.filter((s) => !s.seenBy.includes(party));
      for (const { path, operation } of routes) {
        const params = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        for (const call of callsOf(party, operation)) {
          const isPublic = (operation.security ?? []).length === 0;
          // One path per combination of ids (routes here take at most one path parameter).
          const fills: { url: string; owned: boolean }[] =
            params.length === 0
              ? [{ url: path, owned: true }]
              : candidates(path, params[0]!)
                  // A public route's id is its capability (an order's, a session's): only its holder has it.
                  .filter((entry) => !isPublic || entry.readers.includes(party))
                  .filter((entry) => call.embedFor === undefined || entry.id === call.embedFor || !entry.readers.includes(party))
                  .map((entry) => ({ url: path.replace(`{${params[0]}}`, entry.id), owned: entry.readers.includes(party) }));
          const answers: { url: string; owned: boolean; status: number }[] = [];
          for (const fill of fills) {
            const response = await app.request('GET', fill.url, { headers: call.headers });
            reads += 1;
            if (response.status < 300) successes += 1;
            answers.push({ ...fill, status: response.status });
            for (const s of hidden) if (response.text.includes(s.value)) leaks.push(`${party} (${call.label}) GET ${fill.url} -> ${response.status} shows ${s.label} (${s.value})`);
          }
          // Another party's resource does not exist for the caller, where the caller's own ones do.
          if (answers.some((a) => a.owned && a.status < 300)) {
            for (const a of answers.filter((x) => !x.owned && x.status !== 404)) wrongStatus.push(`${party} (${call.label}) GET ${a.url} -> ${a.status}, expected 404`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(wrongStatus).toEqual([]);
    // The reads were real: most answered with data.
    expect(successes).toBeGreaterThan(reads / 3);
  }, 120_000);
});
