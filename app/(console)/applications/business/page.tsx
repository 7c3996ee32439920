import { ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = { title: "Business applications" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage
      resource="business_application"
      searchParams={searchParams}
      description="Business account applications with their beneficial owners, newest first."
    />
  );
}
