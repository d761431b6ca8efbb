import { Body, Controller, Get, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData, ApiErrors } from '../../platform/http/openapi';
import { CreatorAlreadyExistsError } from '../domain/parties.errors';
import { OutboxMessageDto, SandboxCreatorDto } from './parties.response.dto';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { commandContext, Public } from '../../identity';
import { MagicLinks } from '../../identity';
import { CreateSandboxCreatorMessage } from '../application/create-sandbox-creator.handler';
import { CreateSandboxCreatorRequestDto } from './parties.request.dto';

/** Sandbox-only helpers (mounted when SANDBOX=true). */
@ApiTags('sandbox')
@Public()
@Controller('api/sandbox')
export class SandboxPartiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly magicLinks: MagicLinks,
  ) {}

  @ApiData(SandboxCreatorDto)
  @ApiErrors(CreatorAlreadyExistsError)
  @Post('creators')
  @ApiOperation({ summary: 'Create a creator: account, creator profile, payment profile and optional wallet' })
  createCreator(@Body() body: CreateSandboxCreatorRequestDto, @Req() request: FastifyRequest) {
    return this.commands.execute(
      new CreateSandboxCreatorMessage(
        { fullName: body.fullName, email: body.email, walletEmail: body.walletEmail ?? null, walletVerified: body.walletVerified ?? true, active: body.active ?? true },
        commandContext(request, null),
      ),
    );
  }

  @ApiData(OutboxMessageDto, { isArray: true })
  @Get('outbox')
  @ApiOperation({ summary: 'Messages the service would have emailed (magic links), oldest first' })
  outbox() {
    return this.magicLinks.outbox();
  }
}
