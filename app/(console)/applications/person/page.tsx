import { ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = { title: "Person applications" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage
      resource="person_application"
      searchParams={searchParams}
      description="Account applications of people, newest first. Personal data is masked unless revealed."
    />
  );
}
