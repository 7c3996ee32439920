import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Business applications · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="business_application" searchParams={searchParams} description="Business account applications with their beneficial owners, newest first." />;
}
