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
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    example: {
      'content-type': 'application/json',
      'user-agent': 'Paysplit-Webhooks/1.0',
      'X-Paysplit-Event': 'split.leg_a.approved',
      'X-Paysplit-Delivery-Id': 'dlv_21tdledac1izo9qr1b18ied4nb',
      'X-Paysplit-Timestamp': '1772442927',
      'X-Paysplit-Signature': '5d41c3b8e0f7a2d94b6e1c08f3a7d2e95b4c1f6a08d3e7b29c5f1a4d6e8b0c3f2',
    },
    description: 'Every header this attempt sent, its X-Paysplit-Timestamp and X-Paysplit-Signature included (recorded with the attempt)',
  })
  requestHeaders!: Record<string, string | null>;
  @ApiProperty({
    type: String,
    example:
      '{"createdAt":"2026-03-02T09:15:27.402Z","data":{"legAPayoutId":"po_00mwq1z8k5h2b9d4f1h6k8m0p3","splitId":"spl_00mwq1z8k3f0a7c2e9g4j6l8n1"},"id":"evt_3k9x0q2m7a1c5v8b4n6z0p2r4t","type":"split.leg_a.approved"}',
    description: 'The canonical JSON body sent, byte for byte',
  })
  requestBody!: string;
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

export class WebhookRecoverResultDto {
  @ApiProperty({ example: 3, description: 'Deliveries sent now: failed ones again (oldest first), then missed events (at most 500 a call; 0 on a dry run)' }) recovered!: number;
  @ApiProperty({ example: 0, description: 'Deliveries of the window left for another call (on a dry run: all that a call would send)' }) remaining!: number;
  @ApiProperty({ example: 3, description: 'Failed deliveries to the endpoint created in the window' }) failed!: number;
  @ApiProperty({ example: null, nullable: true, type: Number, description: 'Events of the window with no delivery to the endpoint (null unless replayMissed)' }) missed!:
    number | null;
  @ApiProperty({ example: false }) dryRun!: boolean;
}

/** A whole delivery body as a receiver gets it. */
export class WebhookDeliveryBodyDto {
  @ApiProperty({ example: 'evt_3k9x0q2m7a1c5v8b4n6z0p2r4t' }) id!: string;
  @ApiProperty({ example: 'split.leg_a.approved' }) type!: string;
  @ApiProperty({ example: '2026-03-02T09:15:27.402Z' }) createdAt!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { splitId: 'spl_00mwq1z8k3f0a7c2e9g4j6l8n1', legAPayoutId: 'po_00mwq1z8k5h2b9d4f1h6k8m0p3' },
    description: 'The fields of this event type (docs/webhooks.md#9-event-catalogue)',
  })
  data!: Record<string, unknown>;
}

/** One entry of the webhook event catalogue (GET /api/commerce/webhooks/event-types). */
export class WebhookEventTypeDto {
  @ApiProperty({ example: 'split.leg_a.approved' }) type!: string;
  @ApiProperty({ description: 'Whether an endpoint may list it in eventTypes (webhook.test is only sent by the test call)' }) subscribable!: boolean;
  @ApiProperty({ example: 'The enterprise approved the Split, manually or by auto-accept.' }) description!: string;
  @ApiProperty({ type: WebhookDeliveryBodyDto, description: 'An example delivery body' }) example!: WebhookDeliveryBodyDto;
}
