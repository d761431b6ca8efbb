import { Injectable } from '@nestjs/common';
import { LogSubscriber, TimerHandlers } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { SessionState } from '../domain/payout-embed-session.decider';
import { payoutEmbedLifecycleWorkflow } from './payout-embed-lifecycle.workflow';

@Injectable()
@LogSubscriber()
@TimerHandlers()
export class PayoutEmbedLifecycleProcessManager extends WorkflowProcessor<SessionState> {
  constructor(runtime: WorkflowRuntime) {
    super(payoutEmbedLifecycleWorkflow, runtime);
  }
}
