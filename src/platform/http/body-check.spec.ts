import { ValidationFailedError } from '../domain/domain-error';
import { BodyCheck, oneOf, stringOfLength } from './body-check';

const isColour = oneOf(['RED', 'BLUE'] as const);
const isNote = stringOfLength(1, 5);

function refusal(run: () => void): ValidationFailedError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('BodyCheck', () => {
  it('returns the checked fields of a good body', () => {
    const check = new BodyCheck({ colour: 'RED', note: 'hi' }, ['colour', 'note']);
    expect(check.required('colour', isColour, '$property must be a colour')).toBe('RED');
    expect(check.optional('note', isNote, '$property must be a note')).toBe('hi');
    expect(() => check.done()).not.toThrow();
  });

  it('treats a missing or null optional field as absent', () => {
    const check = new BodyCheck({ colour: 'BLUE', note: null }, ['colour', 'note']);
    expect(check.optional('note', isNote, 'x')).toBeUndefined();
    expect(check.optional('other', isNote, 'x')).toBeUndefined();
    expect(() => check.done()).not.toThrow();
  });

  it('lists every bad, missing and unknown field in one VALIDATION_FAILED', () => {
    const error = refusal(() => {
      const check = new BodyCheck({ colour: 'GREEN', note: '', tip: 5 }, ['colour', 'note', 'size']);
      check.required('colour', isColour, '$property must be a colour');
      check.optional('note', isNote, '$property must be a note');
      check.required('size', isNote, '$property must be a size');
      check.done();
    });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual([
      { field: 'tip', message: 'property tip should not exist' },
      { field: 'colour', message: 'colour must be a colour' },
      { field: 'note', message: 'note must be a note' },
      { field: 'size', message: 'size should not be null or undefined' },
    ]);
    expect(error.message).toBe('Invalid request: tip, colour, note, size');
  });

  it.each([[null], [[]], ['text'], [42]])('refuses a body that is not an object (%j)', (body) => {
    const error = refusal(() => {
      const check = new BodyCheck(body, ['colour']);
      check.optional('colour', isColour, 'x');
      check.done();
    });
    expect(error.details).toEqual([{ field: 'body', message: 'the request body must be a JSON object' }]);
  });

  it("reads only the body's own fields, never inherited ones", () => {
    const body = Object.create({ colour: 'RED' }) as Record<string, unknown>;
    const error = refusal(() => {
      const check = new BodyCheck(body, ['colour']);
      check.required('colour', isColour, '$property must be a colour');
      check.done();
    });
    expect(error.details).toEqual([{ field: 'colour', message: 'colour should not be null or undefined' }]);
  });

  it('oneOf accepts only the listed strings', () => {
    expect(isColour('RED')).toBe(true);
    expect(isColour('red')).toBe(false);
    expect(isColour(1)).toBe(false);
  });
});
