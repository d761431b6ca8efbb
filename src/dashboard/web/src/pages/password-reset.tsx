import { useRef, useState } from 'react';
import { api, ApiError, data } from '../api/client';
import { Button, ErrorAlert, Field } from '../components/ui';
import { Link, useLocation } from '../lib/router';
import { AuthCard, useSubmit } from './auth';

/** The signup's rule (POST /api/auth/signup and /api/auth/password/reset: 8 to 200 characters), said in words before the API is asked. */
const MIN_PASSWORD = 8;

const backToSignIn = (
  <>
    Remembered it? <Link to="/login">Sign in</Link>
  </>
);

/**
 * Issue 29 item 9: forgot password. POST /api/auth/password/forgot always answers 202 the same way, so the page
 * says the same whatever the address: it never tells whether the email has an account.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSubmit(async () => {
    await data(api.POST('/api/auth/password/forgot', { body: { email } }));
    setSentTo(email);
  });
  if (sentTo)
    return (
      <AuthCard title="Check your email" lede="Open the link in the message to choose a new password." foot={backToSignIn}>
        <div className="alert success" role="status">
          If {sentTo} has a Paysplit account, a link to reset its password is on its way. It works once, for 1 hour.
        </div>
        <p className="muted small">Contractors paid through Paysplit have no password: they get a sign-in link instead.</p>
      </AuthCard>
    );
  return (
    <AuthCard title="Forgot your password?" lede="Enter the email you sign in with. We will email you a link to choose a new password." foot={backToSignIn}>
      {form.error && Object.keys(form.fields).length === 0 ? <ErrorAlert error={form.error} /> : null}
      <form className="form" onSubmit={(e) => void form.submit(e)} noValidate>
        <Field label="Email" error={form.fields.email ? 'Enter an email address, like name@company.com.' : undefined}>
          {(p) => <input {...p} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />}
        </Field>
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Email me a reset link
        </Button>
      </form>
    </AuthCard>
  );
}

/**
 * The emailed link's page: a new password for the account (POST /api/auth/password/reset). The token is single
 * use, so it leaves the address bar at once (like the sign-in link's page); after the reset every session of the
 * account has ended, and the person signs in with the new password.
 */
export function ResetPasswordPage() {
  const { query } = useLocation();
  const token = useRef(query.get('token') ?? '');
  const dropped = useRef(false);
  if (!dropped.current) {
    dropped.current = true;
    if (token.current) window.history.replaceState(null, '', '/dashboard/reset-password');
  }
  const [password, setPassword] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const [done, setDone] = useState(false);
  const form = useSubmit(async () => {
    if (password.length < MIN_PASSWORD) return setTooShort(true);
    setTooShort(false);
    await data(api.POST('/api/auth/password/reset', { body: { token: token.current, password } }));
    setDone(true);
  });
  if (done)
    return (
      <AuthCard title="Password changed" lede="Every session of this account was signed out, this browser's too. Sign in with your new password.">
        <div className="alert success" role="status">
          Your password was changed.
        </div>
        <Link className="btn btn-primary btn-block" to="/login">
          Sign in
        </Link>
      </AuthCard>
    );
  const dead = form.error instanceof ApiError && form.error.code === 'PASSWORD_RESET_INVALID';
  if (dead || !token.current)
    return (
      <AuthCard title="This link no longer works" lede="Reset links work once and expire after 1 hour.">
        <div className="alert error" role="alert">
          {dead ? form.error!.message : 'This page needs the link from the reset email.'}
          {dead ? <span className="small muted"> (PASSWORD_RESET_INVALID)</span> : null}
        </div>
        <Link className="btn btn-primary btn-block" to="/forgot-password">
          Email me a new link
        </Link>
        <p className="switch">{backToSignIn}</p>
      </AuthCard>
    );
  return (
    <AuthCard title="Choose a new password" lede="After the change, every session of your account is signed out." foot={backToSignIn}>
      {form.error && Object.keys(form.fields).length === 0 ? <ErrorAlert error={form.error} /> : null}
      <form className="form" onSubmit={(e) => void form.submit(e)} noValidate>
        <Field label="New password" error={tooShort || form.fields.password ? `Use at least ${MIN_PASSWORD} characters.` : undefined} hint={`At least ${MIN_PASSWORD} characters.`}>
          {(p) => (
            <input {...p} type="password" autoComplete="new-password" required value={password} onChange={(e) => (setPassword(e.target.value), setTooShort(false))} autoFocus />
          )}
        </Field>
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
