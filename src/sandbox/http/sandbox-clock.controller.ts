import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiData } from '../../platform/http/openapi';
import { ClockDto } from './sandbox-clock.response.dto';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity';
import type { FastifyRequest } from 'fastify';
import { AdvanceSandboxClockMessage } from '../application/advance-sandbox-clock.handler';
import { SandboxClockService } from '../application/sandbox-clock.service';
import { AdvanceClockRequestDto } from './advance-clock.request.dto';

@ApiTags('sandbox')
@Public()
@Controller('api/sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly clock: SandboxClockService,
    private readonly commands: CommandBus,
  ) {}

  @ApiData(ClockDto)
  @Get()
  @ApiOperation({ summary: 'Current sandbox time' })
  now() {
    return { now: this.clock.now().toISOString(), offsetSeconds: this.clock.offsetSeconds() };
  }

  @ApiData(ClockDto)
  @Post('advance')
  @HttpCode(200)
  @ApiOperation({ summary: 'Advance the sandbox clock; answers after all work due by the new time has run' })
  async advance(@Body() body: AdvanceClockRequestDto, @Req() request: FastifyRequest) {
    const now: Date = await this.commands.execute(new AdvanceSandboxClockMessage(body.seconds, request.id));
    return { now: now.toISOString(), offsetSeconds: this.clock.offsetSeconds() };
  }
}
