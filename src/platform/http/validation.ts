import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ValidationFailedError } from '../domain/domain-error';

/**
 * class-validator on request DTOs: unknown fields are refused, and the 400 lists every bad field
 * (nested paths like `roster.3.amountCents`), not just the first.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // The value lets flatten() tell a missing field from a bad one; it never leaves the process.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => validationFailed(flatten(errors)),
  });
}

/** The 400 of every refused body, whichever check refused it. */
export function validationFailed(details: ErrorDetail[]): ValidationFailedError {
  return new ValidationFailedError(`Invalid request: ${[...new Set(details.map((d) => d.field))].join(', ')}`, details);
}

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    // A missing field breaks every rule it has (type, length, ...): say once that it is required.
    if (own.length > 0 && (error.value === undefined || error.value === null)) return [{ field, message: requiredMessage(error) }];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

function requiredMessage(error: ValidationError): string {
  return error.constraints?.isDefined ?? `${error.property} should not be null or undefined`;
}
