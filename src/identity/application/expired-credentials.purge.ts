import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { TimerWorker } from '../../platform/timers/timer-worker';
import { MAGIC_LINK_REQUESTS, MAGIC_LINKS } from './magic-links';
import { SESSIONS } from './sessions.collection';
import { LOGIN_ATTEMPTS_BY_ACCOUNT, LOGIN_ATTEMPTS_BY_IP } from './login-attempts';
import { PASSWORD_RESET_REQUESTS, PASSWORD_RESETS } from './password-resets';
import { CREDENTIAL_CUTOFFS } from './credential-cutoffs';

/**
 * Sessions and magic links are refused once expired, and deleted when someone tries them; the ones
 * nobody tries again are deleted here, once a minute on the process that fires timers, so the
 * operational store does not keep a row per login forever. Ended link-request and login-attempt windows go too, and password reset links and session cutoffs (issue 29).
 */
@Injectable()
export class ExpiredCredentialsPurge implements OnModuleInit {
  constructor(
    private readonly timers: TimerWorker,
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
  ) {}

  onModuleInit(): void {
    for (const collection of [
      SESSIONS,
      MAGIC_LINKS,
      MAGIC_LINK_REQUESTS,
      LOGIN_ATTEMPTS_BY_ACCOUNT,
      LOGIN_ATTEMPTS_BY_IP,
      PASSWORD_RESETS,
      PASSWORD_RESET_REQUESTS,
      CREDENTIAL_CUTOFFS,
    ]) {
      this.timers.addPurge(`expired ${collection}`, (realNowMs, limit) => this.store.purgeExpiredOperational(collection, new Date(realNowMs).toISOString(), limit));
    }
  }
}
