import { DocumentReader } from '../../platform/read-store/document-store.port';
import { CONTRACTOR_WALLETS, ContractorWalletDoc } from '../projections/contractor-wallet.projection';

/** Issue 29: the wallet a person added and verified itself, and the one waiting for its code (null: never asked). */
export const contractorWalletOf = (documents: DocumentReader, userId: string) => documents.get<ContractorWalletDoc>(CONTRACTOR_WALLETS, userId);
