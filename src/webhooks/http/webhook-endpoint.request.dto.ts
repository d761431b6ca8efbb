import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '../../platform/http/optional-field';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types';

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
