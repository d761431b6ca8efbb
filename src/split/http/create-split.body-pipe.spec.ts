import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../../platform/http/validation';
import { CreateSplitBodyPipe } from './create-split.body-pipe';
import { CreateSplitRequestDto } from './split.request.dto';

const METADATA: ArgumentMetadata = { type: 'body', metatype: Object, data: undefined };

const row = (fields: Record<string, unknown> = {}) => ({ subVendorId: 'sv_1', amountCents: '12500', ...fields });
const valid = (fields: Record<string, unknown> = {}) => ({
  enterpriseCompanyId: 'co_1',
  apContactBusinessProfileId: 'bp_1',
  clientIdempotencyKey: 'invoice-1',
  roster: [row(), row({ subVendorId: undefined, email: 'dana@contractor.test', fullName: 'Dana' }), row({ subVendorId: undefined, contractorPaymentProfileId: 'cpp_1' })],
  ...fields,
});
const withRow = (fields: Record<string, unknown>) => valid({ roster: [row(fields)] });
const long = (n: number) => 'x'.repeat(n);

/** Bodies breaking each rule of the DTO (and a few it lets through), as a client might send them. */
const BODIES: [string, unknown][] = [
  ['a valid body', valid()],
  ['a total', valid({ totalAmountCents: '40000' })],
  ['a total of 0', valid({ totalAmountCents: '0' })],
  ['every row flag', withRow({ earlyPayoutElected: true, autoWithdrawElected: false, businessCoversFee: true })],
  ['50 rows', valid({ roster: Array.from({ length: 50 }, () => row()) })],
  ['no body', undefined],
  ['a null body', null],
  ['an array body', [valid()]],
  ['a string body', 'roster'],
  ['an unknown field', valid({ note: 'x' })],
  ['a __proto__ field', JSON.parse('{"__proto__": {"x": 1}, "enterpriseCompanyId": "co_1"}')],
  ['no enterprise', valid({ enterpriseCompanyId: undefined })],
  ['a null enterprise', valid({ enterpriseCompanyId: null })],
  ['an empty enterprise', valid({ enterpriseCompanyId: '' })],
  ['a numeric enterprise', valid({ enterpriseCompanyId: 7 })],
  ['an enterprise of 100', valid({ enterpriseCompanyId: long(100) })],
  ['an enterprise of 101', valid({ enterpriseCompanyId: long(101) })],
  ['an enterprise of 100 surrogate pairs', valid({ enterpriseCompanyId: '😀'.repeat(100) })],
  ['an enterprise of one variation selector', valid({ enterpriseCompanyId: '\uFE0F' })],
  ['an AP contact of 101', valid({ apContactBusinessProfileId: long(101) })],
  ['no AP contact', valid({ apContactBusinessProfileId: undefined })],
  ['a key of 255', valid({ clientIdempotencyKey: long(255) })],
  ['a key of 256', valid({ clientIdempotencyKey: long(256) })],
  ['an empty key', valid({ clientIdempotencyKey: '' })],
  ['an object key', valid({ clientIdempotencyKey: { a: 1 } })],
  ['a null total', valid({ totalAmountCents: null })],
  ['a numeric total', valid({ totalAmountCents: 40000 })],
  ['a decimal total', valid({ totalAmountCents: '400.00' })],
  ['a total with a leading zero', valid({ totalAmountCents: '0400' })],
  ['a negative total', valid({ totalAmountCents: '-1' })],
  ['a total of 19 digits', valid({ totalAmountCents: '1'.repeat(19) })],
  ['no roster', valid({ roster: undefined })],
  ['a null roster', valid({ roster: null })],
  ['an empty roster', valid({ roster: [] })],
  ['51 rows', valid({ roster: Array.from({ length: 51 }, () => row()) })],
  ['an object roster', valid({ roster: { 0: row() } })],
  ['a string row', valid({ roster: ['sv_1'] })],
  ['a null row', valid({ roster: [null] })],
  ['an array row', valid({ roster: [[row()]] })],
  ['an unknown row field', withRow({ memo: 'x' })],
  ['no row amount', withRow({ amountCents: undefined })],
  ['a numeric row amount', withRow({ amountCents: 12500 })],
  ['an empty row amount', withRow({ amountCents: '' })],
  ['a row amount with a sign', withRow({ amountCents: '+12500' })],
  ['a string flag', withRow({ earlyPayoutElected: 'true' })],
  ['a numeric flag', withRow({ businessCoversFee: 1 })],
  ['a null flag', withRow({ autoWithdrawElected: null })],
  ['a null sub-vendor', withRow({ subVendorId: null })],
  ['an empty sub-vendor', withRow({ subVendorId: '' })],
  ['a sub-vendor of 101', withRow({ subVendorId: long(101) })],
  ['a numeric payment profile', withRow({ contractorPaymentProfileId: 5 })],
  ['a bad email', withRow({ subVendorId: undefined, email: 'not-an-email' })],
  ['an email of 255', withRow({ subVendorId: undefined, email: `${long(64)}@${long(63)}.${long(63)}.${long(60)}.test` })],
  ['an email with a display name', withRow({ subVendorId: undefined, email: 'Dana <dana@contractor.test>' })],
  ['an empty full name', withRow({ subVendorId: undefined, email: 'dana@contractor.test', fullName: '' })],
  ['a full name of 201', withRow({ subVendorId: undefined, email: 'dana@contractor.test', fullName: long(201) })],
  ['several bad fields', valid({ enterpriseCompanyId: '', roster: [row({ amountCents: 'x', earlyPayoutElected: 'yes' }), 'row'] })],
];

type Outcome = { ok: true; value: unknown } | { ok: false; error: { name: string; code?: string; message: string; details?: unknown } };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: JSON.parse(JSON.stringify((await run()) ?? null)) };
  } catch (error) {
    const e = error as { name: string; code?: string; message: string; details?: unknown };
    return { ok: false, error: { name: e.name, code: e.code, message: e.message, details: e.details } };
  }
}

describe('CreateSplitBodyPipe', () => {
  const pipe = new CreateSplitBodyPipe();
  const dto = createValidationPipe();

  it.each(BODIES)('answers %s exactly as the ValidationPipe on the DTO does', async (_name, body) => {
    const fast = await outcome(() => pipe.transform(structuredCloneOrSame(body), METADATA));
    const classValidator = await outcome(() => dto.transform(structuredCloneOrSame(body), { ...METADATA, metatype: CreateSplitRequestDto }));
    expect(fast).toEqual(classValidator);
  });

  it('checks a valid body without the ValidationPipe (the decorator walk is what it saves)', async () => {
    const fallback = jest.spyOn(pipe['dto'], 'transform');
    const body = valid();
    await expect(pipe.transform(body, METADATA)).resolves.toBe(body);
    expect(fallback).not.toHaveBeenCalled();
    await expect(pipe.transform(valid({ enterpriseCompanyId: '' }), METADATA)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(fallback).toHaveBeenCalledTimes(1);
  });
});

/** Each side gets its own copy (the ValidationPipe builds new objects, but a copy keeps the comparison honest). */
function structuredCloneOrSame(body: unknown): unknown {
  return body === undefined ? undefined : (JSON.parse(JSON.stringify(body)) as unknown);
}
