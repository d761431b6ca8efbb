import { givenWorkflow, NOW, recorded } from '../../../test/support/workflow-given-when-then';
import { createLogger } from '../../platform/logging/app-logger';
import { deterministicId } from '../../platform/ids/ids';
import { EndpointState } from '../domain/company-webhooks.decider';
import { CreateDeliveryMessage } from './create-delivery.handler';
import { webhookDispatcherWorkflow } from './webhook-dispatcher.workflow';
import { companyWebhooksStreamId } from '../domain/webhooks.events';
import { StateReader } from '../../platform/workflows/workflow';
import { DomainEvent } from '../../platform/domain/decider';

const workflow = webhookDispatcherWorkflow(createLogger('silent'));
const endpoint = (endpointId: string, eventTypes: string[], enabled = true): EndpointState => ({
  endpointId,
  url: `https://example.com/${endpointId}`,
  eventTypes,
  enabled,
  onProbation: true,
  createdAt: NOW,
  updatedAt: NOW,
});
const companyWebhooks = (companyId: string, ...endpoints: EndpointState[]) => ({
  companyId,
  webhooks: { endpoints: new Map(endpoints.map((e) => [e.endpointId, e])), sealedSecret: null },
});
const webhooks = (...endpoints: EndpointState[]) => [companyWebhooks('co_sme', ...endpoints)];
const approved = recorded('split.leg_a.approved', { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy: 'usr', autoAccepted: false, approvedAt: NOW }, 'split-spl_1', 'evt-1');
const body = { id: deterministicId('evt', 'evt-1'), type: 'split.leg_a.approved', createdAt: NOW, data: { splitId: 'spl_1', legAPayoutId: 'po_a' } };

describe('webhook dispatcher workflow', () => {
  it('makes one delivery per enabled endpoint subscribed to the event, with ids fixed by event and endpoint', () => {
    givenWorkflow(
      workflow,
      webhooks(
        endpoint('we_1', ['split.leg_a.approved']),
        endpoint('we_2', ['checkout.completed']),
        endpoint('we_3', ['split.leg_a.approved'], false),
        endpoint('we_4', ['split.leg_a.approved', 'split.leg_a.claimed']),
      ),
    )
      .when(approved)
      .then({
        commands: [
          new CreateDeliveryMessage(deterministicId('dlv', 'evt-1', 'we_1'), 'we_1', 'co_sme', body),
          new CreateDeliveryMessage(deterministicId('dlv', 'evt-1', 'we_4'), 'we_4', 'co_sme', body),
        ],
      });
  });

  it('delivers an invoice event to the endpoints of both the SME and the enterprise (issue 27)', () => {
    const paid = recorded(
      'invoice.paid',
      { invoiceId: 'inv_1', splitId: 'spl_1', collectionStatus: 'PAID', smeCompanyId: 'co_sme', enterpriseCompanyId: 'co_ent', currency: 'USD', amountCents: '1000', paidAt: NOW },
      'invoice-inv_1',
      'evt-2',
    );
    const paidBody = {
      id: deterministicId('evt', 'evt-2'),
      type: 'split.invoice.paid',
      createdAt: NOW,
      data: { invoiceId: 'inv_1', splitId: 'spl_1', amountCents: '1000', currency: 'USD' },
    };
    expect(workflow.handles(paid)).toBe(true);
    givenWorkflow(workflow, [companyWebhooks('co_sme', endpoint('we_1', ['split.invoice.paid'])), companyWebhooks('co_ent', endpoint('we_9', ['split.invoice.paid']))])
      .when(paid)
      .then({
        commands: [
          new CreateDeliveryMessage(deterministicId('dlv', 'evt-2', 'we_1'), 'we_1', 'co_sme', paidBody),
          new CreateDeliveryMessage(deterministicId('dlv', 'evt-2', 'we_9'), 'we_9', 'co_ent', paidBody),
        ],
      });
  });

  it('delivers nothing when no company receives the event', () => {
    givenWorkflow(workflow, null).when(approved).thenNothing();
  });

  it('follows only the events that have a public webhook type', () => {
    expect(workflow.handles(approved)).toBe(true);
    expect(workflow.handles(recorded('split.funded', {}))).toBe(false);
  });

  it("reads a Split's owner from its stream once for all of the Split's events, and its company's endpoints every time", async () => {
    const loads: string[] = [];
    const reader: StateReader = {
      load: async <_Event extends DomainEvent, State>(streamId: string): Promise<{ state: State }> => {
        loads.push(streamId);
        const state = streamId.startsWith('split-') ? { status: 'PENDING_APPROVAL', smeCompanyId: 'co_sme' } : companyWebhooks('co_sme').webhooks;
        return { state: state as unknown as State };
      },
    };
    const dispatcher = webhookDispatcherWorkflow(createLogger('silent'));
    const claimed = recorded('split.leg_a.claimed', { splitId: 'spl_1', legAPayoutId: 'po_a' }, 'split-spl_1', 'evt-3');
    for (const event of [approved, claimed]) {
      expect(await dispatcher.load({ kind: 'event', event, now: NOW }, reader)).toEqual([expect.objectContaining({ companyId: 'co_sme' })]);
    }
    expect(loads).toEqual(['split-spl_1', companyWebhooksStreamId('co_sme'), companyWebhooksStreamId('co_sme')]);
  });
});
