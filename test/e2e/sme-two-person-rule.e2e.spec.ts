import { createPlatform, embedCall, latestCode, Platform, sessionBody, SESSIONS } from '../support/payout-embed-fixtures';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { invitedMember, Member } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 30 item 3, the SME side: a company whose own default approval policy asks for two approvals above an
 * amount has its Payout Embed sessions above it confirmed by a second finance or owner member; the person who
 * started one cannot complete it (403 SELF_APPROVAL), and its recipient cannot claim it before.
 */
describe('SME-side two-person rule on Payout Embed sessions (issue 30)', () => {
  let app: TestApp;
  let platform: Platform;
  let fin1: Member;
  let fin2: Member;

  beforeAll(async () => {
    app = await startTestApp();
    platform = await createPlatform(app, 'Prize Co', '500000');
    fin1 = await invitedMember(app, platform.sessionToken, 'finance');
    fin2 = await invitedMember(app, platform.sessionToken, 'finance');
    dataOf(await app.request('PUT', '/api/commerce/approval-policy', { token: platform.sessionToken, body: { requiredApprovals: 2, aboveAmountCents: '50000' } }), 200);
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  const create = async (token: string, amountCents: string) => dataOf(await app.request('POST', SESSIONS, { token, body: sessionBody({ amountCents }) }), 201);
  const confirm = (token: string, id: string) => app.request('POST', `${SESSIONS}/${id}/confirm`, { token });
  const sessionEvents = async (id: string) => (await app.platform.events.readStream(`pes-${id}`)).map((e) => e.type);

  it('above the threshold: the starter is refused, the recipient cannot claim yet, a second finance member confirms, then it can be claimed', async () => {
    const session = await create(fin1.sessionToken, '50001');
    expect(session).toMatchObject({ status: 'created', awaitingConfirmation: true, startedBy: `user:${fin1.userId}`, confirmedBy: null });

    const self = await confirm(fin1.sessionToken, session.id);
    expect(self.status).toBe(403);
    expect(self.body).toEqual(errorEnvelope('SELF_APPROVAL'));

    const early = await embedCall(app, session, 'POST', '/code');
    expect(early.status).toBe(409);
    expect(early.body).toEqual(errorEnvelope('PAYOUT_EMBED_AWAITING_CONFIRMATION'));
    expect(await sessionEvents(session.id)).toEqual(['payout_embed.session.created']);

    const confirmed = dataOf(await confirm(fin2.sessionToken, session.id), 200);
    expect(confirmed).toMatchObject({ awaitingConfirmation: false, startedBy: `user:${fin1.userId}`, confirmedBy: `user:${fin2.userId}` });
    // A repeat changes nothing.
    expect(dataOf(await confirm(platform.sessionToken, session.id), 200)).toMatchObject({ confirmedBy: `user:${fin2.userId}` });

    dataOf(await embedCall(app, session, 'POST', '/code'), 200);
    const claimed = dataOf(await embedCall(app, session, 'POST', '/claim', { code: await latestCode(app, session.recipientEmail) }), 200);
    expect(claimed.status).toBe('claimed');
    expect(await sessionEvents(session.id)).toEqual([
      'payout_embed.session.created',
      'payout_embed.session.confirmed',
      'payout_embed.session.code_sent',
      'payout_embed.session.claimed',
    ]);
  });

  it('started by an API key: any finance or owner member confirms it; a viewer or developer may not', async () => {
    const session = await create(platform.apiKey, '60000');
    expect(session.startedBy).toMatch(/^api_key:/);
    const viewer = await invitedMember(app, platform.sessionToken, 'viewer');
    expect((await confirm(viewer.sessionToken, session.id)).body).toEqual(errorEnvelope('ROLE_FORBIDDEN'));
    const byKey = await confirm(platform.apiKey, session.id);
    expect(byKey.status).toBe(403); // a person confirms: a session-only route
    expect(dataOf(await confirm(platform.sessionToken, session.id), 200)).toMatchObject({ awaitingConfirmation: false });
  });

  it('at or below the threshold nothing waits, as before', async () => {
    const session = await create(fin1.sessionToken, '50000');
    expect(session).toMatchObject({ awaitingConfirmation: false, startedBy: null });
    dataOf(await embedCall(app, session, 'POST', '/code'), 200);
  });

  it('another company cannot confirm it (404)', async () => {
    const session = await create(fin1.sessionToken, '70000');
    const other = await createPlatform(app, 'Other Co', null);
    expect((await confirm(other.sessionToken, session.id)).status).toBe(404);
  });
});
