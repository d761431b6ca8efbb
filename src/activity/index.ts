// Public API of the activity module: its Nest module.
export { ActivityModule } from './activity.module';
