import { Inject, Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { AppLogger } from '../../platform/logging/app-logger';
import { LOGGER } from '../../platform/platform.tokens';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { DispatchState, webhookDispatcherWorkflow } from './webhook-dispatcher.workflow';

@Injectable()
@LogSubscriber()
export class WebhookDispatcherProcessManager extends WorkflowProcessor<DispatchState> {
  constructor(runtime: WorkflowRuntime, @Inject(LOGGER) logger: AppLogger) {
    super(webhookDispatcherWorkflow(logger), runtime);
  }
}
