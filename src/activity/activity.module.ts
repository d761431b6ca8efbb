import { Module } from '@nestjs/common';
import { ActivityQuery } from './application/activity.query';
import { ActivityController } from './http/activity.controller';
import { ActivityFeedProjection } from './projections/activity-feed.projection';

/** Activity: each company's recent events in words, for the dashboard's Home. Reads other modules' events; nothing reads it. */
@Module({
  controllers: [ActivityController],
  providers: [ActivityQuery, ActivityFeedProjection],
})
export class ActivityModule {}
