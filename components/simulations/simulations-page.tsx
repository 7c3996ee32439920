import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { ProvisioningSimulation } from "./provisioning-simulation";
import { SimulationRuns } from "./simulation-runs";

/** /simulations: sandbox only. In production the page exists (a bookmark must not 404) but says so and offers nothing. */
export async function SimulationsPage() {
  const user = await requireUser("simulation:run");
  const environment = await getActiveEnvironment();
  return (
    <>
      <PageHeader
        title="Simulations"
        description="Make the sandbox bank do what a real bank does on its own: here, a card added to a digital wallet."
      />
      {environment === "sandbox" ? (
        <>
          <ProvisioningSimulation />
          <SimulationRuns user={user} environment={environment} />
        </>
      ) : (
        <Notice tone="info" testId="sandbox-only">
          Sandbox only: simulations exist only in the sandbox bank, and the {environment} environment is active. Switch to sandbox in the header to
          run one.
        </Notice>
      )}
    </>
  );
}
