import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, CurrentPrincipal, FINANCE, type Principal, Roles, SessionAuth } from '../../identity';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { WalletCodeExpiredError, WalletCodeInvalidError, WalletCodeLimitError } from '../domain/contractor-wallet.errors';
import { SendWalletCodeMessage } from '../application/send-wallet-code.handler';
import { VerifyWalletMessage } from '../application/verify-wallet.handler';
import { AddWalletRequestDto, VerifyWalletRequestDto } from './contractor-wallet.request.dto';
import { WalletCodeSentDto, VerifiedWalletDto } from './contractor-wallet.response.dto';

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** Issue 29: a contractor adds, verifies and changes its own wallet (docs/earnings.md#the-contractors-own-wallet). */
@ApiTags('earnings')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/me/wallet')
export class ContractorWalletController {
  constructor(private readonly commands: CommandBus) {}

  @ApiData(WalletCodeSentDto)
  @ApiErrors(WalletCodeLimitError)
  @Post()
  @HttpCode(202)
  @Roles(...FINANCE)
  @ApiOperation({
    summary:
      'Add or change your wallet: a 6-digit code goes to the wallet email (sandbox: GET /api/sandbox/outbox), valid 10 minutes; the wallet on file stays until the code is entered. 409 WALLET_CODE_LIMIT: one code a minute, or locked after 5 wrong codes',
  })
  add(@Body() body: AddWalletRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    return this.commands.execute(new SendWalletCodeMessage(principal.userId, body.walletEmail, commandContext(request, principal)));
  }

  @ApiData(VerifiedWalletDto)
  @ApiErrors(WalletCodeInvalidError, WalletCodeExpiredError, WalletCodeLimitError)
  @Post('verify')
  @HttpCode(200)
  @Roles(...FINANCE)
  @ApiOperation({
    summary:
      'Enter the code: the wallet becomes the one withdrawals go to (withdrawals already requested keep theirs). 422 WALLET_CODE_INVALID (attempts left in details), WALLET_CODE_EXPIRED; 409 WALLET_CODE_LIMIT after 5 wrong codes (15 minutes)',
  })
  verify(@Body() body: VerifyWalletRequestDto, @CurrentPrincipal() principal: SessionPrincipal, @Req() request: FastifyRequest) {
    return this.commands.execute(new VerifyWalletMessage(principal.userId, body.code, commandContext(request, principal)));
  }
}
