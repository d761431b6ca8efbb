import { againstMongo } from './mongo-contract';
import { operationalStoreContract } from './operational-store.contract';

againstMongo('OperationalStore', operationalStoreContract);
