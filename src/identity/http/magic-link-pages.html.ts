import { chromeHeader, escapeHtml, htmlPage } from '../../platform/http/html-page';

/**
 * The pages a person sees after clicking a sign-in link in an email (docs/api.md#magic-links). They use
 * the hosted pages' stylesheet; the forms post to the service, so they work without any script.
 */

const HEADER = chromeHeader('sign-in');
const FOOTER = '<footer class="chrome"><span>Paysplit never asks for your password or card number by email.</span></footer>';
const page = (title: string, main: string) => htmlPage(title, main, { bodyAttributes: ' class="full"', header: HEADER, footer: FOOTER });

/**
 * What the link opens: a button, not a sign-in. Mail scanners open every link in a message; if opening
 * it signed in, a scanner would use up the single-use link before its owner.
 */
export function confirmSignInPage(token: string): string {
  return page(
    'Sign in to Paysplit',
    `<h1>Sign in to Paysplit</h1>
<p>You opened a sign-in link from your email. Continue to sign in on this device.</p>
<form method="post" action="/api/auth/magic-link/sign-in"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Sign in</button></form>
<p class="note">If you did not ask to sign in, close this page: nothing happens until you press the button.</p>`,
  );
}

export function signedInPage(next: { href: string; label: string }): string {
  return page(
    'Signed in to Paysplit',
    `<h1 class="done">You are signed in</h1>
<p role="status">Your Paysplit session is open in this browser. The sign-in link cannot be used again.</p>
<a class="button" href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a>`,
  );
}

/** The link is unknown, expired or used: say so, and offer a new one by email. */
export function linkNotValidPage(): string {
  return page(
    'Sign-in link not valid',
    `<h1>This sign-in link does not work any more</h1>
<p role="status">It has expired or was already used. Sign-in links work once, for a limited time.</p>
<form method="post" action="/api/auth/magic-link">
<label for="email">Your email address</label>
<input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint">
<p class="note" id="email-hint">We will email you a new sign-in link.</p>
<button type="submit">Email me a new link</button></form>`,
  );
}

/** After asking for a new link (the answer never says whether the email has an account). */
export function linkRequestedPage(): string {
  return page(
    'Check your email',
    `<h1>Check your email</h1>
<p role="status">If this email address has a Paysplit account that signs in by link, a new sign-in link is on its way. It works once.</p>`,
  );
}
