import { ApiProperty } from '@nestjs/swagger';

export class ClockDto {
  @ApiProperty({ example: '2026-11-25T01:30:29.381Z', description: 'Sandbox time' }) now!: string;
  @ApiProperty({
    example: 86_400,
    description: 'How far the sandbox clock is ahead of real time, in whole seconds (0 until advanced); the dashboard shows it in its sandbox banner',
  })
  offsetSeconds!: number;
}
