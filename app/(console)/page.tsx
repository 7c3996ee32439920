import { AdminSection } from "@/components/home/admin-section";
import { ComplianceSection } from "@/components/home/compliance-section";
import { HomeHeading } from "@/components/home/home-heading";
import { OperationsSection } from "@/components/home/operations-section";
import { RefreshOnChange } from "@/components/live/refresh-on-change";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { homeOverview } from "@/lib/home/home-page";
import { homeKinds } from "@/lib/home/overview";
import { readDisplayZone } from "@/lib/time-zone-server";

export const metadata = { title: "Home" };

export default async function HomePage() {
  const user = await requireUser("bank:read");
  const [environment, { zone }] = await Promise.all([getActiveEnvironment(), readDisplayZone()]);
  const overview = await homeOverview(user, environment, zone);
  return (
    <>
      <HomeHeading overview={overview} environment={environment} />
      <RefreshOnChange resources={homeKinds} />
      {overview.admin ? <AdminSection figures={overview.admin} zone={zone} /> : null}
      {overview.compliance ? <ComplianceSection figures={overview.compliance} /> : null}
      <OperationsSection overview={overview} />
    </>
  );
}
