import { CredentialsForm } from "@/components/credentials/credentials-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { describeConnection, environments } from "@/lib/credentials";

export const metadata = { title: "Bank credentials" };

export default async function CredentialsPage() {
  await requireUser("credentials:manage");
  const summaries = await Promise.all(environments.map((environment) => describeConnection(environment)));
  return (
    <>
      <PageHeader
        title="Bank credentials"
        description="Kept on the server only, encrypted at rest (AES-256-GCM). Saved credentials take precedence over the environment variables. Every change is audited."
      />
      <div className="space-y-6">
        {summaries.map((summary) => (
          <section
            key={summary.environment}
            data-testid={`credentials-${summary.environment}`}
            className="rounded-md border border-line bg-surface p-4"
          >
            <h2 className="text-lg font-semibold capitalize">{summary.environment}</h2>
            <dl className="mt-2 mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted">Source</dt>
              <dd>{summary.source}</dd>
              <dt className="text-muted">Base URL</dt>
              <dd>{summary.baseUrl ?? "none"}</dd>
              <dt className="text-muted">Authentication</dt>
              <dd>{summary.authType === "basic" ? `API key ${summary.keyId}` : summary.authType === "bearer" ? "bearer token" : "none"}</dd>
              {summary.updatedAt ? (
                <>
                  <dt className="text-muted">Saved</dt>
                  <dd>
                    {summary.updatedAt} by {summary.updatedBy}
                  </dd>
                </>
              ) : null}
            </dl>
            <CredentialsForm summary={summary} />
          </section>
        ))}
      </div>
    </>
  );
}
