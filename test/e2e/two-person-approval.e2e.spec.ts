import { createdSplit, creatorRow, dataOf, errorEnvelope, setupSplitWorld, splitBody, splitEventTypes, SplitWorld } from '../support/split-fixtures';
import { invitedMember, Member } from '../support/team-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 30 item 3: an enterprise's approval policy. Above its amount a Split needs two different finance
 * members; the same member twice and anyone from the SME are refused; a roster revision between the two
 * clears the first; auto-accept applies only up to its cap.
 */
describe('two-person approval of incoming Splits (issue 30)', () => {
  let app: TestApp;
  let world: SplitWorld;
  let fin1: Member;
  let fin2: Member;

  beforeAll(async () => {
    app = await startTestApp();
    world = await setupSplitWorld(app);
    fin1 = await invitedMember(app, world.enterprise.sessionToken, 'finance');
    fin2 = await invitedMember(app, world.enterprise.sessionToken, 'finance');
    const policy = { requiredApprovals: 2, aboveAmountCents: '50000' };
    expect(dataOf(await app.request('PUT', '/api/commerce/approval-policy', { token: world.enterprise.sessionToken, body: policy }), 200)).toMatchObject({
      ...policy,
      smeCompanyId: null,
      autoAcceptCapCents: null,
    });
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  const approve = (member: { sessionToken: string }, split: { id: string; revision: number }) =>
    app.request('POST', `/api/commerce/splits/${split.id}/approve`, { token: member.sessionToken, body: { revision: split.revision } });
  const bigSplit = () => createdSplit(app, world.sme.apiKey, splitBody(world));

  it('approved by two finance members: pending after the first, approved (one webhook event) after the second', async () => {
    const split = await bigSplit();
    expect(split).toMatchObject({ status: 'PENDING_APPROVAL', approvalsRequired: 2, approvals: [] });
    const first = dataOf(await approve(fin1, split), 200);
    expect(first).toMatchObject({ status: 'PENDING_APPROVAL', approvals: [{ approvedBy: `user:${fin1.userId}` }] });
    expect(await splitEventTypes(app, split.id)).not.toContain('split.leg_a.approved');

    const again = await approve(fin1, split);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorEnvelope('SPLIT_ALREADY_APPROVED_BY_YOU'));

    const second = dataOf(await approve(fin2, split), 200);
    expect(second.approvals.map((a: { approvedBy: string }) => a.approvedBy)).toEqual([`user:${fin1.userId}`, `user:${fin2.userId}`]);
    expect(['APPROVED', 'FUNDED']).toContain(second.status);
    const types = await splitEventTypes(app, split.id);
    expect(types.filter((t) => t === 'split.approval.recorded')).toHaveLength(2);
    expect(types.filter((t) => t === 'split.leg_a.approved')).toHaveLength(1);
    // The SME sees that it was approved and when, not by whom.
    const asSme = dataOf(await app.request('GET', `/api/commerce/splits/${split.id}`, { token: world.sme.sessionToken }), 200);
    expect(asSme.approvals.map((a: { approvedBy: string }) => a.approvedBy)).toEqual(['enterprise', 'enterprise']);
    // History names who acted (issue 30): the enterprise reads its members' emails; the SME reads the party.
    const history = (token: string) => app.request('GET', `/api/commerce/splits/${split.id}/history`, { token });
    const approvalsOf = (entries: { type: string; actor: string; actorName: string | null }[]) =>
      entries.filter((e) => e.type === 'split.approval.recorded').map(({ actor, actorName }) => ({ actor, actorName }));
    expect(approvalsOf(dataOf(await history(world.enterprise.sessionToken), 200))).toEqual([
      { actor: `user:${fin1.userId}`, actorName: fin1.email },
      { actor: `user:${fin2.userId}`, actorName: fin2.email },
    ]);
    expect(approvalsOf(dataOf(await history(world.sme.sessionToken), 200))).toEqual([
      { actor: 'enterprise', actorName: null },
      { actor: 'enterprise', actorName: null },
    ]);
  });

  it('refuses a member of the SME, even one that is also a finance member of the enterprise', async () => {
    const both = await invitedMember(app, world.enterprise.sessionToken, 'finance', world.sme.email);
    const split = await bigSplit();
    const refused = await approve(both, split);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(errorEnvelope('SPLIT_APPROVER_FROM_SME'));
    expect(await splitEventTypes(app, split.id)).toEqual(['split.created']);
  });

  it('a viewer or developer of the enterprise cannot approve (ROLE_FORBIDDEN)', async () => {
    const viewer = await invitedMember(app, world.enterprise.sessionToken, 'viewer');
    const split = await bigSplit();
    expect((await approve(viewer, split)).body).toEqual(errorEnvelope('ROLE_FORBIDDEN'));
  });

  it('a roster revision between the two approvals clears the first', async () => {
    const split = await bigSplit();
    dataOf(await approve(fin1, split), 200);
    const revised = dataOf(
      await app.request('PUT', `/api/commerce/integration/splits/${split.id}/roster`, { token: world.sme.apiKey, body: { roster: [creatorRow(world.creator, '90000')] } }),
      200,
    );
    expect(revised).toMatchObject({ revision: 2, approvals: [], approvalsRequired: 2, status: 'PENDING_APPROVAL' });
    const afterRevision = dataOf(await approve(fin2, revised), 200);
    expect(afterRevision).toMatchObject({ status: 'PENDING_APPROVAL', approvals: [{ approvedBy: `user:${fin2.userId}` }] });
    const last = dataOf(await approve(fin1, revised), 200);
    expect(['APPROVED', 'FUNDED']).toContain(last.status);
  });

  it('at or below the policy amount one approval is enough, as before', async () => {
    const split = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [creatorRow(world.creator, '50000')] }));
    expect(split.approvalsRequired).toBe(1);
    expect(['APPROVED', 'FUNDED']).toContain(dataOf(await approve(fin1, split), 200).status);
  });

  it('auto-accept applies up to its cap; a Split above it waits for people', async () => {
    dataOf(
      await app.request('PUT', `/api/commerce/split-settings/sme/${world.sme.companyId}`, { token: world.enterprise.sessionToken, body: { autoAccept: true, coverFees: false } }),
      200,
    );
    dataOf(
      await app.request('PUT', '/api/commerce/approval-policy', {
        token: world.enterprise.sessionToken,
        body: { smeCompanyId: world.sme.companyId, requiredApprovals: 1, aboveAmountCents: '0', autoAcceptCapCents: '10000' },
      }),
      200,
    );
    const small = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [creatorRow(world.creator, '10000')] }));
    expect(small.status).not.toBe('PENDING_APPROVAL');
    const large = await createdSplit(app, world.sme.apiKey, splitBody(world, { roster: [creatorRow(world.creator, '10001')] }));
    expect(large.status).toBe('PENDING_APPROVAL');
    expect(['APPROVED', 'FUNDED']).toContain(dataOf(await approve(fin1, large), 200).status);
    const policies = dataOf(await app.request('GET', '/api/commerce/approval-policy', { token: world.enterprise.sessionToken }), 200);
    expect(policies).toHaveLength(2);
  });
});
