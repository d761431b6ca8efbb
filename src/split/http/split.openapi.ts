import type { ExampleObject } from '@nestjs/swagger';
import { type ApiErrorSource } from '../../platform/http/openapi';
import {
  SplitAmountInvalidError,
  SplitContractorNotActiveCreatorError,
  SplitInstantPayoutNeedsWalletEmailError,
  SplitMarginCapExceededError,
  SplitRosterSizeError,
  SplitRosterSumTooLargeError,
  SplitRosterSumZeroError,
  SplitRowAmountNotPositiveError,
  SplitSubVendorNotOwnedError,
  SplitTotalBelowRosterSumError,
  SplitDuplicateContractorError,
} from '../domain/split.errors';

/** The rules a roster (create or revise) can break: amounts (400) and contractors (422), docs/api.md. */
export const ROSTER_ERRORS: ApiErrorSource[] = [
  SplitRosterSizeError,
  SplitDuplicateContractorError,
  SplitAmountInvalidError,
  SplitRowAmountNotPositiveError,
  SplitRosterSumZeroError,
  SplitRosterSumTooLargeError,
  SplitTotalBelowRosterSumError,
  SplitMarginCapExceededError,
  SplitContractorNotActiveCreatorError,
  SplitSubVendorNotOwnedError,
  SplitInstantPayoutNeedsWalletEmailError,
];

/**
 * Fees the SME covers beyond the margin must be set aside from its available balance when elected
 * (create, revise, pay one row out now; docs/api.md#fees-the-sme-covers-422-sme_fee_not_covered). The
 * rule lives on the company balance (payout-embed's SmeFeeNotCoveredError), hence the code here.
 */
export const SME_FEE_NOT_COVERED = {
  status: 422,
  code: 'SME_FEE_NOT_COVERED',
  message: 'The fees the SME covers need 15000 more USD set aside from its balance; 0 is available',
} as const satisfies ApiErrorSource;

/**
 * Each row names its contractor exactly one way, so each example shows one way (a row with two is a
 * 400). The margin (total minus the roster sum) stays within 20% of the total.
 */
const rows = {
  creator: [{ amountCents: '40000', contractorPaymentProfileId: 'cpp_00mwr6hxgj5js1svb6psf8f470', earlyPayoutElected: false }],
  subVendor: [{ amountCents: '40000', subVendorId: 'sv_g05re5d09dfabuimrdp7rkbe41', autoWithdrawElected: true }],
  email: [{ amountCents: '40000', email: 'dana@contractor.test', fullName: 'Dana Contractor' }],
};
const split = { enterpriseCompanyId: 'co_00mwr6hxgj5js1svb6psf8f470', apContactBusinessProfileId: 'bp_00mwr6hxgj5js1svb6psf8f470', totalAmountCents: '45000' };

export const CREATE_SPLIT_EXAMPLES: Record<string, ExampleObject> = {
  creator: { summary: 'A creator row (contractorPaymentProfileId)', value: { ...split, clientIdempotencyKey: 'invoice-2026-0042', roster: rows.creator } },
  subVendor: { summary: "A row for a vendor on the SME's roster (subVendorId)", value: { ...split, clientIdempotencyKey: 'invoice-2026-0043', roster: rows.subVendor } },
  email: { summary: 'A contractor onboarded by email', value: { ...split, clientIdempotencyKey: 'invoice-2026-0044', roster: rows.email } },
};

export const REVISE_ROSTER_EXAMPLES: Record<string, ExampleObject> = {
  email: { summary: 'One row, by email, and a new total', value: { totalAmountCents: '45000', roster: rows.email } },
  creator: { summary: 'One creator row; the total is the roster sum', value: { roster: rows.creator } },
};
