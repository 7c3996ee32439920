import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Counterparties · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="counterparty" searchParams={searchParams} description="External parties for ACH and wire, newest first." />;
}
