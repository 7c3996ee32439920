import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { StaffRowActions } from "@/components/staff/staff-row-actions";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { requireUser } from "@/lib/auth/current-user";
import { listStaff } from "@/lib/auth/staff-users";
import { consoleDb } from "@/lib/db/console";
import { roleDescriptions } from "@/lib/permissions";

export const metadata = { title: "Staff users · Bank console" };

export default async function StaffPage() {
  const admin = await requireUser("staff:manage");
  const staff = await listStaff((await consoleDb()).db);
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
            <Th>Change</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {staff.map((user) => (
            <tr key={user.id} data-testid={`staff-row-${user.email}`}>
              <Td>{user.email}</Td>
              <Td>{user.name}</Td>
              <Td title={roleDescriptions[user.role]}>{user.role}</Td>
              <Td>{user.locked ? <span className="font-medium text-red-700">locked</span> : "active"}</Td>
              <Td>
                <StaffRowActions user={user} isSelf={user.id === admin.id} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h2 className="mb-3 mt-8 text-lg font-semibold">New staff user</h2>
      <CreateStaffForm />
    </>
  );
}
