// Public API of the dashboard module: the Nest module that serves the web app at /dashboard.
export { DashboardModule } from './dashboard.module';
