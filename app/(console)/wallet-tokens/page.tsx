import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Wallet tokens · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="digital_wallet_token" searchParams={searchParams} description="Cards provisioned to digital wallets, newest first." />;
}
