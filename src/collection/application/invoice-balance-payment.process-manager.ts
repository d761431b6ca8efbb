import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { WorkflowProcessor, WorkflowRuntime } from '../../platform/workflows/workflow-processor';
import { invoiceBalancePaymentWorkflow } from './invoice-balance-payment.workflow';

@Injectable()
@LogSubscriber()
export class InvoiceBalancePaymentProcessManager extends WorkflowProcessor<null> {
  constructor(runtime: WorkflowRuntime) {
    super(invoiceBalancePaymentWorkflow, runtime);
  }
}
