import { dataOf, outbox, uniqueEmail } from './split-fixtures';
import { TestApp } from './test-app';

export type RoleName = 'owner' | 'admin' | 'developer' | 'finance' | 'viewer';

export interface Member {
  email: string;
  userId: string;
  sessionToken: string;
  role: RoleName;
}

/** The token of the newest invitation link emailed to `email` (sandbox outbox). */
export async function invitationToken(app: TestApp, email: string): Promise<string> {
  const messages = (await outbox(app)).filter((message) => message.to === email && message.subject.startsWith('You are invited')).sort((a, b) => a.id.localeCompare(b.id));
  const newest = messages[messages.length - 1];
  if (!newest) throw new Error(`no invitation emailed to ${email}`);
  return new URL(newest.link).searchParams.get('token')!;
}

/** The owner invites `email` as `role`; the person signs in with the emailed link and is a member (issue 30). */
export async function invitedMember(app: TestApp, ownerSession: string, role: RoleName, email = uniqueEmail(`${role}-member`)): Promise<Member> {
  dataOf(await app.request('POST', '/api/commerce/members', { token: ownerSession, body: { email, role } }), 201);
  const signedIn = dataOf(await app.request('POST', '/api/auth/magic-link/sign-in', { body: { token: await invitationToken(app, email) } }), 200);
  return { email, userId: signedIn.userId, sessionToken: signedIn.sessionToken, role };
}
