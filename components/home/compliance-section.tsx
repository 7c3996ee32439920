import type { ComplianceFigures } from "@/lib/home/compliance";
import type { Read } from "@/lib/home/home-page";
import { FigureCard, FigureGroup, ReadError } from "./figure-card";

/** What a reviewer watches: the review queue's applications over the SLA, awaiting a second review, assigned to them. */
export function ComplianceSection({ figures }: { figures: Read<ComplianceFigures> }) {
  return (
    <section aria-labelledby="compliance-title" className="mb-6" data-testid="home-compliance">
      <h2 id="compliance-title" className="mb-2 text-base font-semibold">
        Compliance
      </h2>
      {figures.ok ? (
        <FigureGroup
          id="queue-title"
          title="Review queue"
          note={`Undecided applications; the SLA is ${figures.value.slaHours} h from the application's creation.`}
        >
          <FigureCard label="Over the SLA" {...figures.value.overSla} />
          <FigureCard label="Awaiting a second review" {...figures.value.awaitingSecondReview} alarming={false} />
          <FigureCard label="Assigned to me" {...figures.value.assignedToMe} alarming={false} />
        </FigureGroup>
      ) : (
        <ReadError what="the review queue" error={figures.error} />
      )}
    </section>
  );
}
