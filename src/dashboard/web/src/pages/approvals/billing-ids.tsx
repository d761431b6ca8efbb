import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import type { Me } from '../../api/types';
import { CopyButton } from '../../components/ui';
import { useResource } from '../../lib/use-resource';

type ApContact = components['schemas']['BusinessProfileDto'];

/** What a supplier needs to bill this enterprise (the New Split form asks for both ids). */
export function BillingIds({ me }: { me: Me }) {
  const contacts = useResource(() => data<ApContact[]>(api.GET('/api/commerce/business-profiles')));
  return (
    <section className="panel" aria-labelledby="billing-ids-title">
      <h2 id="billing-ids-title">How suppliers bill you</h2>
      <p className="small muted" style={{ marginTop: 0 }}>
        A supplier creating a Split names your account and one of your AP contacts.
      </p>
      <p className="row" style={{ justifyContent: 'flex-start', margin: '0 0 0.5rem' }}>
        <span>
          Account id <code data-testid="company-id">{me.companyId}</code>
        </span>
        <CopyButton text={me.companyId} label="Copy account id" />
      </p>
      {(contacts.data ?? []).map((contact) => (
        <p key={contact.id} className="row" style={{ justifyContent: 'flex-start', margin: '0 0 0.5rem' }}>
          <span>
            AP contact {contact.displayName} <code>{contact.id}</code>
          </span>
          <CopyButton text={contact.id} label={`Copy ${contact.displayName} id`} />
        </p>
      ))}
    </section>
  );
}
