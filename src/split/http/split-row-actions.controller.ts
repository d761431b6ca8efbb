import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuth, ApiKeyOrSessionAuth, commandContext, CurrentPrincipal, FINANCE, type Principal, Roles } from '../../identity';
import { IdempotencyKeyReusedError } from '../../platform/domain/idempotency';
import { IdempotencyKey, IdempotentRoute, OnceByKey } from '../../platform/http/idempotency-key';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { RepointDistributionMessage } from '../application/repoint-distribution.handler';
import { ReverseDistributionMessage } from '../application/reverse-distribution.handler';
import { TakeBackDistributionMessage } from '../application/take-back-distribution.handler';
import {
  DistributionNotFailedError,
  DistributionNotTransferredError,
  RepointContractorTakenError,
  RepointNeedsWalletEmailError,
  ReversalAmountInvalidError,
  ReversalExceedsTransferredError,
} from '../domain/row-reversals.errors';
import { DistributionNotFoundError } from '../domain/split-settlement.errors';
import { SplitContractorNotActiveCreatorError, SplitNotFoundError, SplitSubVendorNotOwnedError } from '../domain/split.errors';
import { SplitViewDto } from './split.response.dto';
import { assertOneContractor, RepointDistributionRequestDto, ReversalViewDto, ReverseDistributionRequestDto } from './split-row-actions.dto';

/**
 * Issue 26: what the SME does with a row after its transfer, by API key (split:write) or from its
 * dashboard session: take back all or part of a transferred row, and re-point or take back a row whose
 * transfer failed for good (docs/api.md#row-reversals, docs/api.md#rows-that-fail-for-good).
 */
@ApiTags('splits')
@ApiBearerAuth()
@ApiKeyAuth('split:write')
@Controller('api/commerce/integration/splits')
export class SplitRowActionsController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(ReversalViewDto, { replayed: true })
  @ApiErrors(SplitNotFoundError, DistributionNotFoundError, DistributionNotTransferredError, ReversalAmountInvalidError, ReversalExceedsTransferredError, IdempotencyKeyReusedError)
  @IdempotentRoute()
  @Post(':id/distributions/:distributionId/reversals')
  @Roles(...FINANCE)
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({
    summary:
      "Take back all or part of a transferred row (201; the same idempotencyKey and request replay it, 200): from the contractor's service balance to the SME's balance, what the contractor already withdrew becoming what it owes",
  })
  async reverse(
    @Param('id') id: string,
    @Param('distributionId') distributionId: string,
    @Body() body: ReverseDistributionRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() once: OnceByKey,
  ) {
    return once(async () => {
      const { reversal, replayed } = await this.commands.execute(
        new ReverseDistributionMessage(
          principal.companyId,
          id,
          distributionId,
          { amountCents: body.amountCents, reason: body.reason, refundFee: body.refundFee ?? false, idempotencyKey: body.idempotencyKey },
          commandContext(request, principal),
        ),
      );
      if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
      return reversal;
    });
  }

  @ApiBody({
    type: RepointDistributionRequestDto,
    examples: {
      subVendor: { summary: 'A vendor of your roster', value: { subVendorId: 'sv_00mwr6hxgj5js1svb6psf8f470' } },
      creator: { summary: 'An active creator', value: { contractorPaymentProfileId: 'cpp_00mwr6hxgj5js1svb6psf8f470' } },
    },
  })
  @ApiData(SplitViewDto)
  @ApiErrors(
    SplitNotFoundError,
    DistributionNotFoundError,
    DistributionNotFailedError,
    RepointContractorTakenError,
    RepointNeedsWalletEmailError,
    SplitContractorNotActiveCreatorError,
    SplitSubVendorNotOwnedError,
  )
  @Post(':id/distributions/:distributionId/repoint')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({ summary: 'Point a row whose transfer failed for good at another contractor (an active creator or a vendor of your roster); its transfer starts again' })
  repoint(
    @Param('id') id: string,
    @Param('distributionId') distributionId: string,
    @Body() body: RepointDistributionRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ) {
    assertOneContractor(body);
    return this.commands.execute(new RepointDistributionMessage(principal.companyId, id, distributionId, body, commandContext(request, principal)));
  }

  @ApiData(SplitViewDto)
  @ApiErrors(SplitNotFoundError, DistributionNotFoundError, DistributionNotFailedError)
  @Post(':id/distributions/:distributionId/take-back')
  @Roles(...FINANCE)
  @HttpCode(200)
  @ApiKeyOrSessionAuth('split:write')
  @ApiOperation({ summary: 'Take a row whose transfer failed for good back: its amount stays in your balance, owed to nobody; the Split settles once every other row is done' })
  takeBack(@Param('id') id: string, @Param('distributionId') distributionId: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.commands.execute(new TakeBackDistributionMessage(principal.companyId, id, distributionId, commandContext(request, principal)));
  }
}
