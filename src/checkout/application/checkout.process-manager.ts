import { Injectable } from '@nestjs/common';
import { LogSubscriber, TimerHandlers } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { checkoutWorkflow, CheckoutWorkflowState } from './checkout.workflow';

@Injectable()
@LogSubscriber()
@TimerHandlers()
export class CheckoutProcessManager extends WorkflowProcessor<CheckoutWorkflowState> {
  constructor(runtime: WorkflowRuntime) {
    super(checkoutWorkflow, runtime);
  }
}
