import { Inject, Injectable } from '@nestjs/common';
import { REAL_CLOCK, Clock } from '../../platform/clock/clock';
import { normalizeEmail } from '../../platform/domain/email';
import { sha256Hex } from '../../platform/ids/ids';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { RateLimitedError } from '../domain/identity.errors';
import { expiresIn } from './tokens';

/** Per account (by email, known or not): failed sign-in attempts in the current window. */
export const LOGIN_ATTEMPTS_BY_ACCOUNT = 'login_attempts_account';
/** Per client IP: failed sign-in attempts in the current window, whatever the email. */
export const LOGIN_ATTEMPTS_BY_IP = 'login_attempts_ip';
export const LOGIN_ATTEMPTS_PER_ACCOUNT = 10;
export const LOGIN_ATTEMPTS_PER_IP = 100;
export const LOGIN_WINDOW_SECONDS = 900;

/**
 * Limits password guessing: failed sign-ins count against the account's allowance (10 per 15 minutes)
 * and the client IP's (100 per 15 minutes); a right password does not (issue 24: a busy integration that
 * signs in often must not lock its own account). To keep the count atomic under concurrent guesses, each
 * attempt takes a use first (`useAllowance`, as for magic-link requests: concurrent guesses can never
 * check more passwords than the allowance) and a sign-in that succeeds gives both uses back
 * (`returnAllowance`). An attempt over either allowance is 429 RATE_LIMITED with Retry-After, the
 * seconds until that window ends, before any password is checked; an unknown email is counted like a
 * known one, so the limit says nothing about whether an account exists. The client IP is the TCP peer
 * unless TRUST_PROXY names the proxies whose X-Forwarded-For is believed. Emails are stored as SHA-256
 * hashes; windows run on real time.
 */
@Injectable()
export class LoginAttempts {
  constructor(
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(REAL_CLOCK) private readonly clock: Clock,
  ) {}

  /** Takes one use of both allowances for this attempt (429 when either is used up). */
  async count(email: string, clientIp: string): Promise<void> {
    await this.use(LOGIN_ATTEMPTS_BY_IP, sha256Hex(clientIp), LOGIN_ATTEMPTS_PER_IP);
    await this.use(LOGIN_ATTEMPTS_BY_ACCOUNT, sha256Hex(normalizeEmail(email)), LOGIN_ATTEMPTS_PER_ACCOUNT);
  }

  /** The attempt signed in: it was not a failure, so its uses are given back. */
  async succeeded(email: string, clientIp: string): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.store.returnAllowance(LOGIN_ATTEMPTS_BY_ACCOUNT, sha256Hex(normalizeEmail(email)), now);
    await this.store.returnAllowance(LOGIN_ATTEMPTS_BY_IP, sha256Hex(clientIp), now);
  }

  private async use(collection: string, id: string, allowance: number): Promise<void> {
    const now = this.clock.now();
    if (await this.store.useAllowance(collection, id, allowance, now.toISOString(), expiresIn(this.clock, LOGIN_WINDOW_SECONDS))) return;
    const window = await this.store.getOperational<{ id: string; expiresAt: string }>(collection, id);
    const endsInMs = window ? Date.parse(window.expiresAt) - now.getTime() : LOGIN_WINDOW_SECONDS * 1000;
    throw new RateLimitedError(Math.max(1, Math.ceil(endsInMs / 1000)));
  }
}
