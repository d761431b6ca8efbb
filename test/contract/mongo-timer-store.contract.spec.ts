import { againstMongo } from './mongo-contract';
import { timerStoreContract } from './timer-store.contract';

againstMongo('TimerStore', timerStoreContract);
