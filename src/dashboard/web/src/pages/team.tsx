import { useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../api/client';
import type { components } from '../api/schema';
import { DataTable, Notice, useConfirmedAction } from '../components/data-list';
import { Badge, Button, Confirm, EmptyState, ErrorAlert, Field, PageHead, useAction } from '../components/ui';
import { canDo, ROLE_CHOICES, type Role, type Viewer } from '../lib/access';
import { Time } from '../lib/format';
import { useResource } from '../lib/use-resource';

type Member = components['schemas']['MemberDto'];
type Invitation = components['schemas']['InvitationDto'];

const labelOf = (role: Role) => ROLE_CHOICES.find((choice) => choice.role === role)?.label ?? role;

/**
 * Issue 30: the company's members and pending invitations. Everyone reads it; only an owner is shown the buttons
 * (invite with a role, change a role, remove a member, withdraw an invitation), as only an owner may call them.
 */
export function TeamPage({ viewer }: { viewer: Viewer }) {
  const members = useResource(() => data<Member[]>(api.GET('/api/commerce/members')));
  const invitations = useResource(() => data<Invitation[]>(api.GET('/api/commerce/members/invitations')));
  const owner = canDo(viewer, 'members');
  // A company keeps at least one owner (409 LAST_OWNER): its last owner is shown no role change or removal.
  const lastOwner = (member: Member) => member.role === 'owner' && (members.data ?? []).filter((m) => m.role === 'owner').length === 1;
  const [notice, setNotice] = useState<string | null>(null);
  const changeRole = useAction(async (member: Member, role: Role) => {
    await data(api.PATCH('/api/commerce/members/{userId}', { params: { path: { userId: member.userId } }, body: { role } }));
    setNotice(`${member.email} is now ${labelOf(role)}.`);
    members.reload();
  });
  const remove = useConfirmedAction(async (member: Member) => {
    await data(api.DELETE('/api/commerce/members/{userId}', { params: { path: { userId: member.userId } } }));
    setNotice(`${member.email} was removed; their sessions stopped working.`);
    members.reload();
  });
  const withdraw = useConfirmedAction(async (invitation: Invitation) => {
    await data(api.DELETE('/api/commerce/members/invitations/{inviteId}', { params: { path: { inviteId: invitation.inviteId } } }));
    setNotice(`The invitation of ${invitation.email} was withdrawn.`);
    invitations.reload();
  });
  return (
    <>
      <PageHead title="Team" lede="The people of your company and what each may do. A role applies from their next click." />
      <Notice>{notice}</Notice>
      {owner ? (
        <Invite
          onInvited={(email) => {
            setNotice(`An invitation was emailed to ${email}.`);
            invitations.reload();
          }}
        />
      ) : null}
      <ErrorAlert error={changeRole.error} />
      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <DataTable
          resource={members}
          empty={<EmptyState title="No members">Invite someone above.</EmptyState>}
          rowKey={(member) => member.userId}
          rowProps={(member) => ({ 'data-member': member.email })}
          columns={[
            {
              header: 'Member',
              cell: (member) => (
                <span>
                  <strong>{member.email}</strong> {member.userId === viewer.me.userId ? <Badge tone="info">You</Badge> : null}
                </span>
              ),
            },
            {
              header: 'Role',
              cell: (member) =>
                owner && !lastOwner(member) ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={changeRole.busy}
                    onChange={(e) => void changeRole.run(member, e.target.value as Role)}
                  >
                    {ROLE_CHOICES.map((choice) => (
                      <option key={choice.role} value={choice.role}>
                        {choice.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="nowrap">{labelOf(member.role)}</span>
                ),
            },
            { header: 'Joined', cell: (member) => <Time iso={member.joinedAt} /> },
          ]}
          actions={
            owner
              ? (member) =>
                  lastOwner(member) ? null : (
                    <Button small variant="danger-ghost" onClick={() => remove.ask(member)} aria-label={`Remove ${member.email}`}>
                      Remove
                    </Button>
                  )
              : undefined
          }
        />
      </section>
      <section className="panel" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Pending invitations</h2>
        <DataTable
          resource={invitations}
          empty={<EmptyState title="No pending invitations">Everyone invited has joined.</EmptyState>}
          rowKey={(invitation) => invitation.inviteId}
          rowProps={(invitation) => ({ 'data-invitation': invitation.email })}
          columns={[
            { header: 'Email', cell: (invitation) => <strong>{invitation.email}</strong> },
            { header: 'Role', cell: (invitation) => <span className="nowrap">{labelOf(invitation.role)}</span> },
            { header: 'Invited', cell: (invitation) => <Time iso={invitation.invitedAt} /> },
            { header: 'By', cell: (invitation) => invitation.invitedBy },
          ]}
          actions={
            owner
              ? (invitation) => (
                  <Button small variant="danger-ghost" onClick={() => withdraw.ask(invitation)} aria-label={`Withdraw the invitation of ${invitation.email}`}>
                    Withdraw
                  </Button>
                )
              : undefined
          }
        />
      </section>
      <section className="panel" aria-labelledby="roles-title">
        <h2 id="roles-title">Roles</h2>
        <dl className="roles">
          {ROLE_CHOICES.map((choice) => (
            <div key={choice.role}>
              <dt>{choice.label}</dt>
              <dd className="muted">{choice.may}</dd>
            </div>
          ))}
        </dl>
      </section>
      <Confirm
        {...remove.dialog}
        title={`Remove ${remove.subject?.email ?? ''}?`}
        body="They lose access to this company at once; their sessions stop working. A company keeps at least one owner."
        confirmLabel="Remove member"
      />
      <Confirm
        {...withdraw.dialog}
        title={`Withdraw the invitation of ${withdraw.subject?.email ?? ''}?`}
        body="Its link signs nobody in any more."
        confirmLabel="Withdraw invitation"
      />
    </>
  );
}

function Invite({ onInvited }: { onInvited: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const invite = useAction(async () => {
    await data(api.POST('/api/commerce/members', { body: { email: email.trim(), role } }));
    onInvited(email.trim());
    setEmail('');
  });
  const fields = invite.error instanceof ApiError ? invite.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void invite.run();
  };
  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a person</h2>
      {invite.error && !fields.email ? <ErrorAlert error={invite.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Email" error={fields.email}>
            {(props) => <input {...props} type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="finance@yourcompany.example" />}
          </Field>
          <Field label="Role" hint={ROLE_CHOICES.find((choice) => choice.role === role)?.may}>
            {(props) => (
              <select {...props} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLE_CHOICES.map((choice) => (
                  <option key={choice.role} value={choice.role}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Button type="submit" variant="primary" icon="send" busy={invite.busy}>
          Send invitation
        </Button>
      </form>
    </section>
  );
}
