import { ApiProperty } from '@nestjs/swagger';

export class ClockDto {
  @ApiProperty({ example: '2026-11-25T01:30:29.381Z', description: 'Sandbox time' }) now!: string;
}
