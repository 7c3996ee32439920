import { When } from "@/components/format/when";
import { PageHeader } from "@/components/ui/page-header";
import type { Environment } from "@/lib/credentials/environments";
import { formatCalendarDate } from "@/lib/format";
import type { HomeOverview } from "@/lib/home/home-page";

/** Home's title and which day "today" is: the date in the staff member's zone, on whose clock. */
export function HomeHeading({ overview, environment }: { overview: HomeOverview; environment: Environment }) {
  const { clock, zone, today } = overview;
  return (
    <PageHeader
      title="Home"
      description={
        <span data-testid="home-today">
          What needs attention today, {formatCalendarDate(today.day)} in {zone}, in the {environment} environment (
          {clock.source === "sandbox" ? "the sandbox bank's clock reads " : "now "}
          <When at={clock.now.toISOString()} zone={zone} />
          {clock.source === "console" && environment === "sandbox" ? "; the sandbox's clock could not be read, so the console's is used" : ""}).
        </span>
      }
    />
  );
}
