import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { SecretBox } from '../../platform/crypto/secret-box';
import { CompanyWebhooksCommand, companyWebhooksDecider, CompanyWebhooksState } from '../domain/company-webhooks.decider';
import { companyWebhooksStreamId } from '../domain/webhooks.events';
import { SECRET_BOX } from './webhook.tokens';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The company's webhook settings, one event-sourced stream: its endpoints and the signing secret (sealed with SECRETS_KEY). */
@Injectable()
export class CompanyWebhooks {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async state(companyId: string): Promise<CompanyWebhooksState> {
    return (await this.aggregates.load(companyWebhooksStreamId(companyId), companyWebhooksDecider)).state;
  }

  run(companyId: string, command: CompanyWebhooksCommand, context: CommandContext) {
    return this.aggregates.handle(companyWebhooksStreamId(companyId), companyWebhooksDecider, command, context);
  }

  /** The current signing secret, created on first use (one per company, shared by its endpoints). */
  async secret(companyId: string, context: CommandContext): Promise<string> {
    const current = await this.state(companyId);
    if (current.sealedSecret) return this.secrets.open(current.sealedSecret);
    const result = await this.run(companyId, this.rotation(companyId, true, context), context);
    return this.secrets.open(result.state.sealedSecret!);
  }

  /** A new secret; the old one stops verifying at once (no grace period: docs/webhooks.md#2-the-signing-secret). */
  async rotate(companyId: string, context: CommandContext): Promise<string> {
    const result = await this.run(companyId, this.rotation(companyId, false, context), context);
    return this.secrets.open(result.state.sealedSecret!);
  }

  open(sealedSecret: string): string {
    return this.secrets.open(sealedSecret);
  }

  private rotation(companyId: string, onlyIfMissing: boolean, context: CommandContext): CompanyWebhooksCommand {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    return { type: 'RotateSecret', data: { companyId, sealedSecret: this.secrets.seal(secret), onlyIfMissing }, metadata: commandMetadata(this.clock, context) };
  }
}
