import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { contractorWithdrawalsWorkflow } from './contractor-withdrawals.workflow';

@Injectable()
@LogSubscriber()
export class ContractorWithdrawalsProcessManager extends WorkflowProcessor<void> {
  constructor(runtime: WorkflowRuntime) {
    super(contractorWithdrawalsWorkflow, runtime);
  }
}
