import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, data } from '../api/client';
import { Logo } from '../components/icons';
import { Button, ErrorAlert, Field, Loading } from '../components/ui';
import { Link, navigate, useLocation } from '../lib/router';

export function AuthCard({ title, lede, children, foot }: { title: string; lede: string; children: ReactNode; foot?: ReactNode }) {
  return (
    <main className="auth">
      <div className="card">
        <div className="brand">
          <Logo /> Paysplit
        </div>
        <h1>{title}</h1>
        <p className="lede">{lede}</p>
        {children}
        {foot ? <p className="switch">{foot}</p> : null}
      </div>
    </main>
  );
}

export function useSubmit(onSubmit: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'UNKNOWN', String(e), null));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit, fields: error?.fieldErrors() ?? {} };
}

export function LoginPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(async () => {
    await data(api.POST('/api/auth/login', { body: { email, password } }));
    await onSignedIn();
    navigate('/', true);
  });
  const wrong = form.error?.status === 401;
  const { query } = useLocation();
  if (query.get('by') === 'link') return <SignInLinkRequest />;
  return (
    <AuthCard
      title="Sign in"
      lede="Manage Splits, payments, API keys and webhooks."
      foot={
        <>
          New to Paysplit? <Link to="/signup">Create an account</Link>
          <br />
          Paid by a company as a contractor? <Link to="/login?by=link">Email me a sign-in link</Link>
        </>
      }
    >
      {form.error && !wrong && Object.keys(form.fields).length === 0 ? <ErrorAlert error={form.error} /> : null}
      {wrong ? (
        <div className="alert error" role="alert">
          That email and password do not match an account.
        </div>
      ) : null}
      <form className="form" onSubmit={(e) => void form.submit(e)} noValidate>
        <Field label="Email" error={form.fields.email}>
          {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />}
        </Field>
        <Field label="Password" error={form.fields.password} hint={<Link to="/forgot-password">Forgot password?</Link>}>
          {(p) => <input {...p} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}

/**
 * Issue 29 item 9: a contractor (an account made for a roster email, no password) asks for a sign-in link here
 * instead of waiting for the company (POST /api/auth/magic-link: always 202, so the page says the same whatever
 * the address).
 */
function SignInLinkRequest() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSubmit(async () => {
    await data(api.POST('/api/auth/magic-link', { body: { email } }));
    setSentTo(email);
  });
  const foot = (
    <>
      Have a password? <Link to="/login">Sign in with it</Link>
    </>
  );
  if (sentTo)
    return (
      <AuthCard title="Check your email" lede="Open the link in the message to sign in." foot={foot}>
        <div className="alert success" role="status">
          If {sentTo} belongs to a contractor account, a sign-in link is on its way. It works once, for 7 days.
        </div>
      </AuthCard>
    );
  return (
    <AuthCard title="Email me a sign-in link" lede="For contractors paid through Paysplit: no password needed." foot={foot}>
      {form.error && Object.keys(form.fields).length === 0 ? <ErrorAlert error={form.error} /> : null}
      <form className="form" onSubmit={(e) => void form.submit(e)} noValidate>
        <Field label="Email" error={form.fields.email} hint="The address the company paid you at.">
          {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />}
        </Field>
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Send me a sign-in link
        </Button>
      </form>
    </AuthCard>
  );
}

export function SignupPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [companyName, setCompanyName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(async () => {
    await data(api.POST('/api/auth/signup', { body: { companyName, email, password } }));
    await onSignedIn();
    navigate('/', true);
  });
  return (
    <AuthCard
      title="Create your account"
      lede="One account for your company: send Splits, approve them, take payments."
      foot={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {form.error && Object.keys(form.fields).length === 0 ? <ErrorAlert error={form.error} /> : null}
      <form className="form" onSubmit={(e) => void form.submit(e)} noValidate>
        <Field label="Company name" error={form.fields.companyName}>
          {(p) => <input {...p} type="text" autoComplete="organization" required value={companyName} onChange={(e) => setCompanyName(e.target.value)} autoFocus />}
        </Field>
        <Field label="Work email" error={form.fields.email}>
          {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Password" error={form.fields.password} hint="At least 8 characters.">
          {(p) => <input {...p} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

/** A contractor's sign-in link opened in the dashboard: redeems the token in a POST body (the API sets the cookie) and opens Earnings. */
export function MagicLinkPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [error, setError] = useState<ApiError | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token is single-use: drop it from the address bar (and history) before using it.
    window.history.replaceState(null, '', '/dashboard/magic-link');
    data(api.POST('/api/auth/magic-link/sign-in', { body: { token } }))
      .then(async () => {
        await onSignedIn();
        // A contractor opens Earnings; a member an invitation signed in to a company opens its Home (issue 30).
        const who = await data<{ kind: string }>(api.GET('/api/auth/me'));
        navigate(who.kind === 'contractor' ? '/earnings' : '/', true);
      })
      .catch((e: unknown) => setError(e instanceof ApiError ? e : new ApiError(0, 'UNKNOWN', String(e), null)));
  }, [token, onSignedIn]);
  if (!error)
    return (
      <AuthCard title="Signing you in" lede="One moment while we check your sign-in link.">
        <Loading label="Signing in" />
      </AuthCard>
    );
  return (
    <AuthCard title="This link no longer works" lede="Sign-in links work once and expire after 7 days.">
      <div className="alert error" role="alert">
        {error.message}
      </div>
      <p className="muted">Ask the company that paid you to send a new link, or sign in with a password if you have one.</p>
      <Link className="btn btn-secondary btn-block" to="/login">
        Go to sign in
      </Link>
    </AuthCard>
  );
}
