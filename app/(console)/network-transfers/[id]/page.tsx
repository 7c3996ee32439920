import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Network transfers · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="network_transfer" params={params} />;
}
