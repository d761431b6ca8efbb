import { createdSplit, creatorRow, dataOf, errorEnvelope, newIdempotencyKey, setupSplitWorld, splitEventTypes, SplitWorld, subVendorRow } from '../support/split-fixtures';
import { invitedMember, Member } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 30 item 3, the SME side on a Split: a company whose own default approval policy asks for two approvals
 * above 4000 has a pay-out-now of a row, or an instant margin release, above it asked for by one member and
 * confirmed by a second finance or owner member; the one who asked cannot confirm (403 SELF_APPROVAL), and no
 * money moves before the confirmation. At or below the threshold nothing changes.
 */
describe('SME-side two-person rule on pay-out-now and margin release (issue 30)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let fin1: Member;
  let fin2: Member;

  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app, { sme: 'Twoperson Staffing', enterprise: 'Twoperson Globex' });
    fin1 = await invitedMember(app, world.sme.sessionToken, 'finance');
    fin2 = await invitedMember(app, world.sme.sessionToken, 'finance');
    dataOf(await app.request('PUT', '/api/commerce/approval-policy', { token: world.sme.sessionToken, body: { requiredApprovals: 2, aboveAmountCents: '4000' } }), 200);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  /** Funded, margin 5000 held: a 30000 creator row (net terms) and a 3000 row (below the threshold). */
  async function fundedSplit() {
    const split = await createdSplit(app, world.sme.apiKey, {
      enterpriseCompanyId: world.enterprise.companyId,
      apContactBusinessProfileId: world.enterprise.apContactId,
      clientIdempotencyKey: newIdempotencyKey('two-person'),
      totalAmountCents: '38000',
      roster: [creatorRow(world.creator, '30000'), subVendorRow(world.walletVendor, '3000')],
    });
    dataOf(await app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: world.enterprise.sessionToken, body: { revision: split.revision } }), 200);
    await app.eventCount();
    const funded = dataOf(await app.request('GET', `/api/commerce/integration/splits/${split.id}`, { token: world.sme.apiKey }), 200);
    expect(funded).toMatchObject({ status: 'FUNDED', marginStatus: 'HELD' });
    return { id: split.id as string, big: funded.distributions[0].id as string, small: funded.distributions[1].id as string };
  }
  const payOutNow = (token: string, id: string, row: string) => app.request('POST', `/api/commerce/integration/splits/${id}/distributions/${row}/payout`, { token });
  const confirmPayOutNow = (token: string, id: string, row: string) => app.request('POST', `/api/commerce/integration/splits/${id}/distributions/${row}/payout/confirm`, { token });
  const settle = (token: string, id: string) => app.request('POST', `/api/commerce/splits/${id}/settle-margin`, { token });
  const confirmSettle = (token: string, id: string) => app.request('POST', `/api/commerce/splits/${id}/settle-margin/confirm`, { token });
  const moneyEvents = async (id: string) => (await splitEventTypes(app, id)).filter((type) => type === 'split.roster_entry.transfer_started' || type === 'split.margin.settled');

  it('a pay-out-now above the threshold waits; the asker is refused; a second finance member confirms and the transfer starts', async () => {
    const split = await fundedSplit();
    const asked = dataOf(await payOutNow(fin1.sessionToken, split.id, split.big), 200);
    expect(asked.awaitingSecondPerson).toEqual([
      { action: 'pay_out_now', rosterEntryId: split.big, amountCents: '30000', aboveAmountCents: '4000', requestedBy: `user:${fin1.userId}`, requestedAt: expect.any(String) },
    ]);
    expect(asked.distributions[0].legBTransferPayoutId).toBeNull();
    // Asking again changes nothing.
    dataOf(await payOutNow(fin1.sessionToken, split.id, split.big), 200);
    expect((await splitEventTypes(app, split.id)).filter((type) => type === 'split.second_person.requested')).toHaveLength(1);

    const self = await confirmPayOutNow(fin1.sessionToken, split.id, split.big);
    expect(self.status).toBe(403);
    expect(self.body).toEqual(errorEnvelope('SELF_APPROVAL'));
    const viewer = await invitedMember(app, world.sme.sessionToken, 'viewer');
    expect((await confirmPayOutNow(viewer.sessionToken, split.id, split.big)).body).toEqual(errorEnvelope('ROLE_FORBIDDEN'));
    expect(await moneyEvents(split.id)).toEqual([]);

    const confirmed = dataOf(await confirmPayOutNow(fin2.sessionToken, split.id, split.big), 200);
    expect(confirmed.awaitingSecondPerson).toBeUndefined();
    expect(confirmed.distributions[0]).toMatchObject({ feeAmountCents: '450', netAmountCents: '29550' });
    expect(confirmed.distributions[0].legBTransferPayoutId).toMatch(/^po_/);
    const types = await splitEventTypes(app, split.id);
    expect(types.slice(types.indexOf('split.second_person.requested'))).toEqual([
      'split.second_person.requested',
      'split.second_person.confirmed',
      'split.roster_entry.transfer_started',
      ...types.slice(types.indexOf('split.roster_entry.transfer_started') + 1),
    ]);

    // Confirmed once, paid out: a second confirmation is refused and moves nothing.
    const again = await confirmPayOutNow(world.sme.sessionToken, split.id, split.big);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorEnvelope('DISTRIBUTION_ALREADY_PAID_OUT'));
    const never = await confirmPayOutNow(fin2.sessionToken, split.id, split.small);
    expect(never.body).toEqual(errorEnvelope('SPLIT_NOTHING_TO_CONFIRM'));
  });

  it('at or below the threshold a pay-out-now moves at once, as before', async () => {
    const split = await fundedSplit();
    const paid = dataOf(await payOutNow(fin1.sessionToken, split.id, split.small), 200);
    expect(paid.awaitingSecondPerson).toBeUndefined();
    expect(paid.distributions[1].legBTransferPayoutId).toMatch(/^po_/);
    expect(await splitEventTypes(app, split.id)).not.toContain('split.second_person.requested');
  });

  it("an API key's pay-out-now above the threshold waits for a member too; any finance or owner member confirms it", async () => {
    const split = await fundedSplit();
    const asked = dataOf(await payOutNow(world.sme.apiKey, split.id, split.big), 200);
    expect(asked.awaitingSecondPerson[0].requestedBy).toMatch(/^api_key:/);
    expect((await confirmPayOutNow(world.sme.apiKey, split.id, split.big)).status).toBe(403); // a person confirms: session only
    expect(await moneyEvents(split.id)).toEqual([]);
    const confirmed = dataOf(await confirmPayOutNow(world.sme.sessionToken, split.id, split.big), 200);
    expect(confirmed.distributions[0].legBTransferPayoutId).toMatch(/^po_/);
  });

  it('an instant margin release above the threshold waits; the asker is refused; a second member releases it', async () => {
    const split = await fundedSplit();
    const asked = dataOf(await settle(fin1.sessionToken, split.id), 200);
    expect(asked).toMatchObject({ marginStatus: 'HELD', awaitingSecondPerson: [expect.objectContaining({ action: 'settle_margin', rosterEntryId: null, amountCents: '5000' })] });
    expect((await confirmSettle(fin1.sessionToken, split.id)).body).toEqual(errorEnvelope('SELF_APPROVAL'));
    expect(await moneyEvents(split.id)).toEqual([]);
    const released = dataOf(await confirmSettle(fin2.sessionToken, split.id), 200);
    expect(released).toMatchObject({ marginStatus: 'RELEASED' });
    expect(released.awaitingSecondPerson).toBeUndefined();
    expect(await moneyEvents(split.id)).toEqual(['split.margin.settled']);
    expect((await confirmSettle(fin1.sessionToken, split.id)).body).toEqual(errorEnvelope('SPLIT_NOTHING_TO_CONFIRM'));
  });

  it('another company cannot confirm (404)', async () => {
    const split = await fundedSplit();
    dataOf(await settle(fin1.sessionToken, split.id), 200);
    const other = await confirmSettle(world.enterprise.sessionToken, split.id);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(errorEnvelope('SPLIT_NOT_FOUND'));
  });
});
