import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CurrentPrincipal, type Principal, SessionAuth } from '../../identity';
import { ApiData } from '../../platform/http/openapi';
import { MAX_PAGE_SIZE } from '../../platform/http/pagination';
import { ActivityQuery } from '../application/activity.query';
import { ActivityEntryDto } from './activity.response.dto';

export class ActivityQueryDto {
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

@ApiTags('activity')
@ApiBearerAuth()
@SessionAuth()
@Controller('api/commerce/activity')
export class ActivityController {
  constructor(private readonly activity: ActivityQuery) {}

  @ApiData(ActivityEntryDto, { isArray: true })
  @Get()
  @ApiOperation({ summary: "The caller company's recent activity, newest first: [{type, occurredAt, summary, resource:{kind,id}}] (limit 1..100, default 20)" })
  recent(@Query() query: ActivityQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.activity.recent(principal.companyId, query.limit ?? 20);
  }
}
