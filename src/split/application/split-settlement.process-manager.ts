import { Injectable } from '@nestjs/common';
import { LogSubscriber, TimerHandlers } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { SplitState } from '../domain/split.state';
import { splitSettlementWorkflow } from './split-settlement.workflow';

@Injectable()
@LogSubscriber()
@TimerHandlers()
export class SplitSettlementProcessManager extends WorkflowProcessor<SplitState> {
  constructor(runtime: WorkflowRuntime) {
    super(splitSettlementWorkflow, runtime);
  }
}
