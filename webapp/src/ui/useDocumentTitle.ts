import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { appConfigQuery } from "@/lib/config";

/**
 * Sets `document.title` to "{title} · {tenant name}". Reads the configuration from the cache
 * without suspending, so error screens can use it even when the configuration failed to load.
 */
export function useDocumentTitle(title: string | undefined): void {
  const name = useQueryClient().getQueryData(appConfigQuery.queryKey)?.name_short;
  useEffect(() => {
    if (!title) return;
    document.title = name && name !== title ? `${title} · ${name}` : title;
  }, [title, name]);
}
