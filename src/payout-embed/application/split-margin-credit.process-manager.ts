import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { splitMarginCreditWorkflow } from './split-margin-credit.workflow';

@Injectable()
@LogSubscriber()
export class SplitMarginCreditProcessManager extends WorkflowProcessor<null> {
  constructor(runtime: WorkflowRuntime) {
    super(splitMarginCreditWorkflow, runtime);
  }
}
