import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { sandboxRailWorkflow } from './sandbox-rail.workflow';

@Injectable()
@LogSubscriber()
export class SandboxRailProcessManager extends WorkflowProcessor<void> {
  constructor(runtime: WorkflowRuntime) {
    super(sandboxRailWorkflow, runtime);
  }
}
