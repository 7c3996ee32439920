import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Deposit sweeps · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="deposit_sweep" params={params} />;
}
