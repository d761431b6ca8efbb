import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { COMPANY_STREAM_PREFIX, CompanyApprovalPolicySet } from '../domain/parties.events';

/** An enterprise's approval policy (issue 30): id `<enterpriseCompanyId>:<smeCompanyId>` or `<enterpriseCompanyId>:*` for its default. */
export interface ApprovalPolicyDoc {
  id: string;
  enterpriseCompanyId: string;
  smeCompanyId: string | null;
  requiredApprovals: 1 | 2;
  aboveAmountCents: string;
  autoAcceptCapCents: string | null;
  updatedAt: string;
}

export const APPROVAL_POLICIES = 'approval_policies';
export const approvalPolicyId = (enterpriseCompanyId: string, smeCompanyId: string | null) => `${enterpriseCompanyId}:${smeCompanyId ?? '*'}`;

@Injectable()
@LogSubscriber()
export class ApprovalPolicyProjection implements Projection {
  readonly name = 'approval_policies';
  readonly streams = [COMPANY_STREAM_PREFIX];
  readonly collections = [{ name: APPROVAL_POLICIES, indexes: [['enterpriseCompanyId']], readMostly: true }];

  handles(event: RecordedEvent): boolean {
    return event.type === 'company.approval_policy.set';
  }

  apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const { setAt, ...policy } = (recorded as unknown as CompanyApprovalPolicySet).data;
    writer.put<ApprovalPolicyDoc>(APPROVAL_POLICIES, { id: approvalPolicyId(policy.enterpriseCompanyId, policy.smeCompanyId), ...policy, updatedAt: setAt });
    return Promise.resolve();
  }
}
