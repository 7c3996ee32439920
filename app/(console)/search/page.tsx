import { SearchView } from "@/components/search/search-view";
import { PageHeader } from "@/components/ui/page-header";
import { headers } from "next/headers";
import { startedByAnotherSite } from "@/lib/api/same-origin";
import { requireUser } from "@/lib/auth/current-user";
import { searchableBy } from "@/lib/search/searchable";

export const metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("bank:read");
  const q = (await searchParams).q;
  // A role matching masked fields leaves an audit record of each search (searchAsStaff): a link on another site must
  // not run one in this person's name, so they confirm it first.
  const confirmFirst = searchableBy(user.role).length > 1 && startedByAnotherSite(await headers());
  return (
    <>
      <PageHeader
        title="Search"
        description="Every object in the console's index of the bank: ids, amounts, names, emails, memos, trace numbers, last four. Fields your role sees masked are not searched."
      />
      <SearchView initialQuery={typeof q === "string" ? q : ""} confirmFirst={confirmFirst} />
    </>
  );
}
