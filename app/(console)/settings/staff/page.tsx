import { ServerWhen } from "@/components/format/when";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { StaffRowActions } from "@/components/staff/staff-row-actions";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { requireUser } from "@/lib/auth/current-user";
import { listActiveSessions, type StaffSession } from "@/lib/auth/sessions";
import { listStaff } from "@/lib/auth/staff-users";
import { perUserRule, throttledKeys, userKey } from "@/lib/auth/throttle";
import { consoleDb } from "@/lib/db/console";
import { roleDescriptions } from "@/lib/permissions";

export const metadata = { title: "Staff users" };

export default async function StaffPage() {
  const admin = await requireUser("staff:manage");
  const { db } = await consoleDb();
  const staff = await listStaff(db);
  const lockedOut = await throttledKeys(
    db,
    staff.map((user) => userKey(user.email)),
    perUserRule,
  );
  const sessions = new Map<string, StaffSession[]>();
  for (const session of await listActiveSessions(
    db,
    staff.map((user) => user.id),
  )) {
    sessions.set(session.userId, [...(sessions.get(session.userId) ?? []), session]);
  }
  return (
    <>
      <PageHeader title="Staff users" description="Every change here is audited. A locked or removed user loses access on their next request." />
      <Table>
        <thead className="bg-surface-2">
          <tr>
            <Th>Email</Th>
            <Th>Name</Th>
            <Th>Role</Th>
            <Th>Status</Th>
            <Th>Active sessions</Th>
            <Th>Change</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {staff.map((user) => (
            <tr key={user.id} data-testid={`staff-row-${user.email}`}>
              <Td>{user.email}</Td>
              <Td>{user.name}</Td>
              <Td title={roleDescriptions[user.role]}>{user.role}</Td>
              <Td>
                {user.locked ? <span className="font-medium text-red-700">locked</span> : "active"}
                {lockedOut.has(userKey(user.email)) ? <span className="ml-2 font-medium text-amber-700">sign-in locked out</span> : null}
              </Td>
              <Td>
                <SessionList sessions={sessions.get(user.id) ?? []} />
              </Td>
              <Td>
                <StaffRowActions
                  user={user}
                  isSelf={user.id === admin.id}
                  signInLockedOut={lockedOut.has(userKey(user.email))}
                  activeSessions={sessions.get(user.id)?.length ?? 0}
                />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h2 className="mt-8 mb-3 text-lg font-semibold">New staff user</h2>
      <CreateStaffForm />
    </>
  );
}

function SessionList({ sessions }: { sessions: StaffSession[] }) {
  if (sessions.length === 0) return <span className="text-muted">none</span>;
  return (
    <ul className="space-y-1 text-xs" data-testid="staff-sessions">
      {sessions.map((session) => (
        <li key={session.id} title={session.userAgent ?? undefined}>
          since <ServerWhen at={session.createdAt.toISOString()} /> from {session.address ?? "unknown"}
        </li>
      ))}
    </ul>
  );
}
