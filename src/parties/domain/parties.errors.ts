import { DomainError } from '../../platform/domain/domain-error';

export class CompanyNotFoundError extends DomainError {
  readonly code = 'COMPANY_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Company not found');
  }
}

export class CreatorAlreadyExistsError extends DomainError {
  readonly code = 'CREATOR_ALREADY_EXISTS';
  readonly kind = 'conflict';
  constructor() {
    super('This account already has a creator profile');
  }
}

export class SplitSettingsForSelfError extends DomainError {
  readonly code = 'SPLIT_SETTINGS_FOR_SELF';
  readonly kind = 'unprocessable';
  constructor() {
    super('A company cannot set split settings for itself');
  }
}

/** No SubVendor with this id on the caller's roster (another SME's is answered the same: 404, never 403). */
export class SubVendorNotFoundError extends DomainError {
  readonly code = 'SUB_VENDOR_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Sub-vendor not found');
  }
}
