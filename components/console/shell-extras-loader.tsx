"use client";

import { lazyComponent } from "@/components/ui/lazy-component";

/** ./shell-extras.tsx as a chunk of its own, rendered once the page has hydrated (nothing on the server). */
export const ShellExtrasLoader = lazyComponent(() => import("./shell-extras").then((module) => module.default), { ssr: false });
