import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { splitReturnCreditWorkflow } from './split-return-credit.workflow';

@Injectable()
@LogSubscriber()
export class SplitReturnCreditProcessManager extends WorkflowProcessor<null> {
  constructor(runtime: WorkflowRuntime) {
    super(splitReturnCreditWorkflow, runtime);
  }
}
