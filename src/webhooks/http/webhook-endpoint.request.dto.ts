import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_PAGE_SIZE, PageQueryDto } from '../../platform/http/pagination';
import { IsOmittable } from '../../platform/http/optional-field';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types';

export class CreateWebhookEndpointRequestDto {
  @ApiProperty({ example: 'https://merchant.example/webhooks/paysplit', description: 'https only; private and loopback targets are refused' })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['split.leg_a.approved'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: 'each value in eventTypes must be a known event type ($constraint1)' })
  eventTypes!: string[];
}

/** A partial update: a field left out is unchanged; `null` is refused (400), never stored. */
export class UpdateWebhookEndpointRequestDto {
  @ApiPropertyOptional({ description: 'false stops new deliveries (and pending retries) to this endpoint' })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: 'each value in eventTypes must be a known event type ($constraint1)' })
  eventTypes?: string[];

  @ApiPropertyOptional({ example: 'https://merchant.example/webhooks/v2' })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url?: string;
}

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const LISTED_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE];

/** `?status=&eventType=&from=&to=&page=&limit=` of the delivery log; from and to bound the delivery's creation, inclusive. */
export class DeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({ enum: LISTED_EVENT_TYPES })
  @IsOptional()
  @IsIn(LISTED_EVENT_TYPES, { message: 'eventType must be a known event type ($constraint1)' })
  eventType?: string;

  @ApiPropertyOptional({ example: '2026-11-22T00:00:00.000Z', description: 'Only deliveries created at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-23T00:00:00.000Z', description: 'Only deliveries created at or before this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class RecoverDeliveriesRequestDto {
  @ApiProperty({ example: '2026-11-22T00:00:00.000Z', description: 'Redeliver every failed delivery created at or after this time' })
  @IsISO8601({ strict: true })
  since!: string;

  @ApiPropertyOptional({ example: '2026-11-23T00:00:00.000Z', description: 'The window ends at this time, inclusive (default: now)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      "Also send the company's events of the window that have no delivery to this endpoint (it was disabled, not subscribed to their type or not created yet), for the types it subscribes to now",
  })
  @IsOptional()
  @IsBoolean()
  replayMissed?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Count what would be sent and send nothing (allowed while the endpoint is disabled)' })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}

/** `?type=&from=&to=&after=&limit=` of the events API (issue 28). */
export class WebhookEventsQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_TYPES, { message: 'type must be a webhook event type ($constraint1)' })
  type?: string;

  @ApiPropertyOptional({ example: '2026-11-22T00:00:00.000Z', description: 'Only events created at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-23T00:00:00.000Z', description: 'Only events created at or before this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ example: 'evt_3k9x0q2m7a1c5v8b4n6z0p2r4t', description: 'The id of the last event of the previous page: the next page starts after it' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  after?: string;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Events per page; a page shorter than this is the last' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}
