import { againstMongo } from './mongo-contract';
import { documentStoreContract } from './document-store.contract';

againstMongo('DocumentStore', documentStoreContract);
