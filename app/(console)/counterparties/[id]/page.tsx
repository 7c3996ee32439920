import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Counterparties · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="counterparty" params={params} />;
}
