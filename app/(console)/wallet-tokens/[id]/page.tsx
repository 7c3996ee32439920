import { detailMetadata, ResourceDetailPage } from "@/components/bank/resource-pages";

export const generateMetadata = detailMetadata("digital_wallet_token");

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="digital_wallet_token" params={params} />;
}
