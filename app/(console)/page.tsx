import Link from "next/link";
import { navigation } from "@/components/console/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { can, roleDescriptions } from "@/lib/permissions";

export default async function HomePage() {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const sections = navigation.filter((item) => item.href !== "/" && can(user.role, item.permission));
  return (
    <>
      <PageHeader title="Bank console" description="Find and fix money movements, read account applications, manage webhooks." />
      <section className="rounded-md border border-line bg-surface p-4 text-sm">
        <p>
          Signed in as <strong>{user.email}</strong> with role <strong>{user.role}</strong>: {roleDescriptions[user.role]}.
        </p>
        <p className="mt-1 text-muted">
          Working in the <strong>{environment}</strong> environment; switch it in the bar at the top.
        </p>
      </section>
      {sections.length > 0 ? (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {sections.map((item) => (
            <li key={item.href} className="rounded-md border border-line bg-surface p-4">
              <Link href={item.href} className="font-medium hover:underline">
                {item.label}
              </Link>
              <p className="mt-1 text-sm text-muted">{item.description}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
