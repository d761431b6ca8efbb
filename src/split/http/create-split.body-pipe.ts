import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { arrayMaxSize, arrayMinSize, isBoolean, isEmail, isObject, isString, matches, maxLength, minLength } from 'class-validator';
import { createValidationPipe } from '../../platform/http/validation';
import { CreateSplitRequestDto, MINOR_UNITS, RosterRowDto } from './split.request.dto';

/**
 * The checked body. A type, not the DTO class: TypeScript records a type's metadata as `Object`, and the
 * global ValidationPipe skips `Object` parameters, so this pipe alone checks the body (as
 * CreateCheckoutBodyPipe does).
 */
export type CreateSplitBody = Pick<CreateSplitRequestDto, keyof CreateSplitRequestDto>;

const BODY_FIELDS = new Set(['roster', 'totalAmountCents', 'enterpriseCompanyId', 'apContactBusinessProfileId', 'clientIdempotencyKey']);
const ROW_FIELDS = new Set(['amountCents', 'earlyPayoutElected', 'autoWithdrawElected', 'businessCoversFee', 'contractorPaymentProfileId', 'subVendorId', 'email', 'fullName']);
const ROW_BOOLEANS = ['earlyPayoutElected', 'autoWithdrawElected', 'businessCoversFee'] as const;

const text = (value: unknown, min: number, max: number): boolean => isString(value) && minLength(value, min) && maxLength(value, max);
const minorUnits = (value: unknown): boolean => isString(value) && matches(value, MINOR_UNITS);
/** Absent (a field sent as null takes the slow path: class-validator's IsOptional treats it as absent). */
const absent = (value: unknown): boolean => value === undefined;

/**
 * The create-Split body, checked with class-validator's own rule functions (the DTO's decorators, one
 * by one) instead of the decorator walk: in a CPU profile of `npm run bench -- split` the
 * ValidationPipe (class-transformer + class-validator over 10 nested rows) took about 8% of the API
 * process. A body that passes every rule is answered as the plain object it is; anything else (a bad
 * field, an unknown field, a null) goes through the global ValidationPipe on the DTO, so every 400 keeps
 * the exact envelope, field paths and messages it had. This check may only ever be stricter than the
 * DTO, never looser: create-split.body-pipe.spec.ts compares both on bodies breaking each rule.
 */
@Injectable()
export class CreateSplitBodyPipe implements PipeTransform<unknown, Promise<CreateSplitBody>> {
  private readonly dto = createValidationPipe();

  async transform(body: unknown, metadata: ArgumentMetadata): Promise<CreateSplitBody> {
    if (passes(body)) return body;
    return (await this.dto.transform(body, { ...metadata, metatype: CreateSplitRequestDto })) as CreateSplitBody;
  }
}

/** A plain JSON object: what JSON.parse makes (a class instance or anything else takes the slow path). */
const plainObject = (value: unknown): value is Record<string, unknown> => isObject(value) && Object.getPrototypeOf(value) === Object.prototype;

function passes(body: unknown): body is CreateSplitBody {
  if (!plainObject(body)) return false;
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!BODY_FIELDS.has(key)) return false;
  if (!text(fields.enterpriseCompanyId, 1, 100) || !text(fields.apContactBusinessProfileId, 1, 100) || !text(fields.clientIdempotencyKey, 1, 255)) return false;
  if (!absent(fields.totalAmountCents) && !minorUnits(fields.totalAmountCents)) return false;
  const roster = fields.roster;
  if (!arrayMinSize(roster, 1) || !arrayMaxSize(roster, 50)) return false;
  return (roster as unknown[]).every(rowPasses);
}

function rowPasses(row: unknown): row is RosterRowDto {
  if (!plainObject(row)) return false;
  const fields = row as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!ROW_FIELDS.has(key)) return false;
  if (!minorUnits(fields.amountCents)) return false;
  for (const flag of ROW_BOOLEANS) if (!absent(fields[flag]) && !isBoolean(fields[flag])) return false;
  if (!absent(fields.contractorPaymentProfileId) && !text(fields.contractorPaymentProfileId, 1, 100)) return false;
  if (!absent(fields.subVendorId) && !text(fields.subVendorId, 1, 100)) return false;
  if (!absent(fields.email) && !(isEmail(fields.email) && maxLength(fields.email, 254))) return false;
  return absent(fields.fullName) || text(fields.fullName, 1, 200);
}
