import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { CONTRACTOR_WALLET_EVENT_TYPES, CONTRACTOR_WALLET_STREAM_PREFIX, ContractorWalletEvent } from '../domain/contractor-wallet.events';

/** Issue 29: a person's own wallet (keyed by its userId): the verified one on file and the one waiting for its code. */
export interface ContractorWalletDoc {
  id: string;
  email: string | null;
  verifiedAt: string | null;
  pendingEmail: string | null;
  codeExpiresAt: string | null;
}

export const CONTRACTOR_WALLETS = 'contractor_wallets';

@Injectable()
@LogSubscriber()
export class ContractorWalletProjection implements Projection {
  readonly name = 'contractor_wallets';
  readonly streams = [CONTRACTOR_WALLET_STREAM_PREFIX];
  readonly collections = [{ name: CONTRACTOR_WALLETS, readMostly: true }];

  handles(event: RecordedEvent): boolean {
    return CONTRACTOR_WALLET_EVENT_TYPES.has(event.type);
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as ContractorWalletEvent;
    const id = event.data.userId;
    const doc = (await writer.get<ContractorWalletDoc>(CONTRACTOR_WALLETS, id)) ?? { id, email: null, verifiedAt: null, pendingEmail: null, codeExpiresAt: null };
    switch (event.type) {
      case 'contractor_wallet.code_sent':
        writer.put<ContractorWalletDoc>(CONTRACTOR_WALLETS, { ...doc, pendingEmail: event.data.walletEmail, codeExpiresAt: event.data.codeExpiresAt });
        return;
      case 'contractor_wallet.code_rejected':
        if (event.data.lockedUntil) writer.put<ContractorWalletDoc>(CONTRACTOR_WALLETS, { ...doc, pendingEmail: null, codeExpiresAt: null });
        return;
      case 'contractor_wallet.verified':
        writer.put<ContractorWalletDoc>(CONTRACTOR_WALLETS, { id, email: event.data.walletEmail, verifiedAt: event.data.verifiedAt, pendingEmail: null, codeExpiresAt: null });
        return;
    }
  }
}
