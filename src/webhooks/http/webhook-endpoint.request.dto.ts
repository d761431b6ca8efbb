import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../../platform/http/pagination';
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
}
