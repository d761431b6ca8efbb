import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Outbox } from '../../identity';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { formatAmount } from '../../platform/money/format-amount';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { SubscriptionRenewalDeclined, SubscriptionRenewed, subscriptionStreamId } from '../domain/subscription.events';
import { subscriptionDecider } from '../domain/subscription.decider';
import { subscriptionPageUrl } from './subscription-page-url';

/** A renewal was charged or declined: the buyer is told (issue 29), when the subscription has an email. */
export class SendRenewalEmailMessage {
  constructor(readonly event: SubscriptionRenewed | SubscriptionRenewalDeclined) {}
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * The buyer's renewal mail (the sandbox outbox): after a charged renewal, the amount in its currency, the
 * date charged, the next charge date and the link to cancel; after a declined one, what happens next (the
 * retry date, or the cancellation at the third decline). Each message's id is fixed per renewal period (and
 * attempt, for a decline), so a replayed event or a restarted worker replaces the message, never doubles it
 * (as InvoiceEmails). A subscription without an email sends nothing.
 */
@CommandHandler(SendRenewalEmailMessage)
export class SendRenewalEmailHandler implements ICommandHandler<SendRenewalEmailMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ event }: SendRenewalEmailMessage): Promise<void> {
    const { state: sub } = await this.aggregates.load(subscriptionStreamId(event.data.subscriptionId), subscriptionDecider);
    if (sub.status === 'NONE' || !sub.customerEmail) return;
    const amount = formatAmount(sub.amountMinorUnits, sub.currency);
    const link = subscriptionPageUrl(this.config.hostedCheckoutUrl, sub.subscriptionId);
    const interval = sub.intervalUnit.toLowerCase();
    if (event.type === 'checkout.subscription.renewed') {
      const { periodIndex, at, currentPeriodEnd } = event.data;
      await this.outbox.send({
        id: `mail_${sub.subscriptionId}_renewed_${periodIndex}`,
        to: sub.customerEmail,
        subject: `Your ${interval} subscription renewed: ${amount} charged`,
        body: [
          `${amount} was charged on ${day(at)} to your card ending in ${sub.card.last4} for your ${interval} subscription ${sub.subscriptionId}.`,
          `Next charge: ${amount} on ${day(currentPeriodEnd)}.`,
          `To cancel before then, open ${link}.`,
        ].join('\n'),
        link,
        sentAt: at,
      });
      return;
    }
    const { periodIndex, attempt, at, nextAttemptAt } = event.data;
    const next = nextAttemptAt
      ? `We will try the card again on ${day(nextAttemptAt)}. After three failed charges in a row the subscription is cancelled.`
      : 'This was the third failed charge in a row, so the subscription is cancelled: nothing more will be charged.';
    await this.outbox.send({
      id: `mail_${sub.subscriptionId}_declined_${periodIndex}_${attempt}`,
      to: sub.customerEmail,
      subject: `Your ${interval} subscription renewal of ${amount} failed`,
      body: [`The renewal charge of ${amount} on ${day(at)} to your card ending in ${sub.card.last4} failed.`, next, `Your subscription: ${link}.`].join('\n'),
      link,
      sentAt: at,
    });
  }
}
