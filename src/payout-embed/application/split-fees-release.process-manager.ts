import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { splitFeesReleaseWorkflow } from './split-fees-release.workflow';

@Injectable()
@LogSubscriber()
export class SplitFeesReleaseProcessManager extends WorkflowProcessor<null> {
  constructor(runtime: WorkflowRuntime) {
    super(splitFeesReleaseWorkflow, runtime);
  }
}
