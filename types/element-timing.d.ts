import "react";

declare module "react" {
  // The type parameter must match React's own declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    /** Element Timing API: the browser reports when this element was painted (scripts/bench/pages.ts reads it). */
    elementtiming?: string;
  }
}
