import { Module } from '@nestjs/common';
import { DashboardController } from './http/dashboard.controller';

/** The web app at /dashboard (DESIGN.md section 12): static files only; everything it shows comes from the documented API. */
@Module({ controllers: [DashboardController] })
export class DashboardModule {}
