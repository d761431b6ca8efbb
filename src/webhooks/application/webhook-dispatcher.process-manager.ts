import { Inject, Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { AppLogger } from '../../platform/logging/app-logger';
import { LOGGER } from '../../platform/platform.tokens';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { WEBHOOK_DELIVERY_STORE, WebhookDeliveryStore } from './webhook-delivery-store.port';
import { DispatchState, webhookDispatcherWorkflow } from './webhook-dispatcher.workflow';

const REDISPATCH_BATCH = 500;

/**
 * The dispatcher's checkpoint lives in read.db, its deliveries in webhooks.db. Each batch's deliveries
 * are stored before its mark (in webhooks.db) and the mark before the checkpoint, so after any loss of
 * either file's last commits: a checkpoint behind the mark reprocesses events whose deliveries exist
 * (idempotent by delivery id); a checkpoint ahead of the mark re-dispatches the events in between at
 * start, before following the log (issue 31).
 */
@Injectable()
@LogSubscriber()
export class WebhookDispatcherProcessManager extends WorkflowProcessor<DispatchState> {
  constructor(
    runtime: WorkflowRuntime,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(WEBHOOK_DELIVERY_STORE) private readonly deliveries: WebhookDeliveryStore,
  ) {
    super(webhookDispatcherWorkflow(logger), runtime);
  }

  async beforeCheckpoint(checkpoint: number): Promise<void> {
    await this.deliveries.markDispatched(checkpoint);
  }

  async recover(checkpoint: number | null): Promise<void> {
    const mark = await this.deliveries.dispatchedThrough();
    if (checkpoint === null) return;
    if (mark === null) {
      // A delivery store from before marks: nothing to compare with; the checkpoint is trusted once.
      await this.deliveries.markDispatched(checkpoint);
      return;
    }
    if (mark >= checkpoint) return;
    let after = mark;
    let redone = 0;
    for (;;) {
      const batch = (await this.events.readAll({ after, maxCount: REDISPATCH_BATCH, streamPrefixes: this.streams })).filter((event) => event.position <= checkpoint);
      if (batch.length === 0) break;
      for (const event of batch) {
        if (!this.handles(event)) continue;
        await this.process(event, { scheduleTimer: () => this.refuseTimer() });
        redone += 1;
      }
      after = batch[batch.length - 1]!.position;
    }
    if (redone > 0) {
      this.logger.warn({ from: mark, to: checkpoint, events: redone }, 'webhook deliveries behind the dispatcher checkpoint (webhooks.db lost commits): re-dispatched');
    }
    await this.deliveries.markDispatched(checkpoint);
  }

  private refuseTimer(): never {
    throw new Error('the webhook dispatcher schedules no timers');
  }
}
