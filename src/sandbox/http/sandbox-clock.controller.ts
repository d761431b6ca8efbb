import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity';
import { SandboxClockService } from '../application/sandbox-clock.service';
import { AdvanceClockRequestDto } from './advance-clock.request.dto';

@ApiTags('sandbox')
@Public()
@Controller('api/sandbox/clock')
export class SandboxClockController {
  constructor(private readonly clock: SandboxClockService) {}

  @Get()
  @ApiOperation({ summary: 'Current sandbox time' })
  now() {
    return { now: this.clock.now().toISOString() };
  }

  @Post('advance')
  @HttpCode(200)
  @ApiOperation({ summary: 'Advance the sandbox clock; answers after all work due by the new time has run' })
  async advance(@Body() body: AdvanceClockRequestDto) {
    return { now: (await this.clock.advance(body.seconds)).toISOString() };
  }
}
