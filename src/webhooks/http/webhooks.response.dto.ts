import { ApiProperty } from '@nestjs/swagger';

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_00mwvg5g0yp5d09beyqa8zmtoa' }) id!: string;
  @ApiProperty({ example: 'https://hooks.example.com/paysplit' }) url!: string;
  @ApiProperty({ type: [String], example: ['split.leg_a.approved'] }) eventTypes!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: 'True until a delivery to it succeeds (docs/webhooks.md)' }) onProbation!: boolean;
  @ApiProperty({ example: '2026-11-25T01:30:24.226Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-25T01:30:24.226Z' }) updatedAt!: string;
}

export class WebhookEndpointDeletedDto {
  @ApiProperty({ example: 'we_00mwvg5g0yp5d09beyqa8zmtoa' }) id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export class WebhookTestResultDto {
  @ApiProperty({ example: 'dlv_21tdledac1izo9qr1b18ied4nb' }) deliveryId!: string;
  @ApiProperty({ example: 1 }) attempt!: number;
  @ApiProperty() succeeded!: boolean;
  @ApiProperty({ nullable: true, type: Number, example: 200 }) responseStatus!: number | null;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ type: WebhookEndpointDto }) endpoint!: WebhookEndpointDto;
}

export class DeliveryAttemptDto {
  @ApiProperty({ example: 1 }) attempt!: number;
  @ApiProperty({ example: '2026-11-25T01:30:24.273Z' }) attemptedAt!: string;
  @ApiProperty() succeeded!: boolean;
  @ApiProperty({ nullable: true, type: Number }) responseStatus!: number | null;
  @ApiProperty({ example: 20 }) latencyMs!: number;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: 'dlv_21tdledac1izo9qr1b18ied4nb' }) id!: string;
  @ApiProperty() endpointId!: string;
  @ApiProperty() companyId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty({ example: 'split.leg_a.approved' }) eventType!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempts!: DeliveryAttemptDto[];
  @ApiProperty({ nullable: true, type: String }) nextAttemptAt!: string | null;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class WebhookSecretDto {
  @ApiProperty({ example: 'whsec_j0YxDRAvflT8_V1A0PDFmL3lohciE9NsnYKO-inKhOs', description: 'Verify X-Paysplit-Signature with it (docs/webhooks.md)' }) secret!: string;
}
