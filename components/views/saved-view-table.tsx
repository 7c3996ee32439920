import Link from "next/link";
import { Table, Td, Th } from "@/components/ui/table";
import { resourceRoutes } from "@/lib/resources/routes";
import { viewHref } from "@/lib/views/actions";
import type { SavedView } from "@/lib/views/store";

/** Every saved view a staff member sees (their own and the shared ones), where the sidebar shows only the first few. */
export function SavedViewTable({ views }: { views: SavedView[] }) {
  if (views.length === 0) return <p className="text-sm text-muted">No saved views.</p>;
  return (
    <Table aria-label="Saved views">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>List</Th>
          <Th>Saved by</Th>
          <Th>Seen by</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {views.map((view) => (
          <tr key={view.id}>
            <Td>
              <Link href={viewHref(view)} className="text-accent hover:underline">
                {view.name}
              </Link>
            </Td>
            <Td>{resourceRoutes[view.resource].title}</Td>
            <Td>{view.ownerEmail}</Td>
            <Td>{view.shared ? "every staff member" : "its owner"}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
