import { SearchView } from "@/components/search/search-view";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";

export const metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireUser("bank:read");
  const q = (await searchParams).q;
  return (
    <>
      <PageHeader
        title="Search"
        description="Every object in the console's index of the bank: ids, amounts, names, emails, memos, trace numbers, last four. Fields your role sees masked are not searched."
      />
      <SearchView initialQuery={typeof q === "string" ? q : ""} />
    </>
  );
}
