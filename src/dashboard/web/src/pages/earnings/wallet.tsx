import { useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../../api/client';
import type { components } from '../../api/schema';
import type { Earnings } from '../../api/types';
import { Badge, Button, ErrorAlert, Field, useAction } from '../../components/ui';
import { Time } from '../../lib/format';

type Wallet = NonNullable<Earnings['wallet']>;

/** Issue 29: withdrawals may go to an active wallet the contractor verified, or one a company supplied for it. */
export const walletReady = (wallet: Earnings['wallet']): boolean => Boolean(wallet?.active && (wallet.verified || wallet.source === 'sme'));

/**
 * Issue 29 on the contractor's earnings page: the wallet withdrawals go to, and the contractor adding or changing
 * its own (a 6-digit code is emailed to the wallet; the wallet on file stays until the code is entered).
 */
export function WalletPanel({ wallet, pending, onChanged }: { wallet: Earnings['wallet']; pending: Earnings['pendingWallet']; onChanged: (notice: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const send = useAction(async (walletEmail: string) => {
    await data(api.POST('/api/commerce/me/wallet', { body: { walletEmail } }));
    setCode('');
    setEditing(false);
    onChanged(`We emailed a 6-digit code to ${walletEmail}. Enter it below to use this wallet.`);
  });
  const verify = useAction(async (entered: string) => {
    const verified = await data<components['schemas']['VerifiedWalletDto']>(api.POST('/api/commerce/me/wallet/verify', { body: { code: entered } }));
    setCode('');
    onChanged(`${verified.walletEmail} is verified: your withdrawals go there from now on.`);
  });
  const emailError = send.error instanceof ApiError && send.error.fieldErrors().walletEmail ? 'Enter the email address of your wallet.' : undefined;
  // The service's sentence says how many tries are left (or that a new code is needed).
  const codeError = verify.error instanceof ApiError && verify.error.fieldErrors().code ? verify.error.message : undefined;
  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    void send.run(email.trim());
  };
  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    void verify.run(code.trim());
  };
  return (
    <section className="panel" aria-labelledby="wallet-title">
      <div className="spread" style={{ flexWrap: 'wrap', gap: '0.5rem' }}>
        <h2 id="wallet-title" style={{ margin: 0 }}>
          Wallet
        </h2>
        {editing ? null : (
          <Button
            small
            onClick={() => {
              send.setError(null);
              setEmail(wallet?.source === 'sme' ? wallet.email : '');
              setEditing(true);
            }}
          >
            {wallet ? 'Change wallet' : 'Add a wallet'}
          </Button>
        )}
      </div>
      <WalletOnFile wallet={wallet} pending={pending} />
      {editing ? (
        <form onSubmit={submitEmail} noValidate style={{ marginTop: '0.75rem' }} aria-label="Add a wallet">
          <Field label="Wallet email" error={emailError} hint="We email a 6-digit code there. Your current wallet stays in use until you enter it.">
            {(props) => <input {...props} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />}
          </Field>
          <ErrorAlert error={emailError ? null : send.error} />
          <div className="row">
            <Button type="submit" variant="primary" busy={send.busy} disabled={!email.trim()}>
              Email me a code
            </Button>
            <Button onClick={() => setEditing(false)}>Cancel</Button>
          </div>
        </form>
      ) : null}
      {pending && !editing ? (
        <form onSubmit={submitCode} noValidate style={{ marginTop: '0.75rem' }} aria-label="Verify your wallet" data-testid="pending-wallet">
          <p style={{ margin: '0 0 0.5rem' }}>
            {/* With no wallet yet, the line above already names where the code went. */}
            {wallet ? (
              <>
                A code went to <strong>{pending.email}</strong>. It works until <Time iso={pending.codeExpiresAt} />.
              </>
            ) : (
              <>
                The code works until <Time iso={pending.codeExpiresAt} />.
              </>
            )}
          </p>
          <Field label="Code from the email" error={codeError}>
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              />
            )}
          </Field>
          <ErrorAlert error={codeError ? null : verify.error} />
          <div className="row">
            <Button type="submit" variant="primary" busy={verify.busy} disabled={code.length !== 6}>
              Verify wallet
            </Button>
            <Button busy={send.busy} onClick={() => void send.run(pending.email)}>
              Send a new code
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

function WalletOnFile({ wallet, pending }: { wallet: Wallet | null; pending: Earnings['pendingWallet'] }) {
  // Issue 29: a first wallet waiting for its code is not "no wallet": say where the code went.
  if (!wallet && pending)
    return (
      <p style={{ margin: '0.5rem 0 0', overflowWrap: 'anywhere' }} data-testid="wallet-waiting">
        A code was sent to <strong>{pending.email}</strong> and is waiting: enter it to start using this wallet.
      </p>
    );
  if (!wallet)
    return (
      <p className="muted" style={{ margin: '0.5rem 0 0' }}>
        No wallet on file yet. Add one to withdraw your balance: we email it a code to check it is yours.
      </p>
    );
  return (
    <div style={{ marginTop: '0.5rem' }} data-testid="wallet-on-file">
      <p className="row" style={{ margin: 0, flexWrap: 'wrap' }}>
        <span style={{ overflowWrap: 'anywhere' }}>{wallet.email}</span>
        {wallet.verified ? (
          <Badge tone="good">Verified</Badge>
        ) : wallet.source === 'sme' ? (
          <Badge tone="info">From {wallet.suppliedBy}</Badge>
        ) : (
          <Badge tone="warn">Not verified</Badge>
        )}
        {wallet.active ? null : <Badge tone="bad">Inactive</Badge>}
      </p>
      {wallet.source === 'sme' ? (
        <p className="small muted" style={{ margin: '0.35rem 0 0' }}>
          {wallet.suppliedBy} gave this wallet for you; your withdrawals go there. If it is not yours, change it.
        </p>
      ) : null}
    </div>
  );
}
