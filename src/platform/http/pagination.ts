import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 100;

/** `?page=`: from 1 (default 1); a list whose `limit` differs from the usual (the enterprise's bills) extends this alone. */
export class PageNumberQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;
}

/** `?page=&limit=`: page from 1 (default 1), limit 1..100 (default 20); anything else is a 400. */
export class PageQueryDto extends PageNumberQueryDto {
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

export function pageOf(query: PageQueryDto): { page: number; limit: number; skip: number } {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  return { page, limit, skip: (page - 1) * limit };
}
