import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { Provider } from '../domain/checkout.events';
import { PAYMENT_PROCESSORS, PaymentProcessors } from '../domain/payment-processor.port';

/**
 * An order recorded a captured charge as void (`checkout.order.charge_voided`): the processor gives it back,
 * by the attempt id it was taken under. Voiding again changes nothing, so the workflow may repeat it.
 */
export class VoidChargeMessage {
  constructor(
    readonly provider: Provider,
    readonly attemptId: string,
  ) {}
}

@CommandHandler(VoidChargeMessage)
export class VoidChargeHandler implements ICommandHandler<VoidChargeMessage> {
  constructor(
    @Inject(PAYMENT_PROCESSORS) private readonly processors: PaymentProcessors,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ provider, attemptId }: VoidChargeMessage): Promise<void> {
    await this.processors.for(provider).voidCharge(attemptId, this.clock.now().toISOString());
  }
}
