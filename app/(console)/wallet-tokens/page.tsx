import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("digital_wallet_token");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage resource="digital_wallet_token" searchParams={searchParams} description="Cards provisioned to digital wallets, newest first." />
  );
}
