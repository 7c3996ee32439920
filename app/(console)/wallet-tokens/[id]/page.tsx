import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Wallet tokens · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="digital_wallet_token" params={params} />;
}
