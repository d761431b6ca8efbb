import { given } from '../../../test/support/given-when-then';
import { payoutEmbedSessionDecider as decider, sandboxWalletOutcome } from './payout-embed-session.decider';
import { SessionCreatedData, SessionEvent } from './payout-embed.events';

const T0 = '2026-03-01T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const ref = { sessionId: 'pes_1', companyId: 'co_1', amountCents: '2500', currency: 'USD' };
const data: SessionCreatedData = {
  ...ref,
  recipientEmail: 'ann@example.com',
  recipientName: 'Ann',
  description: 'Prize',
  idempotencyKey: 'k1',
  requestHash: 'hash-1',
  tokenHash: 'token-hash',
  allowedOrigins: ['https://platform.example'],
  returnUrl: null,
  payoutId: 'po_1',
  createdAt: T0,
  expiresAt: at(7 * 86_400),
};

const created: SessionEvent = { type: 'payout_embed.session.created', data };
const create = { type: 'CreateSession' as const, data, metadata: { now: T0, actor: 'usr_1' } };
const codeSent = (seconds = 0, codeHash = 'code-hash'): SessionEvent => ({
  type: 'payout_embed.session.code_sent',
  data: { sessionId: 'pes_1', codeHash, sentAt: at(seconds), codeExpiresAt: at(seconds + 600) },
});
const rejected = (failedAttempts: number, lockedUntil: string | null = null, seconds = 10): SessionEvent => ({
  type: 'payout_embed.session.code_rejected',
  data: { sessionId: 'pes_1', failedAttempts, lockedUntil, rejectedAt: at(seconds) },
});
const claimed: SessionEvent = { type: 'payout_embed.session.claimed', data: { ...ref, claimedAt: at(20) } };
const started = (walletEmail = 'ann@wallet.example'): SessionEvent => ({
  type: 'payout_embed.session.payout_started',
  data: { ...ref, payoutId: 'po_1', walletEmail, startedAt: at(30) },
});
const completed: SessionEvent = { type: 'payout_embed.session.completed', data: { ...ref, payoutId: 'po_1', walletEmail: 'ann@wallet.example', completedAt: at(31) } };
const cancelled: SessionEvent = { type: 'payout_embed.session.cancelled', data: { ...ref, cancelledAt: at(40) } };
const expired: SessionEvent = { type: 'payout_embed.session.expired', data: { ...ref, expiredAt: data.expiresAt } };

describe('Payout Embed session decider', () => {
  describe('create', () => {
    it('creates a session', () => given(decider).when(create).then([created]));
    it('decides nothing for the same request again', () => given(decider, created).when(create).thenNothing());
    it('refuses the same id with another request body', () =>
      given(decider, created)
        .when({ ...create, data: { ...data, requestHash: 'hash-2' } })
        .thenFails('IDEMPOTENCY_KEY_REUSED', (e) => expect(e.kind).toBe('conflict')));
  });

  describe('the two-person rule (issue 30: a session above the threshold is confirmed by a second member)', () => {
    const guarded: SessionEvent = { type: 'payout_embed.session.created', data: { ...data, confirmation: { startedBy: 'user:usr_ann', aboveAmountCents: '1000' } } };
    const confirmed: SessionEvent = { type: 'payout_embed.session.confirmed', data: { sessionId: 'pes_1', companyId: 'co_1', confirmedBy: 'user:usr_bob', confirmedAt: at(5) } };
    const confirmAs = (by: string, seconds = 5) => ({ type: 'Confirm', data: { by }, metadata: { now: at(seconds), actor: 'system' } }) as const;
    it('refuses the person who started it (403 SELF_APPROVAL)', () =>
      given(decider, guarded)
        .when(confirmAs('user:usr_ann'))
        .thenFails('SELF_APPROVAL', (e) => expect(e.kind).toBe('forbidden')));
    it('is confirmed by another member', () => given(decider, guarded).when(confirmAs('user:usr_bob')).then([confirmed]));
    it('decides nothing when confirmed already, or when the session needed no second person', () => {
      given(decider, guarded, confirmed).when(confirmAs('user:usr_carl')).thenNothing();
      given(decider, created).when(confirmAs('user:usr_ann')).thenNothing();
    });
    it('refuses a code (so a claim) until it is confirmed, then sends one', () => {
      given(decider, guarded)
        .when({ type: 'SendCode', data: { codeHash: 'code-hash' }, metadata: { now: at(0), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_AWAITING_CONFIRMATION');
      given(decider, guarded, confirmed)
        .when({ type: 'SendCode', data: { codeHash: 'code-hash' }, metadata: { now: at(6), actor: 'system' } })
        .then([codeSent(6)]);
    });
    it('refuses to confirm a cancelled or expired session', () => {
      const cancelledGuarded: SessionEvent = { type: 'payout_embed.session.cancelled', data: { ...ref, cancelledAt: at(4) } };
      given(decider, guarded, cancelledGuarded).when(confirmAs('user:usr_bob')).thenFails('PAYOUT_EMBED_NOT_CONFIRMABLE');
      given(decider, guarded)
        .when(confirmAs('user:usr_bob', 8 * 86_400))
        .thenFails('PAYOUT_EMBED_NOT_CONFIRMABLE');
    });
  });

  describe('abandon (the reservation timer found no session; issue 23)', () => {
    const abandon = { type: 'Abandon', data: { sessionId: 'pes_1', companyId: 'co_1' }, metadata: { now: at(300), actor: 'system' } } as const;
    const abandoned: SessionEvent = { type: 'payout_embed.session.abandoned', data: { sessionId: 'pes_1', companyId: 'co_1', abandonedAt: at(300) } };
    it('closes a session id no session was written under', () => given(decider).when(abandon).then([abandoned]));
    it('decides nothing when the session was written first: it owns its reservation', () => given(decider, created).when(abandon).thenNothing());
    it('decides nothing when closed already', () => given(decider, abandoned).when(abandon).thenNothing());
    it('refuses a create (a retry of the same key) once the id is closed', () => given(decider, abandoned).when(create).thenFails('PAYOUT_EMBED_RESERVATION_ABANDONED'));
  });

  describe('claim codes', () => {
    it('sends a code valid 10 minutes', () =>
      given(decider, created)
        .when({ type: 'SendCode', data: { codeHash: 'code-hash' }, metadata: { now: at(0), actor: 'system' } })
        .then([codeSent(0)]));
    it('refuses a resend within a minute', () =>
      given(decider, created, codeSent(0))
        .when({ type: 'SendCode', data: { codeHash: 'h2' }, metadata: { now: at(59), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CODE_LIMIT', (e) => expect(e.details[0]).toMatchObject({ retryAt: at(60) })));
    it('resends after a minute', () =>
      given(decider, created, codeSent(0))
        .when({ type: 'SendCode', data: { codeHash: 'h2' }, metadata: { now: at(60), actor: 'system' } })
        .then([codeSent(60, 'h2')]));
    it('sends at most 5 codes', () =>
      given(decider, created, codeSent(0), codeSent(100), codeSent(200), codeSent(300), codeSent(400))
        .when({ type: 'SendCode', data: { codeHash: 'h6' }, metadata: { now: at(1000), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CODE_LIMIT'));
    it('claims with the right code', () =>
      given(decider, created, codeSent(0))
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(20), actor: 'system' } })
        .then([claimed]));
    it('records a wrong code', () =>
      given(decider, created, codeSent(0))
        .when({ type: 'Claim', data: { codeHash: 'wrong' }, metadata: { now: at(10), actor: 'system' } })
        .then([rejected(1)]));
    it('locks for 15 minutes on the fifth wrong code', () =>
      given(decider, created, codeSent(0), rejected(1), rejected(2), rejected(3), rejected(4))
        .when({ type: 'Claim', data: { codeHash: 'wrong' }, metadata: { now: at(10), actor: 'system' } })
        .then([rejected(5, at(10 + 900))]));
    it('refuses even the right code while locked', () =>
      given(decider, created, codeSent(0), rejected(5, at(910)))
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(20), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CLAIM_LOCKED', (e) => expect(e.details[0]).toMatchObject({ lockedUntil: at(910) })));
    it('refuses a new code while locked', () =>
      given(decider, created, codeSent(0), rejected(5, at(910)))
        .when({ type: 'SendCode', data: { codeHash: 'h2' }, metadata: { now: at(900), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CLAIM_LOCKED'));
    it('burns the code with the lock: after it, the old code is refused until a new one is sent', () =>
      given(decider, created, codeSent(0), rejected(5, at(910)))
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(911), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CODE_EXPIRED'));
    it('claims with a new code after the lock', () =>
      given(decider, created, codeSent(0), rejected(5, at(910)), codeSent(911, 'h2'))
        .when({ type: 'Claim', data: { codeHash: 'h2' }, metadata: { now: at(920), actor: 'system' } })
        .then([{ ...claimed, data: { ...ref, claimedAt: at(920) } }]));
    it('refuses a code older than 10 minutes', () =>
      given(decider, created, codeSent(0))
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(600), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CODE_EXPIRED'));
    it('refuses a claim before any code was sent', () =>
      given(decider, created)
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(1), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_CODE_EXPIRED'));
    it('refuses a second claim', () =>
      given(decider, created, codeSent(0), claimed)
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: at(21), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_CLAIMABLE'));
    it('refuses a claim past expiresAt even before the timer fired', () =>
      given(decider, created, codeSent(7 * 86_400 - 10))
        .when({ type: 'Claim', data: { codeHash: 'code-hash' }, metadata: { now: data.expiresAt, actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_CLAIMABLE'));
    it.each([
      ['cancelled', cancelled],
      ['expired', expired],
    ])('refuses codes for a %s session', (_status, ended) =>
      given(decider, created, ended)
        .when({ type: 'SendCode', data: { codeHash: 'h' }, metadata: { now: at(50), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_CLAIMABLE'),
    );
  });

  describe('wallet and payout', () => {
    it('starts the payout when a claimed session names a wallet', () =>
      given(decider, created, codeSent(0), claimed)
        .when({ type: 'NameWallet', data: { walletEmail: 'ann@wallet.example' }, metadata: { now: at(30), actor: 'system' } })
        .then([started()]));
    it('decides nothing for the same wallet again', () =>
      given(decider, created, codeSent(0), claimed, started())
        .when({ type: 'NameWallet', data: { walletEmail: 'ann@wallet.example' }, metadata: { now: at(31), actor: 'system' } })
        .thenNothing());
    it('refuses another wallet once the payout started', () =>
      given(decider, created, codeSent(0), claimed, started())
        .when({ type: 'NameWallet', data: { walletEmail: 'bob@wallet.example' }, metadata: { now: at(31), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_AWAITING_WALLET'));
    it('refuses a wallet before the claim', () =>
      given(decider, created)
        .when({ type: 'NameWallet', data: { walletEmail: 'ann@wallet.example' }, metadata: { now: at(30), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_AWAITING_WALLET'));
    it('completes', () =>
      given(decider, created, claimed, started())
        .when({ type: 'CompletePayout', data: {}, metadata: { now: at(31), actor: 'system' } })
        .then([completed]));
    it('fails with the reason', () =>
      given(decider, created, claimed, started('ann+fail@wallet.example'))
        .when({ type: 'FailPayout', data: { failureReason: 'refused' }, metadata: { now: at(31), actor: 'system' } })
        .then([
          {
            type: 'payout_embed.session.failed',
            data: { ...ref, payoutId: 'po_1', walletEmail: 'ann+fail@wallet.example', failureReason: 'refused', failedAt: at(31) },
          },
        ]));
    it('decides nothing for an outcome already recorded', () =>
      given(decider, created, claimed, started(), completed)
        .when({ type: 'FailPayout', data: { failureReason: 'x' }, metadata: { now: at(32), actor: 'system' } })
        .thenNothing());
    it('refuses an outcome without a payout', () =>
      given(decider, created, claimed)
        .when({ type: 'CompletePayout', data: {}, metadata: { now: at(31), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_PAYOUT_NOT_STARTED'));
  });

  describe('expire and cancel', () => {
    it('expires an unclaimed session at expiresAt', () =>
      given(decider, created)
        .when({ type: 'Expire', data: {}, metadata: { now: data.expiresAt, actor: 'system' } })
        .then([expired]));
    it('expires a claimed session without a wallet', () =>
      given(decider, created, claimed)
        .when({ type: 'Expire', data: {}, metadata: { now: data.expiresAt, actor: 'system' } })
        .then([expired]));
    it('does not expire before expiresAt', () =>
      given(decider, created)
        .when({ type: 'Expire', data: {}, metadata: { now: at(10), actor: 'system' } })
        .thenNothing());
    it('does not expire a session whose payout started', () =>
      given(decider, created, claimed, started())
        .when({ type: 'Expire', data: {}, metadata: { now: data.expiresAt, actor: 'system' } })
        .thenNothing());
    it('does not expire a completed session', () =>
      given(decider, created, claimed, started(), completed)
        .when({ type: 'Expire', data: {}, metadata: { now: data.expiresAt, actor: 'system' } })
        .thenNothing());
    it('cancels a created session', () =>
      given(decider, created)
        .when({ type: 'Cancel', data: {}, metadata: { now: at(40), actor: 'system' } })
        .then([cancelled]));
    it('cancels a claimed session before the payout', () =>
      given(decider, created, claimed)
        .when({ type: 'Cancel', data: {}, metadata: { now: at(40), actor: 'system' } })
        .then([cancelled]));
    it('decides nothing when cancelled again', () =>
      given(decider, created, cancelled)
        .when({ type: 'Cancel', data: {}, metadata: { now: at(41), actor: 'system' } })
        .thenNothing());
    it.each([
      ['completed', [created, claimed, started(), completed]],
      ['payout started', [created, claimed, started()]],
      ['expired', [created, expired]],
    ])('refuses to cancel when %s', (_label, history) =>
      given(decider, ...history)
        .when({ type: 'Cancel', data: {}, metadata: { now: at(50), actor: 'system' } })
        .thenFails('PAYOUT_EMBED_NOT_CANCELLABLE', (e) => expect(e.kind).toBe('conflict')),
    );
  });

  it('the sandbox rail fails wallets with +fail in the local part only', () => {
    expect(sandboxWalletOutcome('ann+fail@wallet.example').ok).toBe(false);
    expect(sandboxWalletOutcome('ann+failure-test@wallet.example').ok).toBe(false);
    expect(sandboxWalletOutcome('ann@fail+wallet.example').ok).toBe(true);
    expect(sandboxWalletOutcome('ann@wallet.example').ok).toBe(true);
  });
});
