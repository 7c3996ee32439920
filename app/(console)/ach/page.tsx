import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "ACH transfers · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="ach" searchParams={searchParams} description="ACH credits and debits, newest first." />;
}
