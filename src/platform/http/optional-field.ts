import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * An optional field that may be left out but not sent as `null` (class-validator's `@IsOptional`
 * skips both). Use it on partial updates, where `null` is neither "unchanged" nor a valid value: the
 * field's other validators then refuse `null` with a 400.
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}
