import { Injectable } from '@nestjs/common';
import { LogSubscriber, TimerHandlers } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { CollectionWorkflowState, invoiceCollectionWorkflow } from './invoice-collection.workflow';

@Injectable()
@LogSubscriber()
@TimerHandlers()
export class InvoiceCollectionProcessManager extends WorkflowProcessor<CollectionWorkflowState> {
  constructor(runtime: WorkflowRuntime) {
    super(invoiceCollectionWorkflow, runtime);
  }
}
