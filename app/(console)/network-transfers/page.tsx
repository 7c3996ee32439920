import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Network transfers · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="network_transfer" searchParams={searchParams} description="Account-to-account transfers, newest first." />;
}
