import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export class AdvanceClockRequestDto {
  @ApiProperty({ example: 86400, description: 'Whole seconds to move the sandbox clock forward (at most 400 days)' })
  @IsInt()
  @Min(1)
  @Max(400 * 86400)
  seconds!: number;
}
