import { detailMetadata, ResourceDetailPage } from "@/components/bank/resource-pages";

export const generateMetadata = detailMetadata("deposit_sweep");

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="deposit_sweep" params={params} />;
}
