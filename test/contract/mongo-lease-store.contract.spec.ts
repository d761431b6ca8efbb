import { againstMongo } from './mongo-contract';
import { leaseStoreContract } from './lease-store.contract';

againstMongo('LeaseStore', leaseStoreContract);
