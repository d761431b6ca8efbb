import { given } from '../../../test/support/given-when-then';
import { companyDecider } from './company.decider';
import { CompanyEvent } from './parties.events';

const now = '2026-01-01T00:00:00.000Z';
const settings = (autoAccept: boolean, coverFees: boolean): CompanyEvent => ({
  type: 'company.split_settings.set',
  data: { enterpriseCompanyId: 'co_e', smeCompanyId: 'co_s', autoAccept, coverFees, setAt: now },
});

describe('company decider', () => {
  it('sets net terms', () =>
    given(companyDecider)
      .when({ type: 'SetNetTerms', data: { companyId: 'co_e', netTermsDays: 45 }, metadata: { now, actor: 'system' } })
      .then([{ type: 'company.net_terms.set', data: { companyId: 'co_e', netTermsDays: 45, setAt: now } }]));
  it('records nothing when net terms do not change (default 30)', () =>
    given(companyDecider)
      .when({ type: 'SetNetTerms', data: { companyId: 'co_e', netTermsDays: 30 }, metadata: { now, actor: 'system' } })
      .thenNothing());
  it('sets split settings for an SME', () =>
    given(companyDecider)
      .when({ type: 'SetSplitSettings', data: { enterpriseCompanyId: 'co_e', smeCompanyId: 'co_s', autoAccept: true, coverFees: false }, metadata: { now, actor: 'system' } })
      .then([settings(true, false)]));
  it('records nothing when the settings are unchanged', () =>
    given(companyDecider, settings(true, false))
      .when({ type: 'SetSplitSettings', data: { enterpriseCompanyId: 'co_e', smeCompanyId: 'co_s', autoAccept: true, coverFees: false }, metadata: { now, actor: 'system' } })
      .thenNothing());
  it('refuses settings for itself', () =>
    given(companyDecider)
      .when({ type: 'SetSplitSettings', data: { enterpriseCompanyId: 'co_e', smeCompanyId: 'co_e', autoAccept: true, coverFees: false }, metadata: { now, actor: 'system' } })
      .thenFails('SPLIT_SETTINGS_FOR_SELF'));
});
