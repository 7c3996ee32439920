import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Instant payments · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="fednow" searchParams={searchParams} description="Instant payments on the FedNow network, newest first." />;
}
