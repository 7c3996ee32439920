"use client";

import { lazyComponent } from "@/components/ui/lazy-component";

/**
 * The review case's workspace as a chunk of its own, server-rendered where it shows: a server component's client
 * imports join the first load of every page using it, and the one detail page serves every resource, while only
 * applications have a case (docs/benchmarks.md, pages).
 */
export const CaseWorkspaceLoader = lazyComponent(() => import("./case-workspace").then((module) => module.CaseWorkspace));
